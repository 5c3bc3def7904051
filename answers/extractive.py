"""Sentences of archive text, as offline answers copy them (see :mod:`answers`).

Nothing is generated offline: every sentence is copied from a retrieved passage and followed by
that passage's ``[C:<chunk id>]`` marker, so the answer is as trustworthy as the retrieval.
"""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"([.!?][\"')\]]*)\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n|\n(?=\s*[-*•\d])")
MIN_CHARS = 25
MAX_CHARS = 400


#: Words ending in a full stop that do not end a sentence ("No. 3 cylinder", "Capt. Smith").
ABBREVIATIONS = frozenset(
    """no nos nr mr mrs ms dr st capt cpt eng approx ca fig figs vs etc e.g i.e al inc ltd co
    jan feb mar apr jun jul aug sep sept oct nov dec dept ref para sec art vol pp p""".split()  # noqa: SIM905
)


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (and list items), whitespace flattened."""
    parts: list[str] = []
    start = 0
    for boundary in _SENTENCE_END.finditer(text):
        end = boundary.end(1) if boundary.group(1) else boundary.start()
        words = text[start:end].split()
        last_word = words[-1] if words else ""
        if boundary.group(1) and (
            last_word.lower().rstrip(".") in ABBREVIATIONS or re.fullmatch(r"[A-Z]\.", last_word)
        ):
            continue  # "No. 3", "J. Smith": not the end of a sentence
        parts.append(text[start:end])
        start = boundary.end()
    parts.append(text[start:])
    flat = (" ".join(p.split()) for p in parts)
    return [p for p in flat if p]


def ended(sentence: str) -> str:
    """``sentence`` with a closing full stop when it has no end mark."""
    return sentence if sentence[-1:] in ".!?\"')" else sentence + "."
