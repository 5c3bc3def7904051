"""Questions about one aspect of a record (injuries, date, place, aircraft, vessel), answered from
the subject record's fields: "were there any injuries?" after "What happened to the R44 in ...?"
is answered by that record's injury counts, cited to it, and by nothing else."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date
from typing import Literal

import pycountry

from answers.incidents import RECORD_KINDS
from answers.lines import missing_terms
from archive.store.passages import Passage

RecordAspect = Literal[
    "initial_event",
    "consequences",
    "injuries",
    "date",
    "place",
    "aircraft",
    "flag",
    "tonnage",
    "vessel",
]

_ASPECTS: tuple[tuple[RecordAspect, re.Pattern[str]], ...] = (
    # First match wins, so the specific before the general: "what kind of casualty was it?"
    # asks the event, "where was the vessel flagged?" the flag, not the place.
    (
        "initial_event",
        re.compile(
            r"\binitial\s+event\b|\bfirst\s+event\b|\b(?:what|which)\s+(?:kind|type|sort)\s+of\s+"
            r"(?:event|casualty)\b|\bhow\s+did\s+(?:it|the\s+(?:casualty|accident|incident))\s+"
            r"(?:start|begin)\b|\bwhat\s+(?:started|began)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "consequences",
        re.compile(
            r"\bconsequences?\b|\boutcomes?\b|\bwhat\s+came\s+of\b"
            r"|\bwhat\s+(?:was|were)\s+the\s+results?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "injuries",
        re.compile(
            r"\b(?:injur\w*|hurt|harmed|died|die|dead|deaths?|fatal\w*|kill\w*|casualties"
            r"|surviv\w*|wounded)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "flag",
        re.compile(
            r"\bflag(?:ged|s)?\b|\bport\s+of\s+registry\b|\bnationality\b"
            r"|\bregistered\s+(?:in|under)\b|\bwhere\s+(?:was|is)\s+(?:\w+\s+){1,2}registered\b",
            re.IGNORECASE,
        ),
    ),
    (
        "tonnage",
        re.compile(
            r"\btonnage\b|\bgross\s+tons?\b|\bhow\s+(?:big|large|heavy)\b"
            r"|\bsize\s+of\s+(?:the|that|this)\s+(?:ship|vessel|boat)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "date",
        # "when" asks a date where it opens the question or its clause asks ("and when did it
        # happen?", "when?"), not in a condition ("it fails when I stream from RX2").
        re.compile(
            r"^\W*when\b|\bwhen\s*\?|\bwhen\s+(?:did|was|were|is|are|does|do|had|has|exactly)\b"
            r"|\b(?:what|which)\s+(?:date|day|year|month)\b|\bthe\s+date\b",
            re.IGNORECASE,
        ),
    ),
    (
        "place",
        re.compile(
            r"\bwhere\b|\blocation\b|\b(?:what|which)\s+(?:city|state|town|place|airport)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "aircraft",
        re.compile(
            r"\b(?:what|which)\s+(?:(?:kind|type|make|model|sort)\s+of\s+)?(?:aircraft|plane"
            r"|airplane|helicopter|glider)\b|\b(?:what|which)\s+(?:aircraft\s+)?(?:model|make)\b"
            r"|\bregistration\b|\btail\s+number\b",
            re.IGNORECASE,
        ),
    ),
    (
        "vessel",
        re.compile(
            r"\b(?:what|which)\s+(?:(?:kind|type|sort)\s+of\s+)?(?:vessel|ship|boat)\b"
            r"|\bimo\s+number\b|\bship\s+type\b",
            re.IGNORECASE,
        ),
    ),
)
#: The aspects a metadata line ("Vessel: Baltic Trader, IMO 9345678, general cargo ship.")
#: states, by its label: such a line is said only when its aspect is asked.
METADATA_LABELS: dict[str, RecordAspect] = {
    "vessel": "vessel",
    "ship": "vessel",
    "imo": "vessel",
    "flag": "flag",
    "flag state": "flag",
    "ship type": "vessel",
    "aircraft": "aircraft",
    "registration": "aircraft",
    "location": "place",
    "date": "date",
    "injuries": "injuries",
}
_METADATA_LINE = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z ]{1,20}?)\s*:\s*\S")
_COUNTS = re.compile(r"\b(fatal|serious|minor)\s+(\d+)\b")


def record_aspect(question: str) -> RecordAspect | None:
    """The record aspect ``question`` asks about, or None (the first that matches)."""
    return next((aspect for aspect, pattern in _ASPECTS if pattern.search(question)), None)


def is_metadata_line(text: str, asked: RecordAspect | None) -> bool:
    """Whether ``text`` is a metadata line of an aspect other than ``asked`` (filler)."""
    match = _METADATA_LINE.match(text)
    if match is None:
        return False
    label = METADATA_LABELS.get(" ".join(match["label"].casefold().split()))
    return label is not None and label != asked


def subject_record(
    question: str,
    passages: Sequence[Passage],
    pool: Sequence[Passage],
    documents: Sequence[str],
) -> Passage | None:
    """The record a question is about: a follow-up's subject (the first of ``documents`` among
    this turn's passages), else the top passage when it holds every name the question gives."""
    retrieved = [*passages, *pool]
    for doc_id in documents:
        found = next((r for r in retrieved if r["doc_id"] == doc_id), None)
        if found is not None:
            return found
    if documents or not passages:
        return None
    top = passages[0]
    missing = missing_terms(question, [top])
    return top if missing.salient and not missing.terms else None


def aspect_line(record: Passage, aspect: RecordAspect) -> str | None:
    """The record's ``aspect`` in one cited line from its fields; None when it has none."""
    facts = record.get("facts") or {}
    ref = record.get("report_no") or (
        record["source_id"] if record["kind"] in RECORD_KINDS else record["title"]
    )
    value = _value(record, facts, aspect)
    if value is None:
        return None
    return f"{ref}: {value} [C:{record['chunk_id']}]"


def _value(record: Passage, facts: dict[str, str], aspect: RecordAspect) -> str | None:
    if aspect == "injuries":
        counts = {k: int(n) for k, n in _COUNTS.findall(facts.get("injuries", ""))}
        if not counts:
            return None
        if not any(counts.values()):
            return "no injuries (0 fatal, 0 serious, 0 minor)."
        parts = [f"{counts.get(k, 0)} {k}" for k in ("fatal", "serious", "minor")]
        return f"{', '.join(parts)} injuries."
    if aspect == "date":
        day = record.get("date")
        if not day:
            return None
        when = date.fromisoformat(day)
        return f"happened on {calendar.month_name[when.month]} {when.day}, {when.year}."
    if aspect == "place":
        place = ", ".join(p for p in (facts.get("city"), facts.get("state")) if p)
        place = place or facts.get("location", "")
        return f"happened in {_titled(place)}." if place else None
    if aspect == "aircraft":
        aircraft = " ".join(p for p in (facts.get("make"), facts.get("model")) if p)
        if not aircraft:
            return None
        registration = facts.get("registration")
        return f"the aircraft was a {aircraft}" + (
            f", registration {registration}." if registration else "."
        )
    return _vessel_value(record, facts, aspect)


def _vessel_value(record: Passage, facts: dict[str, str], aspect: RecordAspect) -> str | None:
    """A casualty record's vessel aspects, from its fields (``archive.ingest.loaders.casualties``
    metadata): the ship, its flag, its tonnage, the initial event and the consequences."""
    vessel = record.get("vessel_name") or "the ship"
    if aspect == "initial_event":
        event = facts.get("initial_event")
        return f"the initial event was {event.lower()}." if event else None
    if aspect == "consequences":
        found = [c.strip().lower() for c in (facts.get("consequences") or "").split(",")]
        found = [c for c in found if c]
        return f"the recorded consequences were: {'; '.join(found)}." if found else None
    if aspect == "flag":
        codes = [c.strip() for c in (facts.get("flag") or "").split(",") if c.strip()]
        flags = [f"{_country(c)} ({c})" if _country(c) else c for c in codes]
        return f"{vessel} was flagged in {' and '.join(flags)}." if flags else None
    if aspect == "tonnage":
        tons = (facts.get("gross_tonnage") or "").strip()
        if not tons:
            return None
        return (
            f"{vessel} had a gross tonnage of {int(tons):,}."
            if tons.isdigit()
            else (f"{vessel} had a gross tonnage of {tons}.")
        )
    if not record.get("vessel_name"):
        return None
    parts = [vessel] + [f"IMO {imo}" for imo in [record.get("imo")] if imo]
    parts += [facts[k] for k in ("ship_type", "flag") if facts.get(k)]
    return f"the vessel was {', '.join(parts)}."


def _country(code: str) -> str | None:
    """The common name of a flag state's ISO alpha-3 code ("PAN": Panama)."""
    found = pycountry.countries.get(alpha_3=code.upper()) if len(code) == 3 else None
    return str(getattr(found, "common_name", None) or found.name) if found else None


def _titled(place: str) -> str:
    return " ".join(w.capitalize() if w.isupper() and len(w) > 2 else w for w in place.split())
