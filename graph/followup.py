"""Offline follow-up handling: a question that leans on the previous one is searched with it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import AnyMessage, HumanMessage

_ANAPHORA = re.compile(
    r"\b(it|its|it's|this|that|these|those|they|them|their|he|she|his|her|there|the same)\b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"^\s*(and|also|what about|how about|then|why|how come)\b", re.I)
MAX_FOLLOWUP_WORDS = 10


def is_followup(question: str) -> bool:
    """A short question that points back at something said before."""
    words = question.split()
    return len(words) <= MAX_FOLLOWUP_WORDS and bool(
        _ANAPHORA.search(question) or _CONTINUATION.search(question)
    )


def standalone_query(question: str, history: Sequence[AnyMessage]) -> str:
    """The search text for ``question``: prefixed, if it is a follow-up, by the latest earlier
    user question that stands on its own."""
    if not is_followup(question):
        return question
    earlier = [m.content for m in history if isinstance(m, HumanMessage)][:-1]
    for previous in reversed(earlier):
        if isinstance(previous, str) and previous.strip() and not is_followup(previous):
            return f"{previous.strip()} {question.strip()}"
    return question
