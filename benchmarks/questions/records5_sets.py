"""Writing, splitting and checking record sets 5 (pattern set 5 and count set 3).

Each question goes to the dev or the held-out half by :data:`SEED`: the first byte of
``sha256(SEED + question)`` even is dev, odd is held out, fixed before anyone scores. A
generator gives its questions (``Spec``: source, question, what it asks) without the data and its
gold rows with it; ``--check`` compares the committed files with what the generator would write
(every field but the gold without ``--data``; with ``--data DIR`` each gold recomputed too).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from records5_fields import Record
from records5_ntsb import is_incident
from records5_taic import taic_unclear

SEED = "bosun-records5-2026-12-03"
HALVES = ("dev", "heldout")
QUESTIONS = Path(__file__).resolve().parent
#: The shared data, where the workspace keeps it beside the repository.
DEFAULT_DATA = QUESTIONS.parents[1].parent / "shared" / "data"


@dataclass(frozen=True)
class Spec:
    """One question as written, before its gold is read from the data."""

    source: str
    question: str
    rule: str
    exact: bool


_ACCIDENT_WORDS = re.compile(r"\b(?:accidents?|crash\w*)\b", re.IGNORECASE)
_INCIDENT_WORD = re.compile(r"\bincidents?\b", re.IGNORECASE)


def check_wording(question: str, source: str, chosen: Sequence[Record]) -> None:
    """Raise when a set cannot be read one way: an NTSB question saying "accident" or "crash"
    (not "incident") that holds an incident, or a TAIC set holding a report of unclear
    standing (:func:`taic_unclear`)."""
    accidents = _ACCIDENT_WORDS.search(question) and not _INCIDENT_WORD.search(question)
    if source == "ntsb" and accidents and any(map(is_incident, chosen)):
        raise ValueError(f"says accidents but holds incidents: {question!r}")
    if source == "taic" and any(map(taic_unclear, chosen)):
        raise ValueError(f"holds a report of unclear standing: {question!r}")


def half(question: str) -> str:
    """``dev`` or ``heldout``: the seeded split of one question."""
    digest = hashlib.sha256((SEED + question).encode("utf-8")).digest()
    return HALVES[digest[0] % 2]


def path_of(prefix: str, source: str, which: str) -> Path:
    return QUESTIONS / f"{prefix}_{source}_{which}.jsonl"


def files_of(rows: Sequence[dict[str, Any]], prefix: str) -> dict[Path, str]:
    """Each half file's text: rows of a source in the generator's order, split by the seed."""
    out: dict[Path, list[str]] = {}
    for source in dict.fromkeys(str(r["source"]) for r in rows):
        for which in HALVES:
            out[path_of(prefix, source, which)] = []
    for row in rows:
        line = json.dumps(row, ensure_ascii=False)
        out[path_of(prefix, str(row["source"]), half(str(row["question"])))].append(line)
    return {p: "".join(f"{line}\n" for line in lines) for p, lines in out.items()}


def committed(specs: Sequence[Spec], prefix: str) -> list[dict[str, Any]]:
    """The committed rows of every half file the specs name, in file order."""
    rows: list[dict[str, Any]] = []
    for source in dict.fromkeys(s.source for s in specs):
        for which in HALVES:
            text = path_of(prefix, source, which).read_text(encoding="utf-8")
            rows += [json.loads(line) | {"_half": which} for line in text.splitlines() if line]
    return rows


def problems_without_data(specs: Sequence[Spec], prefix: str) -> list[str]:
    """What in the committed files disagrees with the specs and the seeded split (gold aside)."""
    found = committed(specs, prefix)
    by_question = {str(r["question"]): r for r in found}
    out = []
    if len(by_question) != len(found):
        out.append("a question is written twice")
    wanted = {s.question: s for s in specs}
    out += [f"not a question of the generator: {q!r}" for q in by_question if q not in wanted]
    for spec in specs:
        row = by_question.get(spec.question)
        if row is None:
            out.append(f"missing: {spec.question!r}")
            continue
        if row["_half"] != half(spec.question):
            out.append(f"in the wrong half: {spec.question!r}")
        seen = (row["source"], row["rule"], row.get("set_exact", spec.exact))
        if seen != (spec.source, spec.rule, spec.exact):
            out.append(f"source, rule or exactness differ: {spec.question!r}")
    return out


def problems_with_data(rows: Sequence[dict[str, Any]], prefix: str) -> list[str]:
    """Files whose committed text differs from the rows recomputed from the data."""
    return [
        f"{p.name} differs from the data's gold"
        for p, text in files_of(rows, prefix).items()
        if not p.is_file() or p.read_text(encoding="utf-8") != text
    ]


def main(
    argv: Sequence[str] | None,
    prefix: str,
    specs: Callable[[], list[Spec]],
    rows: Callable[[Path], list[dict[str, Any]]],
) -> int:
    """Write the halves from the data, or ``--check`` the committed ones."""
    parser = argparse.ArgumentParser(description=f"{prefix}: write or check the question halves")
    parser.add_argument("--check", action="store_true", help="compare; write nothing")
    parser.add_argument("--data", type=Path, help="the shared data folder (recompute the gold)")
    args = parser.parse_args(argv)
    if args.check:
        found = problems_without_data(specs(), prefix)
        if args.data:
            found += problems_with_data(rows(args.data), prefix)
        for line in found:
            print(line)
        print(f"{prefix}: {'FAILED' if found else 'ok'}")
        return 1 if found else 0
    for path, text in files_of(rows(args.data or DEFAULT_DATA), prefix).items():
        path.write_text(text, encoding="utf-8")
        print(f"{path.name}: {text.count(chr(10))} questions")
    return 0
