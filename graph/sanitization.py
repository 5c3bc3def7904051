"""Input sanitisation at the boundary: control characters, injection patterns, length caps.

:func:`sanitize` is the one function every entry point calls (the graph's first node, ``bosun
search``, the web server). Injection phrasings are found by the detector ingest also uses
(:mod:`text.injection`); what is removed is recorded by pattern name and length only, never
echoed back.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from text.injection import strip_control, strip_injections

#: Classification, filter detection and topic extraction read at most this many characters.
SHORT_LIMIT = 500
#: Search and answer generation read at most this many characters.
FULL_LIMIT = 4000

_SPACES = re.compile(r"[ \t]{2,}")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class Sanitized:
    """Cleaned text and a record of what was taken out (names and lengths, not the text)."""

    text: str  # at most FULL_LIMIT characters
    short: str  # at most SHORT_LIMIT characters, for classification and topic extraction
    control_chars: int = 0  # control and invisible format characters removed
    injections: tuple[str, ...] = field(default_factory=tuple)  # names of the patterns removed
    removed_chars: int = 0  # characters removed as injections
    original_length: int = 0  # characters received
    truncated: bool = False  # the cleaned text was longer than FULL_LIMIT

    @property
    def changed(self) -> bool:
        return bool(self.control_chars or self.injections or self.truncated)

    def record(self) -> dict[str, object]:
        """Plain data for state and traces."""
        return {
            "control_chars": self.control_chars,
            "injections": list(self.injections),
            "removed_chars": self.removed_chars,
            "original_length": self.original_length,
            "truncated": self.truncated,
            "length": len(self.text),
        }


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, at a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", int(limit * 0.9))
    return cut[:space] if space > 0 else cut


def sanitize(text: str) -> Sanitized:
    """Strip control characters and injection phrasings; cap the length (see the module limits).

    The one sanitiser of every entry point: the graph, ``bosun search``, the web server.
    """
    cleaned, controls = strip_control(text)
    cleaned = unicodedata.normalize("NFKC", cleaned)  # full-width and styled letters as ASCII
    cleaned, _ = strip_control(cleaned)  # NFKC can compose nothing hidden, but stay certain
    injections: list[str] = []
    removed = 0
    for _ in range(3):  # removing one phrase can join the halves of another
        cleaned, found, n = strip_injections(cleaned)
        if not found:
            break
        injections.extend(f for f in found if f not in injections)
        removed += n
    cleaned = _BLANK_LINES.sub("\n\n", _SPACES.sub(" ", cleaned)).strip().lstrip(";,:.- ")
    full = cap(cleaned, FULL_LIMIT)
    return Sanitized(
        text=full,
        short=cap(full, SHORT_LIMIT),
        control_chars=controls,
        injections=tuple(injections),
        removed_chars=removed,
        original_length=len(text),
        truncated=len(full) < len(cleaned),
    )
