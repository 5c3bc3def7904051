"""Scoring a pattern answer ("most common causes of …"): named groups with counts, the set stated,
cited examples per top group, and the gold dominant group named.

A *group line* is a list item that names something (digits allowed: ``10MHz REF``, ``X310
firmware``) and then gives a count: ``- **Loss of engine power** — 14 of 52 [C:…]``,
``- Collision: 120`` or ``* Fire (31 records)``. The lines
indented under it (or the rest of its own line) are its examples; an example counts when its
marker is a valid citation (in the answer's citations) and each example is a distinct document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from text.words import content_stems, tokens

_GROUP_LINE = re.compile(
    r"^[-*•]\s+\**(?P<name>[^\[\n]*?[A-Za-z][^\[\n]*?)\**(?:\s+[—–-]\s+|\s*:\s+|\s+\()"
    r"(?P<count>\d{1,3}(?:,\d{3})+|\d+)\b"
)
_MARKER_ID = re.compile(r"\[C:\s*([0-9a-f]{12})\s*\]", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w])|(?<![\w.,])\d+(?![\w])")
#: How far a stated set may be from the gold where the set also depends on words mentioned.
SET_TOLERANCE = 0.05
#: Groups whose names are searched for the gold dominant group.
TOP_GROUPS = 3
#: The checks of a pattern answer, each a measure of its own.
PATTERN_CHECKS = ("named_groups", "set_stated", "examples", "dominant")
#: Cited examples (distinct documents) each top group needs.
MIN_EXAMPLES = 2


@dataclass(frozen=True)
class PatternGold:
    """What a pattern question's answer must show."""

    size: int | None = None  # the matching set's size
    exact: bool = True  # whether ``size`` must be stated exactly (else within SET_TOLERANCE)
    dominant: str = ""  # what the largest group is about ("collision"); "" for no check
    #: Message-ID prefixes of replies stating the dominant fix (a mail thread pattern): a top
    #: group must cite one of them; () for no check
    dominant_messages: tuple[str, ...] = ()


@dataclass(frozen=True)
class Group:
    """One group line of an answer and the citation ids of its block."""

    name: str
    count: int
    cited: tuple[str, ...]


def groups_of(answer: str) -> list[Group]:
    """The group lines of ``answer`` in order, each with the markers of its block."""
    out: list[tuple[str, int, list[str]]] = []
    for line in answer.splitlines():
        match = _GROUP_LINE.match(line.strip()) if not line.startswith((" ", "\t")) else None
        if match:
            count = int(match["count"].replace(",", ""))
            out.append((match["name"].strip(" *_"), count, _MARKER_ID.findall(line)))
        elif out and line.startswith((" ", "\t")):
            out[-1][2].extend(_MARKER_ID.findall(line))
    return [Group(name, count, tuple(i.lower() for i in ids)) for name, count, ids in out]


def measure_pattern(
    answer: str, citations: Sequence[Mapping[str, Any]], gold: PatternGold
) -> dict[str, bool]:
    """Each check of a pattern answer, and ``pattern_ok`` (all of them)."""
    groups = groups_of(answer)
    doc_of = {str(c.get("id", "")).lower(): c.get("doc_id") for c in citations}
    top = [g for g in groups[:TOP_GROUPS] if g.count >= MIN_EXAMPLES]
    examples = bool(top) and all(_documents(g.cited, doc_of) >= MIN_EXAMPLES for g in top)
    out = {
        "named_groups": len(groups) >= 2,
        "set_stated": gold.size is None or _states(answer, gold),
        "examples": examples,
        "dominant": not gold.dominant or _names(groups[:TOP_GROUPS], gold.dominant),
    }
    if gold.dominant_messages:
        source_of = {str(c.get("id", "")).lower(): str(c.get("source_id", "")) for c in citations}
        sources = {source_of.get(i, "") for g in groups[:TOP_GROUPS] for i in g.cited}
        out["dominant"] = out["dominant"] and any(
            s.startswith(gold.dominant_messages) for s in sources if s
        )
    out["pattern_ok"] = all(out.values())
    return out


def _documents(ids: Iterable[str], doc_of: Mapping[str, Any]) -> int:
    return len({doc_of[i] for i in ids if i in doc_of})


def _states(answer: str, gold: PatternGold) -> bool:
    assert gold.size is not None
    plain = _MARKER_ID.sub(" ", answer)
    numbers = [int(n.replace(",", "")) for n in _NUMBER.findall(plain)]
    if gold.exact:
        return gold.size in numbers
    return any(abs(n - gold.size) <= SET_TOLERANCE * gold.size for n in numbers)


def _names(groups: Sequence[Group], dominant: str) -> bool:
    wanted = set(content_stems(tokens(dominant)))
    return any(wanted <= set(content_stems(tokens(g.name))) for g in groups)
