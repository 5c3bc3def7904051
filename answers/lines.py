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
from text.models import mentions_model, model_keys, model_mentions
from text.words import STOP_WORDS

#: Documents listed in a pattern answer.
MAX_LISTED = 8
#: Documents of one incident whose sentences are considered for its line.
MAX_TOLD = 3
_WORD = re.compile(r"[A-Za-z0-9][\w/-]*[A-Za-z0-9]|[A-Za-z0-9]")
_YEAR = re.compile(r"^(?:19|20)\d{2}$")
#: Capitalised words that are not names ("I", question words, month names are kept as names).
_NOT_NAMES = frozenset(
    re.findall(
        r"\w+",
        "i what which who whom whose when where why how was were is are did does do the a an "
        "and or in on at of for to from with by it its this that these those there please tell "
        "show list give find any all no",
    )
)


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
    of ``passages`` mentions (a year also counts when a passage is dated in it)."""
    scoped = {w.casefold() for name in scope for w in _WORD.findall(name)}
    spans = [(m.start(), m.end()) for m in _WORD.finditer(question)]
    words = [question[start:end] for start, end in spans]
    salient = []
    for i, word in enumerate(words):
        folded = word.casefold()
        if folded in scoped or folded in _NOT_NAMES or folded in STOP_WORDS:
            continue
        named = i > 0 and word[:1].isupper()
        if named or any(ch.isdigit() for ch in word):
            salient.append(word)
    salient = list(dict.fromkeys(salient))
    if not salient:
        return Missing([], 0)
    written = " ".join(
        " ".join(str(r.get(k) or "") for k in ("title", "text", "subject", "vessel_name"))
        for r in passages
    )
    haystack = written.casefold()
    as_models = named_models(question, written, spans)
    missing = []
    for word in salient:
        if _YEAR.match(word) and any(_dated(r, int(word)) for r in passages):
            continue
        if word in as_models:
            continue
        if not re.search(rf"(?<![\w-]){re.escape(word.casefold())}(?![\w-])", haystack):
            missing.append(word)
    return Missing(missing, len(salient))


def named_models(question: str, written: str, spans: Sequence[tuple[int, int]]) -> set[str]:
    """The words of ``question`` (at ``spans``) inside a model name ``written`` also names,
    however written ("P-51" in a question, "P-51D" in the record)."""
    keys = model_keys(written)
    found: set[str] = set()
    for start, end, name in model_mentions(question):
        if mentions_model(name, keys):
            found |= {question[s:e] for s, e in spans if s >= start and e <= end}
    return found


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
