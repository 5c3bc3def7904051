"""The hostile-input corpus (tests/data/hostile.jsonl) and the check that nothing of it survived."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

from tests.data.make_hostile import CYRILLIC, GREEK, LEET

CORPUS = Path(__file__).parent / "data" / "hostile.jsonl"


def corpus() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8", errors="surrogatepass") as handle:
        return [json.loads(line) for line in handle if line.strip()]


# The corpus's own disguises undone, independently of the sanitizer's folding.
_UNDO = {v: k for table in (CYRILLIC, GREEK, LEET) for k, v in table.items()}


def _letters(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text).translate(_UNDO)
    return "".join(ch for ch in decomposed if ch.isascii() and ch.isalpha()).lower()


def survivors(entry: dict[str, Any], seen: str) -> list[str]:
    """The phrases of ``entry`` that must not survive and are still in ``seen`` (what a model,
    a search or a reader received): word phrases compared letters-only after look-alike
    folding, markers and control characters as they are (spaces and case ignored)."""
    left = []
    squeezed = re.sub(r"\s+", "", seen).upper()
    for phrase in entry["must_not_survive"]:
        if phrase.isalpha():
            if _letters(phrase) in _letters(seen):
                left.append(phrase)
        elif re.sub(r"\s+", "", phrase).upper() in squeezed:
            left.append(phrase)
    return left
