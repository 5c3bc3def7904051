"""Scoring a fix or cause question about a mail thread: the fix is stated when the answer holds
every gold key phrase (case, punctuation and citation markers aside) and cites a message that
states them (the message the questions name, or the same replier's other message saying it).
Citing only the thread's generated digest, or the asker's own message, does not count.

Such questions (``benchmarks/questions/fix_threads_*.jsonl``) hold ``{"kind": "fix"|"cause",
"question", "thread_id", "message_id", "gold": [key phrases], "stated_in": [message ids]}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_MARKER = re.compile(r"\s*\[(?:C:)?[^\]\s]{1,16}\]")


def _normalised(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", _MARKER.sub(" ", text).lower()))


def phrases_stated(answer: str, phrases: Sequence[str]) -> bool:
    """Whether ``answer`` holds every phrase word for word."""
    said = f" {_normalised(answer)} "
    return all(f" {_normalised(p)} " in said for p in phrases if _normalised(p))


def cites_message(citations: Sequence[Mapping[str, Any]], stated_in: Sequence[str]) -> bool:
    """Whether a citation goes to a message that states the gold (by its Message-ID)."""
    wanted = set(stated_in)
    return any(c.get("kind") == "email" and c.get("source_id") in wanted for c in citations)


def fix_stated(
    answer: str,
    citations: Sequence[Mapping[str, Any]],
    phrases: Sequence[str],
    stated_in: Sequence[str],
) -> bool:
    """The gold phrases said and cited to a message that states them."""
    return phrases_stated(answer, phrases) and cites_message(citations, stated_in)
