"""One-line records, the list of distinct documents, and what the question names but the
passages do not hold."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from answers.extractive import ended
from answers.incidents import incident_key
from answers.layout import shown_field
from answers.units import CAUSE_SECTIONS, Unit, units_of
from archive.store.passages import Passage
from text.names import found_names, names_of

#: Documents listed in a pattern answer.
MAX_LISTED = 8
#: Documents of one incident whose sentences are considered for its line.
MAX_TOLD = 3
_YEAR = re.compile(r"^(?:19|20)\d{2}$")


def record_label(record: Passage) -> str:
    """The document in one line: its title (NTSB: report, date, place, aircraft), the date
    when the title lacks it, the vessel."""
    title = shown_field(record["title"].removeprefix("Thread digest: "), record)
    parts = [title]
    date = record.get("date")
    if date and date not in title:
        parts.append(date)
    vessel = record.get("vessel_name")
    if vessel and vessel.casefold() not in title.casefold():
        parts.append(vessel)
    return ", ".join(p for p in parts if p)


def year_first(passages: Sequence[Passage], year: int | None) -> list[Passage]:
    """``passages`` with those dated ``year`` first (a year mentioned in passing ranks)."""
    if year is None:
        return list(passages)
    return sorted(passages, key=lambda r: not _dated(r, year))


def subject_first(
    passages: Sequence[Passage],
    pool: Sequence[Passage],
    documents: Sequence[str],
) -> list[Passage]:
    """``passages`` with those of a follow-up's subject first: the documents the previous answer
    cited and the mail threads they belong to."""
    if not documents:
        return list(passages)
    wanted = set(documents)
    threads = {r["thread_id"] for r in (*passages, *pool) if r["doc_id"] in wanted}
    threads.discard(None)
    return sorted(passages, key=lambda r: not (r["doc_id"] in wanted or r["thread_id"] in threads))


def _dated(record: Passage, year: int) -> bool:
    return bool(record.get("date")) and str(record["date"]).startswith(str(year))


@dataclass(frozen=True)
class Missing:
    """The question's names, numbers and years that no passage holds."""

    terms: list[str]
    salient: int  # how many such terms the question has

    @property
    def essential(self) -> bool:
        """At least half of what names the subject is missing: the records are only related."""
        return bool(self.terms) and 2 * len(self.terms) >= self.salient


def missing_terms(
    question: str,
    passages: Sequence[Passage],
    *,
    scope: Sequence[str] = (),
    year: int | None = None,
) -> Missing:
    """Names (capitalised words after the first), numbers and years of ``question`` that none
    of ``passages`` mentions (a year also counts when a passage is dated in it; a model name
    counts however written: :mod:`text.names`)."""
    salient = names_of(question, scope)
    if not salient:
        return Missing([], 0)
    written = " ".join(
        " ".join(str(r.get(k) or "") for k in ("title", "text", "subject", "vessel_name"))
        for r in passages
    )
    found = found_names(question, salient, written)
    missing = []
    for word in salient:
        if _YEAR.match(word) and any(_dated(r, int(word)) for r in passages):
            continue
        if word not in found:
            missing.append(word)
    return Missing(missing, len(salient))


def closest_records(
    passages: Sequence[Passage],
    pool: Sequence[Passage],
    *,
    score: Callable[[list[Unit]], list[float]],
    fresh: Callable[[str], bool],
    take: Callable[[str], None],
) -> list[str]:
    """One line per distinct incident (:func:`answers.incidents.incident_key`: a thread's
    messages and digest are one): its label and its best-scoring sentence (its stated cause
    when that was retrieved this turn), cited."""
    told: dict[str, list[Passage]] = {}  # incident -> its passages, best first
    for record in passages:
        key = incident_key(record)
        if key in told or len(told) < MAX_LISTED:
            told.setdefault(key, []).append(record)
    units: list[Unit] = []
    for records in told.values():
        for record in records[:MAX_TOLD]:
            own = [record] + [
                r
                for r in pool
                if r["doc_id"] == record["doc_id"]
                and r["chunk_id"] != record["chunk_id"]
                and CAUSE_SECTIONS.search(r.get("section") or "")
            ]
            units += [u for r in own[:2] for u in units_of(r, 0)]
    scored = score(units)
    lines: list[str] = []
    for key in told:
        ranked = sorted(
            (
                pair
                for pair in zip(scored, units, strict=True)
                if incident_key(pair[1].record) == key
            ),
            key=lambda pair: (-pair[0], pair[1].position),
        )
        unit = next((u for _, u in ranked if fresh(u.text)), None)
        if unit is None:
            continue
        take(unit.text)
        record = unit.record
        lines.append(f"- {record_label(record)}: {ended(unit.text)} [C:{unit.chunk_id}]")
    return lines
