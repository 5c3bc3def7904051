"""Input sanitisation at the boundary: control characters, injection patterns, length caps."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

#: Classification, filter detection and topic extraction read at most this many characters.
SHORT_LIMIT = 500
#: Search and answer generation read at most this many characters.
FULL_LIMIT = 4000

# Control characters (Unicode category Cc) except newline and tab, plus format characters that can
# hide text (zero-width spaces and joiners, bidirectional overrides).
_KEEP = {"\n", "\t"}

_END = r"[^.!?;\n]*[.!?;]?"  # the rest of the clause an injected instruction started

#: Prompt-injection phrasings, stripped before the text reaches any model.
INJECTION_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE | re.MULTILINE)
    for p in (
        r"\b(?:please\s+)?(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|every\s+)?"
        r"(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?"
        r"(?:previous|prior|above|earlier|preceding|former|original|system|initial)\s+"
        r"(?:instructions?|prompts?|messages?|rules|directions|context|guidelines)" + _END,
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:the\s+|your\s+)?system\s+prompt"
        + _END,
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:that\s+)?"
        r"(?:you\s+were\s+told|you\s+have\s+been\s+told)" + _END,
        r"\byou\s+are\s+now\b" + _END,
        r"\b(?:from\s+now\s+on|henceforth),?\s+(?:you\s+(?:are|will|must)|act\s+as|pretend)" + _END,
        r"\b(?:reveal|show|print|repeat|output|display|leak|tell\s+me)\s+(?:me\s+)?"
        r"(?:your\s+|the\s+)?(?:full\s+|hidden\s+|secret\s+)?"
        r"(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions)" + _END,
        r"\b(?:new|updated)\s+(?:system\s+)?instructions\s*:" + _END,
        r"</?\s*(?:system|assistant|instructions?)\s*>",
        r"^\s*(?:#+\s*)?(?:system|assistant)\s*:",
        r"\[\s*/?\s*(?:INST|SYS)\s*\]",
    )
)

_SPACES = re.compile(r"[ \t]{2,}")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class Sanitized:
    """Cleaned text and a record of what was taken out."""

    text: str  # at most FULL_LIMIT characters
    short: str  # at most SHORT_LIMIT characters, for classification and topic extraction
    control_chars: int = 0  # control and invisible format characters removed
    injections: tuple[str, ...] = field(default_factory=tuple)  # the matched phrases
    truncated: bool = False  # the cleaned text was longer than FULL_LIMIT

    @property
    def changed(self) -> bool:
        return bool(self.control_chars or self.injections or self.truncated)

    def record(self) -> dict[str, object]:
        """Plain data for state and traces."""
        return {
            "control_chars": self.control_chars,
            "injections": list(self.injections),
            "truncated": self.truncated,
            "length": len(self.text),
        }


def strip_control(text: str) -> tuple[str, int]:
    """``text`` without control and invisible format characters (newline and tab stay)."""
    kept = [
        ch for ch in text if ch in _KEEP or unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs")
    ]
    return "".join(kept), len(text) - len(kept)


def strip_injections(text: str) -> tuple[str, list[str]]:
    """``text`` with prompt-injection phrasings removed, and the phrases that were removed."""
    found: list[str] = []

    def drop(match: re.Match[str]) -> str:
        found.append(match.group(0).strip())
        return " "

    for pattern in INJECTION_PATTERNS:
        text = pattern.sub(drop, text)
    return text, found


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, at a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", int(limit * 0.9))
    return cut[:space] if space > 0 else cut


def sanitize(text: str) -> Sanitized:
    """Strip control characters and injection phrasings; cap the length (see the module limits)."""
    cleaned, controls = strip_control(text)
    cleaned, injections = strip_injections(cleaned)
    cleaned = _BLANK_LINES.sub("\n\n", _SPACES.sub(" ", cleaned)).strip().lstrip(";,:.- ")
    full = cap(cleaned, FULL_LIMIT)
    return Sanitized(
        text=full,
        short=cap(full, SHORT_LIMIT),
        control_chars=controls,
        injections=tuple(injections),
        truncated=len(full) < len(cleaned),
    )


# --- secrets ------------------------------------------------------------------------------
