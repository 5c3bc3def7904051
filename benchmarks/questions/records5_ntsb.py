"""NTSB records for record sets 5: conditions on their fields and their cause groups."""

from __future__ import annotations

import json
import re
from pathlib import Path

from records5_fields import Cond, Record, parts, search

NTSB_FILE = Path("ntsb") / "reports_2010_2016.jsonl"


def read_ntsb(data: Path) -> list[Record]:
    """The NTSB records, one JSON object a line."""
    with (data / NTSB_FILE).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def is_incident(record: Record) -> bool:
    """An ``..IA..`` number is an incident (49 CFR 830.2); every other one an accident."""
    return "IA" in str(record["ntsb_no"])[3:]


def ntsb_years(first: int, last: int) -> Cond:
    return Cond(f"{first}-{last}", lambda r: first <= int(str(r["event_date"])[:4]) <= last)


def ntsb_months(*months: int) -> Cond:
    return Cond(f"months {months}", lambda r: int(str(r["event_date"])[5:7]) in months)


def ntsb_states(*states: str) -> Cond:
    return Cond(f"state {'/'.join(states)}", lambda r: r["state"] in states)


def ntsb_category(code: str) -> Cond:
    """Any aircraft of the event is of this category (HELI, GLI, BALL, GYRO, WSFT, ...)."""
    return Cond(
        f"category {code}",
        lambda r: code in parts(r["aircraft_category"]),
        other=lambda r: parts(r["aircraft_category"])[:1] == [code],
    )


def ntsb_make(name: str) -> Cond:
    """Any aircraft's make has this first word (``BELL`` is not ``BELLANCA``)."""
    word = name.upper()
    return Cond(
        f"make {word}",
        lambda r: any(p.split()[0].strip(".") == word for p in parts(r["make"])),
        other=lambda r: bool(re.search(rf"\b{word}\b", str(r["make"] or "").upper())),
    )


def ntsb_model(make: str, prefix: str) -> Cond:
    """That make and a model starting with ``prefix`` (hyphens and spaces ignored)."""
    by_make = ntsb_make(make).test
    bare = prefix.upper().replace("-", "").replace(" ", "")
    return Cond(
        f"model {make} {prefix}*",
        lambda r: (
            by_make(r)
            and any(p.replace("-", "").replace(" ", "").startswith(bare) for p in parts(r["model"]))
        ),
    )


def ntsb_field(name: str, *values: str) -> Cond:
    """Any comma-separated part of a field (``weather``, ``far_part``, ``purpose``, ``damage``,
    ``highest_injury``) is one of ``values``."""
    wanted = {v.upper() for v in values}
    return Cond(f"{name} {'/'.join(values)}", lambda r: bool(wanted & set(parts(r[name]))))


def ntsb_fatal_at_least(k: int) -> Cond:
    return Cond(f"fatal >= {k}", lambda r: int(r["fatal"] or 0) >= k)


def ntsb_several_aircraft() -> Cond:
    return Cond("several aircraft", lambda r: len(parts(r["aircraft_category"])) > 1)


def ntsb_text(rule: str, pattern: str) -> Cond:
    """The narrative or probable cause has these words (a tolerance set)."""
    found = search(pattern)
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
