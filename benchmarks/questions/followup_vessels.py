"""Two-turn follow-ups about one ship's casualty, with gold read from the IMO casualty records.

Used by ``make_followup_questions.py`` (round 2); imports nothing from Bosun: each gold value is
this module's own reading of the raw CSV cells. The first turn names one casualty the way a user
would (the ship's name, and its date unless the date is what the follow-up asks); the second asks
one aspect of the record, in one of several phrasings:

- ``flag``: ``FlagStates`` (an ISO alpha-3 code);
- ``ship_type``: ``ShipType1``;
- ``tonnage``: ``GrossTonnage1``;
- ``date``: ``IncidentDateTime`` (the day);
- ``place``: ``Location`` (only rows that give one);
- ``consequences``: ``Consequences1`` (comma separated, every one expected);
- ``initial_event``: ``InitialEvent``.

The subject is the casualty's ``Reference``: the follow-up must cite it and no other record. Only
casualties with one ship, an IMO number, and a ship name no other row of the file uses are asked
about, so the name alone points at one record. ``IMO_LAST_REFERENCE``: the IMO collection the
measurements run on holds the file's references up to C0007156 (6,256 casualties, 1990-2009:
its ingest was stopped there), so questions are drawn from those.
"""

from __future__ import annotations

import calendar
import csv
import random
import re
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

IMO_LAST_REFERENCE = "C0007156"

Record = dict[str, Any]

FIRST_TURNS = (
    "What happened to the {name} on {long_date}?",
    "Tell me about the casualty of the {name} in {month_year}.",
    "What happened in the {name} casualty on {long_date}?",
    "Can you describe what happened to the ship {name} in {month_year}?",
)
#: First turns for a date follow-up: the date is not named.
FIRST_TURNS_UNDATED = (
    "What happened to the {name}?",
    "Tell me about the casualty of the {name}.",
)
ASPECT_TURNS = {
    "flag": (
        "what flag was she flying?",
        "which flag was the ship under?",
        "what was its flag state?",
        "where was the vessel flagged?",
    ),
    "ship_type": (
        "what type of ship was it?",
        "what kind of vessel was she?",
        "what sort of ship was that?",
    ),
    "tonnage": (
        "what was her gross tonnage?",
        "how big was the ship?",
        "what tonnage was the vessel?",
    ),
    "date": (
        "when did it happen?",
        "when was this?",
        "what was the date of the casualty?",
    ),
    "place": (
        "where did it happen?",
        "where was that?",
        "what was the location?",
    ),
    "consequences": (
        "what were the consequences?",
        "what was the outcome?",
        "what came of it?",
    ),
    "initial_event": (
        "what was the initial event?",
        "what kind of casualty was it?",
        "how did the casualty start?",
    ),
}
_SHIP = re.compile(r"\s*(.*?)\s*\((?:IMO\s*(\d+)|-)\)\"?\s*(?:,|;|$)")
_NOT_GIVEN = re.compile(r"^\[.*not designated\]$|^unspecified$|^[\s.*-]*$", re.IGNORECASE)


def load(path: Path) -> list[Record]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        return [
            {k: ("" if _NOT_GIVEN.match(v or "") else (v or "").strip()) for k, v in row.items()}
            for row in csv.DictReader(handle)
        ]


def _ships(cell: str) -> list[tuple[str, str | None]]:
    return [(m[1].strip(' ,;"'), m[2]) for m in _SHIP.finditer(cell)]


def _day(row: Record) -> date | None:
    try:
        return date.fromisoformat(row["IncidentDateTime"][:10])
    except ValueError:
        return None


def _named(name: str) -> str:
    """The ship's name as a user types it ("NORDIC STAR" -> "Nordic Star")."""
    return " ".join(w.capitalize() if w.isalpha() else w for w in name.split())


def _expected(row: Record, aspect: str, day: date) -> dict[str, Any]:
    if aspect == "flag":
        return {"flag": row["FlagStates"]}
    if aspect == "ship_type":
        return {"ship_type": row["ShipType1"]}
    if aspect == "tonnage":
        return {"gross_tonnage": row["GrossTonnage1"]}
    if aspect == "date":
        return {"date": day.isoformat()}
    if aspect == "place":
        return {"location": row["Location"]}
    if aspect == "consequences":
        return {"consequences": [c.strip() for c in row["Consequences1"].split(",") if c.strip()]}
    return {"initial_event": row["InitialEvent"]}


_NEEDS = {
    "flag": "FlagStates",
    "ship_type": "ShipType1",
    "tonnage": "GrossTonnage1",
    "place": "Location",
    "consequences": "Consequences1",
    "initial_event": "InitialEvent",
}


def vessel_followups(rows: list[Record], rng: random.Random, n: int) -> list[Record]:
    """``n`` two-turn questions, the aspects in turn, on casualties one ship's name points at."""
    names = Counter(name.casefold() for row in rows for name, _ in _ships(row["ShipsInvolved"]))
    usable = []
    for row in rows:
        ships = _ships(row["ShipsInvolved"])
        if row["Reference"] > IMO_LAST_REFERENCE or len(ships) != 1 or _day(row) is None:
            continue
        name, imo = ships[0]
        if imo and len(name) >= 3 and names[name.casefold()] == 1 and "," not in row["FlagStates"]:
            usable.append(row)
    rng.shuffle(usable)
    aspects = list(ASPECT_TURNS)
    out: list[Record] = []
    for row in usable:
        aspect = aspects[len(out) % len(aspects)]
        if aspect in _NEEDS and not row[_NEEDS[aspect]]:
            continue
        day = _day(row)
        assert day is not None
        fields = {
            "name": _named(_ships(row["ShipsInvolved"])[0][0]),
            "long_date": f"{calendar.month_name[day.month]} {day.day}, {day.year}",
            "month_year": f"{calendar.month_name[day.month]} {day.year}",
        }
        firsts = FIRST_TURNS_UNDATED if aspect == "date" else FIRST_TURNS
        out.append(
            {
                "kind": "followup",
                "question": rng.choice(firsts).format(**fields),
                "followup": rng.choice(ASPECT_TURNS[aspect]),
                "aspect": aspect,
                "report_no": row["Reference"],
                "expected": _expected(row, aspect, day),
            }
        )
        if len(out) == n:
            break
    return out
