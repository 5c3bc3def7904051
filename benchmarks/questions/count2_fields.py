"""Count question set 2's own reading of the raw records: readers and three-valued tests.

Every test answers ``True`` (the record is in the set), ``False`` (it is not) or ``None`` (the
record's field is one this set's definitions cannot place either way, e.g. a ship type
"RESEARCH/FISHING" for "fishing vessels" or a make "CESSNA/WEAVER" for "Cessna"). A question is
kept only when no record in its otherwise-matching set is ``None``, so every gold count is the
same under either reading. The definitions themselves are written down in
``make_count_questions2.py``'s docstring; the tables below are them. Imports nothing from Bosun.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Any

Record = dict[str, Any]
Tri = bool | None
Test = Callable[[Record], Tri]


def all_of(tests: Iterable[Test]) -> Test:
    """False if any test is False, else None if any is None, else True."""
    tests = tuple(tests)

    def test(record: Record) -> Tri:
        seen_none = False
        for one in tests:
            value = one(record)
            if value is False:
                return False
            seen_none = seen_none or value is None
        return None if seen_none else True

    return test


def classify(text: str, true: str, maybe: str = "", false: str = "", unsure: str = "") -> Tri:
    """In this order: ``false`` (False), ``unsure`` (None), ``true`` (True), ``maybe`` (None),
    else False; the patterns search the lower-cased text with its spaces collapsed."""
    text = " ".join(text.lower().split())
    if false and re.search(false, text):
        return False
    if unsure and re.search(unsure, text):
        return None
    if re.search(true, text):
        return True
    return None if maybe and re.search(maybe, text) else False


# --- NTSB ---------------------------------------------------------------------------------


def ntsb_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    for row in rows:
        row["date"] = date.fromisoformat(row["event_date"])
        row["aircraft"] = _aircraft(row)
    return rows


def _aircraft(row: Record) -> list[tuple[str, str, str]] | None:
    """(make, model, category) per aircraft; None when the fields do not split evenly."""
    cats = [c.strip() for c in str(row.get("aircraft_category") or "").split(",")]
    makes, models = str(row.get("make") or ""), str(row.get("model") or "")
    if len(cats) == 1:
        return [(makes, models, cats[0])]
    make_parts, model_parts = makes.split(", "), models.split(", ")
    if len(make_parts) == len(model_parts) == len(cats):
        return list(zip(make_parts, model_parts, cats, strict=True))
    return None


def incident(row: Record) -> bool:
    """An NTSB incident (``..IA..`` number), not an accident (49 CFR 830.2)."""
    return str(row["ntsb_no"])[5:7] == "IA"


# make family -> (make string prefixes, in upper case, that are that manufacturer)
MAKES = {
    "Cessna": ("CESSNA",),
    "Piper": ("PIPER", "NEW PIPER"),
    "Beechcraft": ("BEECH", "BEECHCRAFT", "HAWKER BEECHCRAFT", "HAWKER-BEECHCRAFT"),
    "Robinson": ("ROBINSON",),
    "Bell": ("BELL", "BELL HELICOPTER"),
    "Cirrus": ("CIRRUS",),
    "Mooney": ("MOONEY",),
    "Air Tractor": ("AIR TRACTOR",),
    "Maule": ("MAULE",),
    "Aeronca": ("AERONCA",),
    "Luscombe": ("LUSCOMBE",),
    "de Havilland": ("DEHAVILLAND", "DE HAVILLAND"),
    "Diamond": ("DIAMOND",),
    "Taylorcraft": ("TAYLORCRAFT",),
    "Enstrom": ("ENSTROM",),
    "Embraer": ("EMBRAER", "EMBRAER-EMPRESA"),
}
# model as asked -> (make family, pattern over the model with its spaces and hyphens made one
# "-": True, pattern: undecided, e.g. a letter-prefixed variant such as T182 or R172K)
MODELS = {
    "Cessna 172": ("Cessna", r"^172(?![0-9])", r"^[A-Z]{1,2}-?172(?![0-9])"),
    "Cessna 182": ("Cessna", r"^182(?![0-9])", r"^[A-Z]{1,2}-?182(?![0-9])"),
    "Cessna 150": ("Cessna", r"^150(?![0-9])", r"^[A-Z]{1,2}-?150(?![0-9])"),
    "Piper PA-28": ("Piper", r"^PA-?28(?![0-9])", r"^$"),
    "Piper PA-18 Super Cub": ("Piper", r"^PA-?18(?![0-9])", r"^L-?18"),
    "Robinson R44": ("Robinson", r"^R-?44(?![0-9])", r"^$"),
    "Robinson R22": ("Robinson", r"^R-?22(?![0-9])", r"^$"),
    "Cirrus SR22": ("Cirrus", r"^SR-?22(?![0-9])", r"^$"),
    "Bell 206": ("Bell", r"^206(?![0-9])", r"^OH-?58|^TH-?57"),
    "Air Tractor AT-502": ("Air Tractor", r"^AT-?502(?![0-9])", r"^502"),
    "Boeing 737": ("Boeing", r"^737(?![0-9])", r"^$"),
}
MAKES["Boeing"] = ("BOEING",)


def _make_of(make: str, family: str) -> Tri:
    text = " ".join(make.upper().replace(",", " ").split())
    for prefix in MAKES[family]:
        if text == prefix or text.startswith(prefix + " "):
            return True
    word = MAKES[family][0]
    return None if re.search(rf"(?<![A-Z]){re.escape(word)}(?![A-Z])", text) else False


def _any_aircraft(row: Record, one: Callable[[str, str, str], Tri], whole: str) -> Tri:
    planes = row["aircraft"]
    if planes is None:  # fields that do not split per aircraft: only "not at all" is sure
        return None if re.search(whole, f"{row.get('make')} {row.get('model')}", re.I) else False
    values = [one(*plane) for plane in planes]
    return True if True in values else (None if None in values else False)


def of_make(family: str) -> Test:
    word = MAKES[family][0]
    return lambda r: _any_aircraft(r, lambda mk, _md, _c: _make_of(mk, family), word)


def of_model(name: str) -> Test:
    family, true, maybe = MODELS[name]

    def one(make: str, model: str, _cat: str) -> Tri:
        by_make = _make_of(make, family)
        norm = re.sub(r"[\s\-]+", "-", model.upper().strip())
        by_model = True if re.search(true, norm) else (None if re.search(maybe, norm) else False)
        if by_make is False or by_model is False:
            return False
        return True if by_make and by_model else None

    return lambda r: _any_aircraft(r, one, MAKES[family][0])


def of_category(code: str) -> Test:
    """Any aircraft of this category; a record with no category is undecided."""

    def test(r: Record) -> Tri:
        cats = [c.strip() for c in str(r.get("aircraft_category") or "").split(",")]
        if code in cats:
            return True
        return None if any(c in ("", "None") for c in cats) else False

    return test


def has_part(field: str, value: str) -> Test:
    """Any aircraft's ``far_part`` / ``purpose`` is ``value``."""
    return lambda r: value in [v.strip() for v in str(r.get(field) or "").split(",")]


# --- IMO ----------------------------------------------------------------------------------


def imo_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if (r.get("Reference") or "").strip()]
    for row in rows:
        row["when"] = _imo_when(row.get("IncidentDateTime") or "")
        row["flags"] = {f.strip() for f in (row.get("FlagStates") or "").split(",") if f.strip()}
    return rows


def _imo_when(value: str) -> date | None:
    for fmt in ("%Y-%m-%d %H:%M", "%m/%d/%y %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(value.strip(), fmt).date()
        except ValueError:
            continue
    return None


def number(row: Record, field: str) -> int | None:
    value = str(row.get(field) or "").strip().replace(",", "")
    return int(value) if value.isdigit() else None


def dead_or_missing(row: Record, *fields: str) -> int:
    fields = fields or ("DeadMissingCrew2", "DeadMissingPassengers2", "DeadMissingOthers3")
    return sum(number(row, f) or 0 for f in fields)


def loss_of_life(row: Record) -> bool:
    """Consequences name it, or anyone is recorded dead or missing."""
    said = "loss of life" in str(row.get("Consequences1") or "").lower()
    return said or dead_or_missing(row) > 0


# Each table maps a family to its patterns over one lower-cased field, tried in this order:
# false (not in it), unsure (undecided), true (in it), maybe (undecided); anything else is not.
Patterns = dict[str, str]

SHIP_TYPES: dict[str, Patterns] = {
    "bulk": {
        "true": r"\bbulk\b|ore carrier|cement carrier|wood[- ]?chips? carrier|aggregates carrier"
        r"|limestone carrier",
    },
    "tanker": {
        "unsure": r"fpso|tank barge|tanker barge",
        "true": r"tanker|bulk dry / oil|ore/bulk/oil|crude oil aframax",
    },
    "fishing": {
        "false": r"fish factory ship|fish carrier|fishery",
        "unsure": r"research/fishing|sports fishing|workboat/fishing|converted for fishing"
        r"|^shellfish$",
        "true": r"fish catching|fishing|trawler|longliner|netter|crabber|scallop dredger",
    },
    "passenger": {
        "unsure": r"^ro-?ro cargo/ferry|^ro-ro ferry|high speed craft|^cruiser$|cable ferry"
        r"|ferry/general cargo|diveboat|sail training passenger",
        "true": r"passenger|ferry|cruise ship",
    },
    "container": {
        "unsure": r"general cargo.*container|container.*general cargo",
        "true": r"^container( ship)?( \(fully cellular\))?$",
    },
    "gas": {"true": r"liquefied gas|\blpg\b|\blng\b"},
    "chemical": {"unsure": r"lpg/chemical", "true": r"chemical"},
    "general cargo": {
        "unsure": r"general cargo.*(container|passenger|ferry)|(container|passenger|ferry).*general"
        r"|^(dry )?cargo ship$|multi-purpose|freight carrier|open hatch cargo",
        "true": r"general cargo",
    },
    "tug": {
        "unsure": r"tug/supply|tug supply|converted for fishing",
        "true": r"^tug$|towing|pusher tug|salvage tug|tractor tug",
    },
    "reefer": {"true": r"refrigerated cargo"},
    "car carrier": {"unsure": r"rail vehicles", "true": r"vehicles carrier|car carrier"},
    "dredger": {"false": r"scallop", "unsure": r"^hopper( barge|, motor)?$", "true": r"dredger"},
    "offshore supply": {
        "unsure": r"crew/supply|research/supply|dive support",
        "true": r"supply ship|offshore supply|platform supply|anchor handling|anchor handing"
        r"|tug/supply",
    },
}


def _classify(text: str, patterns: Patterns) -> Tri:
    return classify(
        text,
        patterns["true"],
        maybe=patterns.get("maybe", ""),
        false=patterns.get("false", ""),
        unsure=patterns.get("unsure", ""),
    )


def ship_type(family: str) -> Test:
    patterns = SHIP_TYPES[family]
    return lambda r: _classify(str(r.get("ShipType1") or ""), patterns)


EVENTS: dict[str, Patterns] = {
    "collision": {
        "false": r"near|risk of collision|collision with (fixed|floating|floaitng|a channel buoy)"
        r"|collision to berth",
        "true": r"^collision",
        "maybe": r"collision",
    },
    "grounding": {
        "false": r"near grounding",
        "true": r"^(stranding|grounding|grounded|partial grounding|running aground)",
        "maybe": r"ground|strand|aground",
    },
    "fire": {"true": r"^(fire|explosion)", "maybe": r"\bfire\b|explos"},
    "capsizing": {
        "false": r"near",
        "unsure": r"^caps$",  # a value cut short
        "true": r"^(capsiz|capsize|listing|list and|heeling)",
        "maybe": r"capsiz|\blist",
    },
    "contact": {
        "true": r"^contact\b|^collision with (fixed|floating|a channel buoy)|^collision to berth",
        "maybe": r"contact|collision with|striking|allision",
    },
    "sinking": {"true": r"^(sinking|sank|foundered|foundering)", "maybe": r"sink|founder|sank"},
    "machinery": {
        "true": r"^machinery damage$|^(main )?engine failure$",
        "maybe": r"machinery|engine",
    },
    "overboard": {
        "false": r"container|cargo",
        "true": r"^((a |fatal )?(man|person|crew ?member|crewman) ?over ?board|manoverboard"
        r"|fall overboard|(loss of )?(a )?(man|person) (lost )?overboard)",
        "maybe": r"over ?board",
    },
    "missing": {"true": r"^missing: assumed lost$", "maybe": r"missing"},
}


def initial_event(family: str) -> Test:
    patterns = EVENTS[family]
    return lambda r: _classify(str(r.get("InitialEvent") or ""), patterns)


SOCIETIES: dict[str, Patterns] = {
    "Lloyd's Register": {"true": r"^lloyd'?s register"},
    "DNV": {"true": r"^dnv|det norske veritas"},
    "ClassNK": {"true": r"nippon kaiji|^nkk|^nk\b"},
    "the American Bureau of Shipping": {"true": r"american bureau of shipping"},
    "Bureau Veritas": {"unsure": r"rina / bureau", "true": r"bureau veritas"},
    "Germanischer Lloyd": {"unsure": r"dnv gl", "true": r"^germanischer lloyd"},
    "RINA": {
        "unsure": r"rina / bureau|rinave",
        "true": r"^rina services|registro italiano navale",
    },
    "the Korean Register": {"unsure": r"^kcr$", "true": r"^korean register"},
}


def classed_by(society: str) -> Test:
    patterns = SOCIETIES[society]
    return lambda r: _classify(str(r.get("ClassificationSociety1") or ""), patterns)
