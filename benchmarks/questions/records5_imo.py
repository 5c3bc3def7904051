"""IMO casualties for record sets 5: conditions on their fields, event and consequence groups."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from records5_fields import Cond, Record, parts, search

IMO_FILE = Path("maritime") / "imo_casualties.csv"


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
    return Cond(f"flag {'/'.join(codes)}", lambda r: bool(set(codes) & set(parts(r["FlagStates"]))))


def imo_severity(*values: str) -> Cond:
    return Cond(f"severity {'/'.join(values)}", lambda r: r["TypeOfCasualty"] in values)


def imo_society(name: str) -> Cond:
    """The first ship's classification society contains ``name`` ("Lloyd's Register")."""
    return Cond(f"class {name}", lambda r: name in str(r["ClassificationSociety1"]))


def imo_location(rule: str, pattern: str) -> Cond:
    """``Location`` names this sea (free text: a tolerance set)."""
    found = search(pattern)
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
    found = search(IMO_SHIP_KINDS[kind])
    return Cond(f"ship {kind}", lambda r: found(str(r["ShipType1"])), exact=False)


def imo_ships(k: int) -> Cond:
    return Cond(f"ships == {k}", lambda r: int(r["NumberOfShipsInvolved"] or 0) == k)


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


def imo_initial(value: str, group: str) -> Cond:
    """``InitialEvent`` is ``value`` as written; read the other way, it is in ``group``."""
    return Cond(
        f"initial event {value}",
        lambda r: str(r["InitialEvent"]).strip() == value,
        other=lambda r: imo_event_of(r) == group,
    )


def _number(value: object) -> int | None:
    text = str(value).strip().replace(",", "")
    return int(text) if text.isdigit() else None


def imo_tonnage_at_least(tons: int) -> Cond:
    """The first ship's gross tonnage is at least ``tons``."""
    return Cond(f"GT >= {tons}", lambda r: (_number(r["GrossTonnage1"]) or 0) >= tons)


def imo_passengers() -> Cond:
    """The first ship carried passengers."""
    return Cond("passengers > 0", lambda r: (_number(r["PassengersOnboard1"]) or 0) > 0)


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


def imo_consequence(group: str) -> Cond:
    """The first ship's consequences include this group (``IMO_CONSEQUENCES``)."""
    return Cond(f"consequence {group}", lambda r: group in imo_consequences(r))


def imo_dead(record: Record) -> int:
    """Dead and missing crew, passengers and others (blank or not designated counts 0)."""
    fields = ("DeadMissingCrew2", "DeadMissingPassengers2", "DeadMissingOthers3")
    return sum(int(v) for f in fields if (v := str(record[f]).strip()).isdigit())


def imo_dead_at_least(k: int) -> Cond:
    return Cond(f"dead >= {k}", lambda r: imo_dead(r) >= k)
