"""Sentences of archive text, as offline answers copy them (see :mod:`answers`; they are
split by :func:`text.sentences.sentences`).

Nothing is generated offline: every sentence is copied from a retrieved passage and followed by
that passage's ``[C:<chunk id>]`` marker, so the answer is as trustworthy as the retrieval.
"""

from __future__ import annotations

MIN_CHARS = 25
MAX_CHARS = 400


def ended(sentence: str) -> str:
    """``sentence`` with a closing full stop when it has no end mark."""
    return sentence if sentence[-1:] in ".!?\"')" else sentence + "."
