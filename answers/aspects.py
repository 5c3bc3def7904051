"""The aspect a question asks about, which decides the answer's shape: a cause, a fix, an
account, a list, or plain facts."""

from __future__ import annotations

import re
from typing import Literal

Aspect = Literal["cause", "fix", "happened", "pattern", "general"]

_PATTERN = re.compile(
    # "list" as a request ("List accidents ...", "list all"), not the mailing list; "examples",
    # not "the example FPGA image"
    r"^\s*list\b|\b(?:list\s+(?:all|the|every|of)\b)"
    r"|\b(?:common|frequent|typical|recurring|most\s+often|patterns?|trends?|examples"
    r"|how\s+many|which\s+(?:vessels|ships|aircraft|airplanes|planes|reports|accidents|incidents"
    r"|casualties|threads|users|boards|devices)|what\s+(?:other|kinds?|types?)"
    r"|(?:other|similar|all)\s+(?:accidents|incidents|cases|reports|casualties|threads))\b",
    re.IGNORECASE,
)
_CAUSE = re.compile(
    r"\b(?:why|caus\w*|reason\w*|root|culprit|(?:is|was|went|'s|going|doing\s+(?:something|anything))\s+wrong|going\s+on|led\s+to|lead\s+to|due\s+to|because|blame\w*"
    r"|contribut\w*|explain\w*|responsible|what(?:['’]s|\s+is|\s+was)\s+behind)\b",
    re.IGNORECASE,
)
_FIX = re.compile(
    r"\b(?:fix\w*|resolv\w*|solv\w*|solution|repair\w*|remed\w*|workaround|work(?:ed)?\s+around"
    r"|corrected|correct\s+it|suggest\w*|recommend\w*|advis\w*|command|how\s+(?:do|can|did|should)"
    r"\s+(?:i|we|you|they)|get\s+(?:it|this)\s+(?:to\s+)?work\w*|restor\w*|replac\w*|cure\w*"
    r"|recover\w*|(?:for|make|get)\s+it\s+(?:to\s+)?work|culprit|workaround)\b",
    re.IGNORECASE,
)
_HAPPENED = re.compile(
    r"\b(?:what\s+happened|happen\w*|describe|tell\s+me\s+about|summar\w*|account|overview"
    r"|what\s+(?:was|is)\s+(?:the\s+)?(?:accident|incident|casualty|event|report|thread))\b",
    re.IGNORECASE,
)


def question_aspect(question: str) -> Aspect:
    """The aspect ``question`` asks about (the question's own words, not a follow-up's
    borrowed subject): a list first, then a fix, a cause, an account, else ``general``."""
    if _PATTERN.search(question):
        return "pattern"
    if _FIX.search(question):
        return "fix"
    if _CAUSE.search(question):
        return "cause"
    if _HAPPENED.search(question):
        return "happened"
    return "general"


def asks_cause(question: str) -> bool:
    """Whether ``question`` asks about causes (of one event or of many)."""
    return bool(_CAUSE.search(question))


#: Words that say which aspect a question asks about rather than what it is about.
ASPECT_WORDS = re.compile(
    "|".join(p.pattern for p in (_CAUSE, _FIX, _HAPPENED))
    + r"|\b(?:how|what|which|who|when|where|was|were|is|are|did|does|do|the|it|its|and|also)\b",
    re.IGNORECASE,
)


def subject_of(question: str) -> str:
    """``question`` without its aspect words: what it is about ("How was the liner crack on
    Nordic Star resolved?" -> "liner crack on Nordic Star")."""
    rest = ASPECT_WORDS.sub(" ", question)
    return " ".join(re.sub(r"[?!.]+", " ", rest).split())
