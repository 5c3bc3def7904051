"""Questions that count ("How many accidents in Texas in 2011 were fatal?"): the plan read from
the question's words, and the answer written from the exact count (:mod:`archive.store.counts`).

A question is a count question only when it asks "how many" (or "number of") *records* of a kind
the archive holds: accidents, crashes or incidents (NTSB records), casualties or ships (IMO
casualties). "How many legs does a spider have?" names no such record and is no count; "How many
people died in the Reno crash?" asks about one record, not how many records, and is left to the
composer. The rest of the question's words become filters on the records' typed fields.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date

import pycountry

from answers.related_types import related_line
from archive.store.counts import RecordCount, RecordQuery
from archive.store.passages import Passage
from archive.vessel_types import families_in, own_words, type_words
from text.words import content_stems, tokens

_ASKS_COUNT = re.compile(
    r"^\s*(?:(?:and|so|also|ok|okay),?\s+)?(?:how\s+many|what\s+(?:is|was)\s+the\s+number\s+of|"
    r"(?:the\s+)?number\s+of|count(?:\s+(?:of|the))?)\b",
    re.IGNORECASE,
)
# What is counted: the record nouns, after at most four qualifying words ("fatal helicopter").
_AVIATION = (
    r"(?:aviation\s+|aircraft\s+|airplane\s+|plane\s+|air\s+)?"
    r"(?:accidents?|crash(?:es)?|incidents?|mishaps?)"
)
_MARITIME = r"(?:marine\s+|maritime\s+)?(?:casualt(?:y|ies)|shipwrecks?|ships|vessels|wrecks?)"
_RECORD = re.compile(
    rf"^(?:[\w'/-]+\s+){{0,4}}?(?:(?P<air>{_AVIATION})|(?P<sea>{_MARITIME})|"
    r"(?P<ntsb>ntsb\s+(?:records?|reports?))|(?P<imo>imo\s+(?:records?|casualt(?:y|ies))))\b",
    re.IGNORECASE,
)
_SEA_WORDS = re.compile(
    r"\b(?:ships?|vessels?|flag(?:ged|s)?|imo|casualt(?:y|ies)|maritime|marine|tankers?|"
    r"carriers?|trawlers?|ferr(?:y|ies)|tugs?|yachts?|sea)\b",
    re.IGNORECASE,
)
_YEAR = r"((?:19|20)\d{2})"
_BETWEEN = re.compile(rf"\b(?:between|from)\s+{_YEAR}\s+(?:and|to|through|-)\s+{_YEAR}\b", re.I)
_SINCE = re.compile(rf"\b(?:since|after|from)\s+{_YEAR}\b", re.IGNORECASE)
_BEFORE = re.compile(rf"\bbefore\s+{_YEAR}\b", re.IGNORECASE)
_IN_YEAR = re.compile(rf"\b{_YEAR}\b")

US_STATES = (  # noqa: SIM905
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia "
    "Hawaii Idaho Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts "
    "Michigan Minnesota Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon "
    "Pennsylvania Tennessee Texas Utah Vermont Virginia Washington Wisconsin Wyoming"
).split() + [
    "New Hampshire",
    "New Jersey",
    "New Mexico",
    "New York",
    "North Carolina",
    "North Dakota",
    "Rhode Island",
    "South Carolina",
    "South Dakota",
    "West Virginia",
    "Puerto Rico",
    "District of Columbia",
]
# Longest first, so "West Virginia" is not read as "Virginia".
_STATE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, US_STATES), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
#: Aircraft makes a question may name: the first words of the records' make field.
MAKES = (  # noqa: SIM905
    "Cessna Piper Beech Beechcraft Bell Boeing Airbus Robinson Mooney Schweizer Cirrus Bellanca "
    "Maule Aeronca Hughes Luscombe Eurocopter Diamond Champion Aviat Grumman Stinson Taylorcraft "
    "Ercoupe Embraer Bombardier Sikorsky Enstrom Agusta Lake Socata Pilatus Mitsubishi Learjet "
    "Dassault Gulfstream Hawker Ryan Waco Schleicher Rans Kitfox Vans Globe Navion Douglas"
).split() + ["Air Tractor", "North American", "Aero Commander", "de Havilland", "Dehavilland"]
_MAKE = re.compile(r"\b(" + "|".join(sorted(MAKES, key=len, reverse=True)) + r")\b", re.I)
_MAKE_SPELLING = {"BEECHCRAFT": "BEECH", "DE HAVILLAND": "DEHAVILLAND"}
_CATEGORIES = (
    ("HELI", r"helicopters?|rotorcraft"),
    ("GLI", r"gliders?|sailplanes?"),
    ("BALL", r"(?:hot[- ]air\s+)?balloons?"),
    ("GYRO", r"gyroplanes?|gyrocopters?|autogyros?"),
    ("WSFT", r"weight[- ]shift|trikes?"),
    ("PPAR", r"powered\s+parachutes?"),
    ("AIR", r"airplanes?|aeroplanes?|fixed[- ]wing"),
)
_WEATHER = (
    ("IMC", r"\bimc\b|instrument\s+(?:meteorological\s+)?conditions"),
    ("VMC", r"\bvmc\b|visual\s+(?:meteorological\s+)?conditions"),
)
_AIR_OUTCOMES = (
    ("fatal", r"fatal|fatalit(?:y|ies)|deadly|killed|deaths?|died|lethal"),
    ("serious", r"serious(?:ly)?\s+injur"),
    ("injured", r"injur"),
)
_SEA_OUTCOMES = (
    ("loss_of_life", r"loss\s+of\s+life|lives\s+lost|fatal|fatalit|deaths?|died|killed|deadly"),
    ("total_loss", r"total\s+loss|totally\s+lost|sank|sunk|sinking"),
    ("pollution", r"pollut|oil\s+spill"),
    ("injured", r"injur"),
)
_SEVERITY = re.compile(r"\b(very\s+serious|less\s+serious|serious)\s+(?:marine\s+)?casualt", re.I)
_EVENTS = (
    ("collision", r"collisions?|collided"),
    ("grounding", r"groundings?|grounded|strandings?|stranded|ran\s+aground"),
    ("fire or explosion", r"fires?|explosions?|exploded"),
    ("capsizing", r"capsiz\w*|listing"),
    ("contact", r"contacts?|allisions?"),
    ("machinery", r"machinery|engine\s+(?:failure|damage)"),
    ("foundered", r"founder\w*"),
    ("flooding", r"flooding|flooded"),
    ("hull failure", r"hull\s+failures?"),
    ("missing", r"missing|disappeared"),
)
_FLAG = re.compile(
    r"\b(?:flagged\s+(?:in|by|to|under)\s+(?:the\s+)?|under\s+(?:the\s+)?flag\s+of\s+(?:the\s+)?|"
    r"flag(?:\s+state)?\s+(?:of\s+)?(?:the\s+)?|registered\s+in\s+(?:the\s+)?)"
    r"(?P<after>[A-Z][\w.'-]*(?:\s+(?:and\s+(?:the\s+)?)?[A-Z][\w.'-]*){0,3})"
    r"|(?P<before>[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2})[- ]flag(?:ged)?\b",
)
#: What people call flag states that pycountry names otherwise.
FLAG_ALIASES = {
    "russia": "RUS",
    "south korea": "KOR",
    "korea": "KOR",
    "north korea": "PRK",
    "iran": "IRN",
    "vietnam": "VNM",
    "syria": "SYR",
    "tanzania": "TZA",
    "bolivia": "BOL",
    "venezuela": "VEN",
    "moldova": "MDA",
    "taiwan": "TWN",
    "st vincent": "VCT",
    "saint vincent": "VCT",
    "st. vincent": "VCT",
    "uk": "GBR",
    "britain": "GBR",
    "great britain": "GBR",
    "united kingdom": "GBR",
    "us": "USA",
    "usa": "USA",
    "united states": "USA",
    "america": "USA",
    "holland": "NLD",
    "the netherlands": "NLD",
    "turkey": "TUR",
    "south korean": "KOR",
    "hong kong": "HKG",
}
#: What people call a flag state's ships ("Liberian-flagged").
FLAG_ALIASES |= {
    demonym: code
    for code, names in {
        "LBR": "liberian",
        "PAN": "panamanian",
        "MLT": "maltese",
        "BHS": "bahamian",
        "CYP": "cypriot",
        "GBR": "british",
        "RUS": "russian",
        "NOR": "norwegian",
        "GRC": "greek",
        "CHN": "chinese",
        "JPN": "japanese",
        "NLD": "dutch",
        "DEU": "german",
        "DNK": "danish",
        "ITA": "italian",
        "TUR": "turkish",
        "KOR": "korean south-korean",
        "USA": "american",
        "SGP": "singaporean singapore-flagged",
        "ATG": "antiguan",
        "MHL": "marshallese",
        "IND": "indian",
        "FRA": "french",
        "ESP": "spanish",
        "PHL": "filipino philippine",
        "IDN": "indonesian",
        "VNM": "vietnamese",
        "KHM": "cambodian",
        "BLZ": "belizean",
        "HND": "honduran",
        "CAN": "canadian",
        "SWE": "swedish",
        "FIN": "finnish",
        "PRT": "portuguese",
        "UKR": "ukrainian",
        "POL": "polish",
        "HKG": "hong-kong",
        "VCT": "vincentian",
    }.items()
    for demonym in names.split()
}


@dataclass(frozen=True)
class CountPlan:
    """What a count question asks: the records' query and how to name its parts."""

    query: RecordQuery
    noun: str  # "accident records" | "casualty records"
    scope: str  # "in Texas from 2011" ("" when the whole kind is counted)
    outcome: str  # "fatal" ("" when the question asks no outcome)


#: Words that say what an aircraft is (its category), not what went wrong.
_AIRCRAFT = re.compile(
    r"\b(?:aircraft|(?:air|aero)?planes?|" + "|".join(p for _, p in _CATEGORIES) + r")\b",
    re.IGNORECASE,
)


def kind_stems(texts: Iterable[str]) -> set[str]:
    """The content stems of the words in ``texts`` that say what a record is about (an aircraft
    category: "helicopter", "airplane"; a vessel family: "bulk carrier"), never why."""
    out: set[str] = set()
    for text in texts:
        for words in (*_AIRCRAFT.findall(text), *type_words(text)):
            out |= set(content_stems(tokens(words)))
    return out


def count_plan(question: str) -> CountPlan | None:
    """The plan of a count question; None when the question does not count records."""
    head = _ASKS_COUNT.match(question)
    if head is None:
        return None
    counted = _RECORD.match(question[head.end() :].lstrip())
    if counted is None:
        return None
    sea = bool(counted["sea"] or counted["imo"]) or (
        not (counted["ntsb"] or counted["air"]) and bool(_SEA_WORDS.search(question))
    )
    if counted["air"] and _SEA_WORDS.search(question) and not _aviation_words(question):
        sea = True  # "How many accidents involved ships flagged in Panama?"
    return plan_for(question, sea=sea)


def plan_for(question: str, *, sea: bool) -> CountPlan:
    """The records a question's words select among IMO casualties (``sea``) or NTSB records."""
    query = RecordQuery(kind="casualty" if sea else "ntsb_report")
    scope: list[str] = []
    query, years = _years(question, query)
    query = _sea_filters(question, query, scope) if sea else _air_filters(question, query, scope)
    outcomes = _SEA_OUTCOMES if sea else _AIR_OUTCOMES
    found = [name for name, pattern in outcomes if re.search(pattern, question, re.IGNORECASE)]
    if "serious" in found or "fatal" in found:
        found = [o for o in found if o != "injured"]
    query = replace(query, outcomes=tuple(found))
    if years:
        scope.append(years)
    return CountPlan(
        query=query,
        noun="casualty records" if sea else "accident records",
        scope=" ".join(scope),
        outcome=", ".join(_OUTCOME_WORDS[o] for o in found),
    )


_OUTCOME_WORDS = {
    "fatal": "fatal",
    "serious": "with serious injuries",
    "injured": "with injuries",
    "loss_of_life": "with loss of life",
    "total_loss": "with the total loss of the ship",
    "pollution": "with pollution",
}


_AIR_WORDS = re.compile(
    r"\b(?:aircraft|airplanes?|planes?|helicopters?|pilots?|flights?)\b", re.IGNORECASE
)


def _aviation_words(question: str) -> bool:
    return bool(_AIR_WORDS.search(question) or _MAKE.search(question))


def _years(question: str, query: RecordQuery) -> tuple[RecordQuery, str]:
    if m := _BETWEEN.search(question):
        first, last = sorted((int(m[1]), int(m[2])))
        return replace(query, date_from=date(first, 1, 1), date_to=date(last, 12, 31)), (
            f"from {first} to {last}"
        )
    if m := _SINCE.search(question):
        return replace(query, date_from=date(int(m[1]), 1, 1)), f"since {m[1]}"
    if m := _BEFORE.search(question):
        return replace(query, date_to=date(int(m[1]) - 1, 12, 31)), f"before {m[1]}"
    if m := _IN_YEAR.search(question):
        year = int(m[1])
        return replace(query, date_from=date(year, 1, 1), date_to=date(year, 12, 31)), (
            f"from {year}"
        )
    return query, ""


def _air_filters(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    if m := _STATE.search(question):
        state = next(s for s in US_STATES if s.lower() == m[1].lower())
        query = replace(query, region=state)
        scope.append(f"in {state}")
    if m := _MAKE.search(question):
        make = " ".join(m[1].upper().split())
        query = replace(query, make=_MAKE_SPELLING.get(make, make))
        scope.append(f"of {m[1].title()} aircraft")
    for code, pattern in _CATEGORIES:
        if re.search(rf"\b(?:{pattern})\b", question, re.IGNORECASE):
            query = replace(query, category=code)
            scope.append(f"of category {code}")
            break
    for code, pattern in _WEATHER:
        if re.search(pattern, question, re.IGNORECASE):
            query = replace(query, weather=code)
            scope.append(f"in {code}")
            break
    return query


def _sea_filters(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    if code := flag_in(question):
        query = replace(query, flag=code)
        scope.append(f"involving a ship flagged in {_country_name(code)}")
    if found := families_in(question):
        families, words = found
        query = replace(query, vessel_families=families, vessel_named=own_words(families))
        scope.append(f"of {words}")
    if m := _SEVERITY.search(question):
        severity = " ".join(m[1].lower().split())
        query = replace(query, severity=severity)
        scope.append(f"classed {severity}")
    for event, pattern in _EVENTS:
        if re.search(rf"\b(?:{pattern})\b", question, re.IGNORECASE):
            query = replace(query, initial_event=event.split(" or ")[0])
            scope.append(f"whose initial event was {event}")
            break
    return query


def flag_in(question: str) -> str | None:
    """The ISO alpha-3 code of the flag state a question names ("flagged in Panama": PAN)."""
    for match in _FLAG.finditer(question):
        words = (match["after"] or match["before"] or "").split()
        for n in range(len(words), 0, -1):  # "Panama in 2011": the longest name that is one
            code = country_code(" ".join(words[:n]))
            if code:
                return code
    return None


def country_code(name: str) -> str | None:
    """ISO alpha-3 code of a country name, alias or code; None when it names no country."""
    key = name.strip(" .,").lower()
    if key in FLAG_ALIASES:
        return FLAG_ALIASES[key]
    if len(key) == 3 and pycountry.countries.get(alpha_3=key.upper()):
        return key.upper()
    for country in pycountry.countries:
        names = (getattr(country, f, "") for f in ("name", "common_name", "official_name"))
        if key in {n.lower() for n in names if n}:
            return str(country.alpha_3)
    return None


def _country_name(code: str) -> str:
    found = pycountry.countries.get(alpha_3=code)
    return str(getattr(found, "common_name", None) or found.name) if found else code


def compose_count(plan: CountPlan, count: RecordCount, cite: list[Passage]) -> str:
    """The answer: the count first, the set it was taken among, then cited examples."""
    markers = "".join(f"[C:{p['chunk_id']}]" for p in cite)
    among = f"the {count.scope:,} {plan.noun}" + (f" {plan.scope}" if plan.scope else "")
    if plan.outcome:
        lead = f"{count.matched:,} of {among} in the archive were {plan.outcome}"
        lead += f", counted over every one {markers}."
    else:
        lead = f"{count.matched:,} {plan.noun}" + (f" {plan.scope}" if plan.scope else "")
        lead += f" are in the archive {markers}."
    lines = [lead.replace(" .", ".")]
    if count.related:
        lines.append(related_line(plan.noun, count.related))
    if cite:
        label = "For example" if count.matched else "Records of that set"
        lines.append(f"{label}:")
        lines += [f"- {p['title']} [C:{p['chunk_id']}]" for p in cite]
    return "\n".join(lines)
