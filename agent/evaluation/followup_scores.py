"""Scores for follow-ups that ask one aspect of an accident, claim checks and relative dates.

Question lines (``benchmarks/questions/make_followup_questions.py`` writes them):

- ``followup`` with ``"aspect"`` (injuries, date, place, aircraft; for an IMO casualty flag,
  ship_type, tonnage, date, place, consequences, initial_event), ``"report_no"`` (the NTSB
  number or the casualty's reference) and ``"expected"`` (the record's own values): the
  follow-up's answer must state the value
  (:func:`states_aspect`), cite the subject record, cite no other record, carry no metadata line
  of another aspect (filler) and repeat no sentence;
- ``claim`` (``"report_no"``, ``"variant"``: the model as the user wrote it): the answer must
  not say the archive lacks the aircraft, and must cite the record;
- ``dates`` (``"today"``, ``"date_from"``, ``"date_to"``): the turn's date filter must be
  exactly that range (either end may be open: null).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

import pycountry

from text.sentences import sentences

#: Kinds scored here, and the measures each adds (each a share in the table).
MEASURES = {
    "followup": ("aspect_value", "subject_cited", "no_unrelated", "no_filler"),
    "claim": ("not_denied", "subject_cited"),
    "dates": ("date_range",),
}
#: An answer saying the archive lacks what the question names (the composer's NOT_FOUND lead).
DENIED = re.compile(r"\bnot in the archive\b|\bnothing retrieved mentions\b", re.IGNORECASE)
#: A metadata line ("Vessel: Baltic Trader, IMO 9345678, general cargo ship."): its aspect.
_FILLER = re.compile(
    r"^\s*(?:-\s*)?(?P<label>vessel|ship|imo|flag|aircraft|registration|location|place"
    r"|date|injuries|operator)\s*:",
    re.IGNORECASE,
)
_FILLER_ASPECT = {
    "vessel": "vessel",
    "ship": "vessel",
    "imo": "vessel",
    "flag": "vessel",
    "aircraft": "aircraft",
    "registration": "aircraft",
    "location": "place",
    "place": "place",
    "date": "date",
    "injuries": "injuries",
    "operator": "aircraft",
}
#: A casualty's ship aspects: a "Vessel:" or "Flag:" line states them.
_VESSEL_ASPECTS = {"flag": "vessel", "ship_type": "vessel", "tonnage": "vessel"}
_MARKER = re.compile(r"\s*\[(?:C:)?[^\]\s]{1,16}\]")
_INJURY_WORDS = {
    "fatal": r"fatal\w*|killed|died|dead|deaths?",
    "serious": r"serious\w*",
    "minor": r"minor",
}
_NONE = re.compile(
    r"\bno\s+(?:one|injur\w*|fatalit\w*|casualt\w*)|\bnobody\b|\buninjured\b|\bnot\s+injured\b"
    r"|\bnone\b|\b0\s+(?:fatal|serious|minor)",
    re.IGNORECASE,
)


def plain(text: str) -> str:
    """``text`` without citation markers, whitespace collapsed."""
    return " ".join(_MARKER.sub(" ", text).split())


def states_aspect(answer: str, aspect: str, expected: Mapping[str, Any]) -> bool:
    """Whether ``answer`` states the record's value of ``aspect`` (any usual wording)."""
    text = plain(answer)
    if aspect == "injuries":
        return _states_injuries(text, expected)
    if aspect == "date":
        day = date.fromisoformat(str(expected["date"]))
        forms = (
            day.isoformat(),
            f"{calendar.month_name[day.month]} {day.day}, {day.year}",
            f"{day.day} {calendar.month_name[day.month]} {day.year}",
        )
        return any(form.casefold() in text.casefold() for form in forms)
    if aspect == "place":
        keys = [k for k in ("city", "state", "location") if expected.get(k)]
        return bool(keys) and all(_holds(text, str(expected[k])) for k in keys)
    if aspect == "aircraft":
        model = re.sub(r"[\s-]", "", str(expected["model"])).casefold()
        return model in re.sub(r"[\s-]", "", text).casefold()
    if aspect == "flag":
        code = str(expected["flag"])
        return bool(re.search(rf"\b{re.escape(code)}\b", text)) or any(
            _holds(text, name) for name in _country_names(code)
        )
    if aspect == "tonnage":
        tons = str(expected["gross_tonnage"])
        numbers = re.findall(r"\d+", re.sub(r"(?<=\d)[,\s](?=\d{3}\b)", "", text))
        return tons in numbers
    if aspect in ("ship_type", "initial_event"):
        return _holds(text, str(expected[aspect]))
    if aspect == "consequences":
        return all(_holds(text, str(c)) for c in expected["consequences"])
    raise ValueError(f"unknown aspect {aspect!r}")


def _holds(text: str, value: str) -> bool:
    """Whether ``text`` states ``value``, case, spacing and punctuation aside."""

    def folded(s: str) -> str:
        return " ".join(re.sub(r"[^\w]+", " ", s).casefold().split())

    return folded(value) in folded(text)


def _country_names(code: str) -> list[str]:
    found = pycountry.countries.get(alpha_3=code.upper()) if len(code) == 3 else None
    fields = ("name", "common_name", "official_name")
    return [str(getattr(found, f)) for f in fields if getattr(found, f, None)] if found else []


def _states_injuries(text: str, expected: Mapping[str, Any]) -> bool:
    counts = {k: int(expected.get(k) or 0) for k in _INJURY_WORDS}
    if not any(counts.values()):
        return bool(_NONE.search(text))
    for kind, n in counts.items():
        if n == 0:
            continue
        words = _INJURY_WORDS[kind]
        near = rf"\b{n}\s+(?:\w+\s+){{0,2}}(?:{words})|(?:{words})\W+(?:\w+\W+){{0,2}}{n}\b"
        if not re.search(near, text, re.IGNORECASE):
            return False
    return True


def filler_lines(answer: str, aspect: str) -> int:
    """Metadata lines of ``answer`` that state another aspect than the one asked."""
    lines = _MARKER.sub(" ", answer).splitlines()
    starts = [m for line in lines for s in sentences(line) if (m := _FILLER.match(s))]
    asked = _VESSEL_ASPECTS.get(aspect, aspect)
    return sum(_FILLER_ASPECT[m["label"].casefold()] != asked for m in starts)


def cited_reports(citations: Sequence[Mapping[str, Any]]) -> set[str]:
    """The records (NTSB numbers: the citation's source id) an answer cites."""
    return {str(c.get("source_id") or "").upper() for c in citations if c.get("source_id")}


def measure(
    kind: str,
    spec: Mapping[str, Any],
    answers: Sequence[str],
    citations: Sequence[Sequence[Mapping[str, Any]]],
    filters: Mapping[str, Any],
) -> dict[str, bool]:
    """This module's measures of one question (``{}`` for a line without its fields).
    ``answers`` and ``citations`` are per turn; ``filters`` are the last turn's."""
    report = str(spec.get("report_no") or "").upper()
    if kind == "followup" and spec.get("aspect"):
        aspect = str(spec["aspect"])
        cited = cited_reports(citations[-1])
        return {
            "aspect_value": states_aspect(answers[-1], aspect, spec.get("expected") or {}),
            "subject_cited": report in cited,
            "no_unrelated": cited <= {report},
            "no_filler": filler_lines(answers[-1], aspect) == 0,
        }
    if kind == "claim":
        return {
            "not_denied": not DENIED.search(answers[-1]),
            "subject_cited": report in cited_reports(citations[-1]),
        }
    if kind == "dates":
        wanted = (spec.get("date_from"), spec.get("date_to"))
        return {"date_range": (filters.get("date_from"), filters.get("date_to")) == wanted}
    return {}


def missed(kind: str, measures: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """(measure, met) for this module's measures of ``kind`` that were taken."""
    return [(key, bool(measures[key])) for key in MEASURES.get(kind, ()) if key in measures]


def shares(rows: Sequence[Mapping[str, Any]], kind: str) -> dict[str, float | None]:
    """Per measure of ``kind``: the share of ``rows`` that met it (None when none measured)."""
    out: dict[str, float | None] = {}
    for key in MEASURES.get(kind, ()):
        values = [bool(r[key]) for r in rows if key in r]
        out[key] = round(sum(values) / len(values), 4) if values else None
    return out


def format_measures(summary: Mapping[str, Mapping[str, Any]]) -> str:
    """One line per kind with this module's measures ("" when none was measured)."""
    lines = []
    for kind, row in summary.items():
        measured = {k: row[k] for k in MEASURES.get(kind, ()) if row.get(k) is not None}
        if measured:
            parts = ", ".join(f"{k} {100 * v:.1f}%" for k, v in measured.items())
            lines.append(f"  {kind}: {parts}")
    return "\n".join(lines)
