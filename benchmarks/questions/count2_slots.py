"""Count question set 2's slots and record tests: the places, years, flags, ship-type and
event names a question may name, and the plain (two-valued) tests over the raw fields; the
undecided ones are in ``count2_fields.py``, the definitions in ``make_count_questions2.py``."""

from __future__ import annotations

import count2_fields as f
from count2_fields import Record, Test, Tri

# fmt: off
STATES = (
    "California", "Texas", "Alaska", "Florida", "Arizona", "Washington", "Colorado", "Georgia",
    "Illinois", "Michigan", "New York", "Idaho", "North Carolina", "Ohio", "Oregon", "Minnesota",
    "Utah", "Wisconsin", "Pennsylvania", "Virginia", "Missouri", "Indiana", "Tennessee",
    "Arkansas", "Nevada", "Louisiana", "New Mexico", "Oklahoma", "Iowa", "Montana", "Alabama",
    "Kansas", "Maryland", "Wyoming", "Maine", "Mississippi", "Massachusetts", "Kentucky",
    "Nebraska", "Hawaii", "New Jersey", "South Carolina",
)

REGIONS = {
    "New England": (
        "Connecticut", "Maine", "Massachusetts", "New Hampshire", "Rhode Island", "Vermont",
    ),
    "the Carolinas": ("North Carolina", "South Carolina"),
    "the Dakotas": ("North Dakota", "South Dakota"),
    "the Four Corners states": ("Arizona", "Colorado", "New Mexico", "Utah"),
    "the Pacific coast states (California, Oregon and Washington)": (
        "California", "Oregon", "Washington",
    ),
}

# fmt: on
NTSB_YEARS = (2010, 2011, 2012, 2013, 2014)

CATEGORIES = {
    "glider": "GLI",
    "balloon": "BALL",
    "gyroplane": "GYRO",
    "weight-shift trike": "WSFT",
    "powered parachute": "PPAR",
}

ORDINAL = ("first", "second", "third", "fourth")


def ntsb_year(lo: int, hi: int) -> Test:
    return lambda r: lo <= r["date"].year <= hi


def ntsb_months(year: int, first: int, last: int) -> Test:
    return lambda r: r["date"].year == year and first <= r["date"].month <= last


def in_states(*states: str) -> Test:
    return lambda r: r.get("state") in states


def injuries(kind: str, k: int = 1) -> Test:
    def test(r: Record) -> bool:
        fatal, serious, minor = (r.get(x) or 0 for x in ("fatal", "serious", "minor"))
        return {
            "fatal": fatal >= k,
            "serious": serious > 0,
            "none": fatal + serious + minor == 0,
            "minor only": minor > 0 and fatal + serious == 0,
        }[kind]

    return test


def weather(code: str) -> Test:
    return lambda r: r.get("weather") == code


def destroyed(r: Record) -> bool:
    return "Destroyed" in str(r.get("damage") or "")


def aerial_application(r: Record) -> bool | None:
    by_purpose = f.has_part("purpose", "AAPL")(r)
    by_part = f.has_part("far_part", "137")(r)
    return by_purpose if by_purpose == by_part else None


def weekend(r: Record) -> bool:
    return r["date"].weekday() >= 5


def several_aircraft(r: Record) -> bool:
    return len(str(r.get("aircraft_category") or "").split(",")) > 1


# (name as a question says it, adjective, code): this set's own table
FLAGS = (
    ("Panama", "Panamanian", "PAN"),
    ("Liberia", "Liberian", "LBR"),
    ("Malta", "Maltese", "MLT"),
    ("the Bahamas", "Bahamian", "BHS"),
    ("Cyprus", "Cypriot", "CYP"),
    ("the United States", "US", "USA"),
    ("Antigua and Barbuda", "Antigua and Barbuda", "ATG"),
    ("Hong Kong", "Hong Kong", "HKG"),
    ("Russia", "Russian", "RUS"),
    ("South Korea", "South Korean", "KOR"),
    ("Saint Vincent and the Grenadines", "Vincentian", "VCT"),
    ("Greece", "Greek", "GRC"),
    ("Germany", "German", "DEU"),
    ("Japan", "Japanese", "JPN"),
    ("France", "French", "FRA"),
    ("Norway", "Norwegian", "NOR"),
    ("Canada", "Canadian", "CAN"),
    ("Singapore", "Singaporean", "SGP"),
    ("Spain", "Spanish", "ESP"),
    ("Turkey", "Turkish", "TUR"),
    ("Indonesia", "Indonesian", "IDN"),
    ("the Philippines", "Philippine", "PHL"),
    ("Denmark", "Danish", "DNK"),
    ("Cambodia", "Cambodian", "KHM"),
    ("India", "Indian", "IND"),
    ("Belize", "Belizean", "BLZ"),
    ("Honduras", "Honduran", "HND"),
    ("Sweden", "Swedish", "SWE"),
    ("Vietnam", "Vietnamese", "VNM"),
    ("the Isle of Man", "Manx", "IMN"),
    ("Portugal", "Portuguese", "PRT"),
    ("Ireland", "Irish", "IRL"),
    ("North Korea", "North Korean", "PRK"),
)

# family -> (plural phrasings, singular)
TYPES = {
    "bulk": (("bulk carriers", "bulkers", "dry bulk carriers"), "bulk carrier"),
    "tanker": (("tankers",), "tanker"),
    "fishing": (("fishing vessels", "fishing boats"), "fishing vessel"),
    "passenger": (("passenger ships", "passenger ships and ferries"), "passenger ship"),
    "container": (("container ships", "boxships"), "container ship"),
    "gas": (("liquefied gas carriers (LNG/LPG)",), "gas carrier"),
    "chemical": (("chemical tankers",), "chemical tanker"),
    "general cargo": (("general cargo ships",), "general cargo ship"),
    "tug": (("tugs",), "tug"),
    "reefer": (("refrigerated cargo ships",), "reefer"),
    "car carrier": (("car carriers",), "car carrier"),
    "dredger": (("dredgers",), "dredger"),
    "offshore supply": (("offshore supply vessels",), "offshore supply vessel"),
}

EVENTS = {
    "collision": "a collision with another ship",
    "grounding": "a grounding or stranding",
    "fire": "a fire or explosion",
    "capsizing": "capsizing or listing",
    "contact": "contact with a quay, bridge or other object",
    "sinking": "sinking or foundering",
    "machinery": "machinery damage",
    "overboard": "someone falling overboard",
    "missing": "the ship going missing, presumed lost",
}

DECADES = {"the 1990s": (1990, 1999), "the 2000s": (2000, 2009), "the 2010s": (2010, 2019)}


def years(lo: int, hi: int) -> Test:
    return lambda r: r["when"] is not None and lo <= r["when"].year <= hi


def months(year: int, first: int, last: int) -> Test:
    return lambda r: (
        r["when"] is not None and r["when"].year == year and first <= r["when"].month <= last
    )


def flagged(code: str) -> Test:
    return lambda r: code in r["flags"]


def flagged_ship(code: str) -> Test:
    """The casualty's ship is under this flag; undecided in a casualty of several ships, whose
    ``FlagStates`` do not say which ship (and so which ``ShipType1``, ``Consequences1``) is it."""

    def test(r: Record) -> Tri:
        if code not in r["flags"]:
            return False
        return None if several_ships(r) else True

    return test


def consequence(word: str) -> Test:
    return lambda r: word in str(r.get("Consequences1") or "").lower()


def severity(value: str) -> Test:
    return lambda r: r.get("TypeOfCasualty") == value


def dead(field: str) -> Test:
    return lambda r: f.dead_or_missing(r, field) > 0


def tonnage_at_least(gt: int) -> Test:
    return lambda r: (f.number(r, "GrossTonnage1") or 0) >= gt


def several_ships(r: Record) -> bool:
    return (f.number(r, "NumberOfShipsInvolved") or 0) >= 2
