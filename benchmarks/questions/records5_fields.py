"""How record sets 5 (pattern set 5, count set 3) read the raw accident records' fields.

Written for these sets alone and importing nothing from Bosun, so a gold never depends on the
code it measures. One record is one NTSB event (``ntsb_no``), one IMO casualty (``Reference``)
or one TAIC report file (``YYYY_NNN.txt``).

A condition (:class:`Cond`) is a named test on one record; ``exact`` is False when it reads words
of free text (or a grouping of free-text values this module defines), which a reader of the
records could draw a little differently: a set built from such a condition is stated within a
tolerance, never exactly. Groups (what a pattern answer should name) are defined here too.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Record = Mapping[str, Any]

NTSB_FILE = Path("ntsb") / "reports_2010_2016.jsonl"
IMO_FILE = Path("maritime") / "imo_casualties.csv"
TAIC_DIR = Path("maritime") / "taic_reports"


@dataclass(frozen=True)
class Cond:
    """One named test on a record."""

    rule: str
    test: Callable[[Record], bool]
    exact: bool = True


def select(records: Iterable[Record], conds: Iterable[Cond]) -> list[Record]:
    """The records passing every condition."""
    tests = [c.test for c in conds]
    return [r for r in records if all(t(r) for t in tests)]


def _parts(value: object) -> list[str]:
    """The comma-separated parts of a multi-aircraft field, stripped and upper-cased."""
    return [p.strip().upper() for p in str(value or "").split(",") if p.strip()]


def _search(pattern: str) -> Callable[[str], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda text: bool(compiled.search(text or ""))


# --- NTSB ---------------------------------------------------------------------------------------


def read_ntsb(data: Path) -> list[Record]:
    """The NTSB records, one JSON object a line."""
    with (data / NTSB_FILE).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def is_incident(record: Record) -> bool:
    """An ``..IA..`` number is an incident (49 CFR 830.2); every other one an accident."""
    return "IA" in str(record["ntsb_no"])[3:]


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


def ntsb_years(first: int, last: int) -> Cond:
    return Cond(f"{first}-{last}", lambda r: first <= int(str(r["event_date"])[:4]) <= last)


def ntsb_months(*months: int) -> Cond:
    return Cond(f"months {months}", lambda r: int(str(r["event_date"])[5:7]) in months)


def ntsb_states(*states: str) -> Cond:
    return Cond(f"state {'/'.join(states)}", lambda r: r["state"] in states)


def ntsb_category(code: str) -> Cond:
    """Any aircraft of the event is of this category (HELI, GLI, BALL, GYRO, WSFT, ...)."""
    return Cond(f"category {code}", lambda r: code in _parts(r["aircraft_category"]))


def ntsb_make(name: str) -> Cond:
    """Any aircraft's make has this first word (``BELL`` is not ``BELLANCA``)."""
    word = name.upper()
    return Cond(
        f"make {word}",
        lambda r: any(p.split()[0].strip(".") == word for p in _parts(r["make"])),
    )


def ntsb_model(make: str, prefix: str) -> Cond:
    """That make and a model starting with ``prefix`` (hyphens and spaces ignored)."""
    by_make = ntsb_make(make).test
    bare = prefix.upper().replace("-", "").replace(" ", "")
    return Cond(
        f"model {make} {prefix}*",
        lambda r: (
            by_make(r)
            and any(
                p.replace("-", "").replace(" ", "").startswith(bare) for p in _parts(r["model"])
            )
        ),
    )


def ntsb_field(name: str, *values: str) -> Cond:
    """Any comma-separated part of a field (``weather``, ``far_part``, ``purpose``, ``damage``,
    ``highest_injury``) is one of ``values``."""
    wanted = {v.upper() for v in values}
    return Cond(f"{name} {'/'.join(values)}", lambda r: bool(wanted & set(_parts(r[name]))))


def ntsb_fatal_at_least(k: int) -> Cond:
    return Cond(f"fatal >= {k}", lambda r: int(r["fatal"] or 0) >= k)


def ntsb_several_aircraft() -> Cond:
    return Cond("several aircraft", lambda r: len(_parts(r["aircraft_category"])) > 1)


def ntsb_text(rule: str, pattern: str) -> Cond:
    """The narrative or probable cause has these words (a tolerance set)."""
    found = _search(pattern)
    return Cond(
        f"text {rule}",
        lambda r: found(str(r["narrative"] or "")) or found(str(r["probable_cause"] or "")),
        exact=False,
    )


#: Cause groups read from ``probable_cause``: the word a group's name must hold, and its test.
#: A record may fall in several groups (a cause names a wind and a loss of control).
NTSB_CAUSES: dict[str, str] = {
    "control": r"\b(?:maintain|loss of|lost|regain)\b(?:\s+\w+){0,3}\s+control\b",
    "power": r"loss of (?:\w+\s+){0,3}power|power loss|engine (?:failure|malfunction)"
    r"|failure of the engine",
    "fuel": r"\bfuel (?:exhaustion|starvation|contamination|management|planning)"
    r"|(?:inadequate|improper) fuel|water in the fuel",
    "stall": r"\bstall|critical angle[- ]of[- ]attack|\bairspeed\b",
    "clearance": r"\bclearance\b|\bobstacles?\b|\bwires?\b|power ?lines?|\btrees?\b",
    "flare": r"\bflare\b|hard landing|bounced|excessive (?:sink|descent rate)",
    "wind": r"\bwinds?\b|\bgusts?\b|gusting|tailwind|crosswind",
    "maintenance": r"\bmaintenance|\bmechanic|improper(?:ly)? (?:install|torqu|rig|assembl)"
    r"|\binspection|\bfatigue",
    "rotor": r"\brotor",
    "visibility": r"spatial disorientation|instrument meteorological|low visibility|\bnight"
    r"|visual flight rules (?:flight )?into|\bclouds?\b|\bfog\b",
    "turbulence": r"turbulence",
    "gear": r"landing gear|\bgear\b",
    "collision": r"see and avoid|midair|mid-air",
}
_NTSB_CAUSE_RES = {k: re.compile(v, re.IGNORECASE) for k, v in NTSB_CAUSES.items()}


def ntsb_causes(record: Record) -> set[str]:
    """The cause groups a record's probable cause falls in."""
    text = str(record["probable_cause"] or "")
    return {k for k, found in _NTSB_CAUSE_RES.items() if found.search(text)}


def ntsb_cause(group: str) -> Cond:
    return Cond(f"cause {group}", lambda r: group in ntsb_causes(r), exact=False)


# --- IMO ----------------------------------------------------------------------------------------


def read_imo(data: Path) -> list[Record]:
    """The IMO casualties, one CSV row each."""
    with (data / IMO_FILE).open(encoding="utf-8", newline="") as rows:
        return list(csv.DictReader(rows))


_YEAR = re.compile(r"^(\d{4})-|^\d{1,2}/\d{1,2}/(\d{2,4})\b")


def imo_year(record: Record) -> int | None:
    """``IncidentDateTime``'s year (``YYYY-MM-DD HH:MM`` or ``M/D/YY[YY] HH:MM``)."""
    match = _YEAR.match(str(record["IncidentDateTime"]).strip())
    if not match:
        return None
    if match[1]:
        return int(match[1])
    year = int(match[2])
    return year if year > 99 else (1900 + year if year >= 50 else 2000 + year)


def imo_years(first: int, last: int) -> Cond:
    return Cond(f"{first}-{last}", lambda r: first <= (imo_year(r) or 0) <= last)


def imo_flag(*codes: str) -> Cond:
    """Any ship of the casualty flies one of these flags (``FlagStates`` codes)."""
    return Cond(
        f"flag {'/'.join(codes)}", lambda r: bool(set(codes) & set(_parts(r["FlagStates"])))
    )


def imo_severity(*values: str) -> Cond:
    return Cond(f"severity {'/'.join(values)}", lambda r: r["TypeOfCasualty"] in values)


def imo_society(name: str) -> Cond:
    """The first ship's classification society contains ``name`` ("Lloyd's Register")."""
    return Cond(f"class {name}", lambda r: name in str(r["ClassificationSociety1"]))


def imo_location(rule: str, pattern: str) -> Cond:
    """``Location`` names this sea (free text: a tolerance set)."""
    found = _search(pattern)
    return Cond(f"location {rule}", lambda r: found(str(r["Location"])), exact=False)


#: Ship kinds read from ``ShipType1`` (free text in several spellings).
IMO_SHIP_KINDS: dict[str, str] = {
    "fishing": r"fish catching|fishing|trawler|longliner|seiner",
    "tanker": r"tanker",
    "bulk": r"bulk",
    "container": r"container",
    "passenger": r"passenger|cruise|ferry",
    "tug": r"\btug\b|towing",
    "general cargo": r"general cargo",
}


def imo_ship(kind: str) -> Cond:
    found = _search(IMO_SHIP_KINDS[kind])
    return Cond(f"ship {kind}", lambda r: found(str(r["ShipType1"])), exact=False)


def imo_ships_at_least(k: int) -> Cond:
    return Cond(f"ships >= {k}", lambda r: int(r["NumberOfShipsInvolved"] or 0) >= k)


#: Groups of ``InitialEvent`` (what went wrong first): the word a group's name must hold.
IMO_EVENTS: dict[str, str] = {
    "collision": r"collision",
    "grounding": r"grounding|stranding|aground",
    "fire": r"fire|explosion",
    "capsizing": r"capsiz|listing",
    "sinking": r"sink|founder|flooding|ingress of water",
    "machinery": r"machinery|engine failure|propulsion|blackout",
    "contact": r"^\s*contact",
    "occupational": r"occupa|fatal|death|overboard|fall|injur|accident to person|labou?r"
    r"|loss of life",
    "hull": r"hull",
    "missing": r"missing",
    "life-saving": r"life-saving|lifeboat",
}
_IMO_EVENT_RES = {k: re.compile(v, re.IGNORECASE) for k, v in IMO_EVENTS.items()}


def imo_event_of(record: Record) -> str:
    """The first event group matching ``InitialEvent`` ("" when none or empty)."""
    text = str(record["InitialEvent"])
    return next((k for k, found in _IMO_EVENT_RES.items() if found.search(text)), "")


def imo_event(group: str) -> Cond:
    return Cond(f"event {group}", lambda r: imo_event_of(r) == group, exact=False)


#: Consequence groups of ``Consequences1`` (comma-separated): a group's word, its value.
IMO_CONSEQUENCES: dict[str, str] = {
    "life": "Loss of life",
    "total loss": "Total loss of the ship",
    "unfit": "Ship rendered unfit to proceed",
    "remains fit": "Ship remains fit to proceed",
    "injuries": "Serious injuries",
    "pollution": "Pollution",
}


def imo_consequences(record: Record) -> set[str]:
    """The consequence groups of a casualty's first ship."""
    parts = {p.strip(" *") for p in str(record["Consequences1"]).split(",")}
    return {k for k, value in IMO_CONSEQUENCES.items() if value in parts}


def imo_dead(record: Record) -> int:
    """Dead and missing crew, passengers and others (blank or not designated counts 0)."""
    fields = ("DeadMissingCrew2", "DeadMissingPassengers2", "DeadMissingOthers3")
    return sum(int(v) for f in fields if (v := str(record[f]).strip()).isdigit())


def imo_dead_at_least(k: int) -> Cond:
    return Cond(f"dead >= {k}", lambda r: imo_dead(r) >= k)


# --- TAIC ---------------------------------------------------------------------------------------

TAIC_MODES = {"0": "aviation", "1": "rail", "2": "marine"}
_BOILERPLATE = re.compile(r"(?:The )?Transport Accident Investigation Commission is", re.I)
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
#: A heading ends with the occurrence's date ("9 March 2013"); what follows is cover residue.
_DATE = re.compile(rf"\b\d{{1,2}}\s+(?:{_MONTHS})\s+\d{{4}}")
#: Occurrence groups of each mode, read from a report's heading (its title block).
TAIC_KINDS: dict[str, dict[str, str]] = {
    "aviation": {
        "terrain": r"impact with terrain|collision with terrain|into terrain|loss of control",
        "power": r"power (?:loss|decrease)|engine (?:power|failure|fuel|control)|forced landing",
        "break-up": r"break[- ]?up|mast[- ]?bump|rotor blade failure",
        "separation": r"separation|airspace|near[- ]collision|mid-air|runway incursion"
        r"|air traffic",
        "gear": r"landing gear",
        "fire": r"\bfire\b",
    },
    "rail": {
        "signal": r"\bsignal|\bSPAD\b|wrong[- ]?rout|track (?:occupation|warrant)|limit of track"
        r"|safe[- ]?working|worksite|work area|wrong line|overran|near collision"
        r"|nearly struck|potential collision",
        "crossing": r"level crossing|pedestrian",
        "derailment": r"derail|roll-? ?over",
        "fire": r"\bfire\b",
    },
    "marine": {
        "grounding": r"grounding|aground|contact with (?:rock|seabed)|uncharted rock",
        "collision": r"\bcollision|contact with (?!rock|seabed)|breakaway",
        "fatality": r"fatal|person overboard|enclosed space",
        "capsize": r"capsiz|sinking|founder|flooding|loss of the fishing vessel|submersion",
        "fire": r"\bfire\b",
    },
}
_TAIC_KIND_RES = {
    mode: {k: re.compile(v, re.IGNORECASE) for k, v in kinds.items()}
    for mode, kinds in TAIC_KINDS.items()
}
#: A report without an inquiry number in its heading (suppressed, or another state's report
#: filed with TAIC's): a question's set may not hold one, since whether it counts is unclear.
_INQUIRY = re.compile(r"\b(?:Report|Inquiry|inquiry|report)\s+(?:[AMR]O\s*-?\s*)?\d")


def read_taic(data: Path) -> list[Record]:
    """Each TAIC report: ``id``, ``year``, ``mode`` (by its number) and ``heading``."""
    out = []
    for path in sorted((data / TAIC_DIR).glob("*.txt")):
        year, number = path.stem.split("_")
        text = path.read_text(encoding="utf-8", errors="replace")
        heading = " ".join(_BOILERPLATE.split(text, maxsplit=1)[0].split())[:600]
        date = _DATE.search(heading)
        heading = heading[: date.end()] if date else heading
        out.append(
            {"id": path.stem, "year": int(year), "mode": TAIC_MODES[number[0]], "heading": heading}
        )
    return out


def taic_kinds(record: Record) -> set[str]:
    """The occurrence groups a report's heading falls in."""
    groups = _TAIC_KIND_RES[str(record["mode"])]
    return {k for k, found in groups.items() if found.search(str(record["heading"]))}


def taic_unclear(record: Record) -> bool:
    """Whether the report lacks an inquiry number (see ``_INQUIRY``) or is suppressed."""
    heading = str(record["heading"])
    return "suppressed" in heading or not _INQUIRY.search(heading)


def taic_years(first: int, last: int) -> Cond:
    return Cond(f"{first}-{last}", lambda r: first <= int(r["year"]) <= last)


def taic_mode(mode: str) -> Cond:
    return Cond(f"mode {mode}", lambda r: r["mode"] == mode)


def taic_heading(rule: str, pattern: str) -> Cond:
    """The report's heading has these words (a tolerance set)."""
    found = _search(pattern)
    return Cond(f"heading {rule}", lambda r: found(str(r["heading"])), exact=False)
