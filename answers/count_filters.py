"""The filters of a count question beyond its kind, place and type: the period it names ("in
February 2003", "the first half of 2012", "Q3 2014", "in the 2000s", "since 2014"), and the
record fields an analyst asks about: states or flags joined by "or", regions of states, the day
of the week, several aircraft or ships, the kind of flight, the damage, the injuries, the
aircraft model, the classification society, the tonnage and who died or went missing.

Each reader takes the question's words and returns the :class:`RecordQuery` narrowed by what it
found, with the words that state the set in the answer ("on a weekend", "of Part 135 flights").
"""

from __future__ import annotations

import calendar
import re
from dataclasses import replace
from datetime import date

from answers.seasons import MONTH_SPAN, months_named
from archive.store.counts import RecordQuery
from archive.vessel_types import society_in
from text.dates import MONTH, YEAR, listed_years, month_end, month_number

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "last": 4, "1st": 1, "2nd": 2}
_ORDINALS |= {"3rd": 3, "4th": 4}

_MONTH_RANGE = re.compile(
    rf"\b(?:between|from)\s+{MONTH}\s+(?:and|to|through|-)\s+{MONTH}\s+(?:of\s+)?{YEAR}\b",
    re.IGNORECASE,
)
#: "June to August 2013", "Oct-Dec 2013": a span of months without "from"/"between"
_MONTH_SPAN = re.compile(rf"{MONTH_SPAN}\s+(?:of\s+)?{YEAR}\b", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"\b{MONTH}\s+(?:of\s+)?{YEAR}\b", re.IGNORECASE)
_HALF = re.compile(rf"\b(first|second|1st|2nd)\s+half\s+of\s+{YEAR}\b", re.IGNORECASE)
_QUARTER = re.compile(
    rf"\b(?:(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+quarter\s+of\s+{YEAR}"
    rf"|Q([1-4])\s+(?:of\s+)?{YEAR})\b",
    re.IGNORECASE,
)
_DECADE = re.compile(r"\b(?:the\s+)?((?:19|20)\d)0'?s\b", re.IGNORECASE)
_BETWEEN = re.compile(
    rf"\b(?:between|from)\s+{YEAR}\s+(?:and|to|through|thru|until|-)\s+{YEAR}\b", re.I
)
# a range written without "between" or "from": "2010 to 2015", "2010-2015", "2010 through 2012"
_RANGE = re.compile(rf"\b{YEAR}\s*(?:to|through|thru|until|-|–)\s*{YEAR}\b", re.IGNORECASE)
_SINCE = re.compile(
    rf"\b(?:since|after|from)\s+{YEAR}\b|\b{YEAR}\s+(?:or|and)\s+(?:later|after)\b"
    rf"|\b{YEAR}\s+onwards?\b",
    re.IGNORECASE,
)
_BEFORE = re.compile(rf"\bbefore\s+{YEAR}\b|\b{YEAR}\s+or\s+earlier\b", re.IGNORECASE)
_IN_YEAR = re.compile(rf"\b{YEAR}\b")

Period = tuple[date | None, date | None, str]


def period_in(question: str) -> Period | None:
    """The period a question names, as (first day, last day, words); None when it names none.
    The most precise reading wins: "between February and April 2014" before "2014"."""
    if m := _MONTH_RANGE.search(question) or _MONTH_SPAN.search(question):
        year, first, last = int(m[3]), month_number(m[1]), month_number(m[2])
        first, last = min(first, last), max(first, last)
        return (
            date(year, first, 1),
            month_end(year, last),
            (f"from {calendar.month_name[first]} to {calendar.month_name[last]} {year}"),
        )
    if m := _HALF.search(question):
        year, half = int(m[2]), _ORDINALS[m[1].lower()]
        first = 1 if half == 1 else 7
        words = f"in the {'first' if half == 1 else 'second'} half of {year}"
        return date(year, first, 1), month_end(year, first + 5), words
    if m := _QUARTER.search(question):
        quarter = _ORDINALS[m[1].lower()] if m[1] else int(m[3])
        year = int(m[2] or m[4])
        words = f"in the {('first', 'second', 'third', 'fourth')[quarter - 1]} quarter of {year}"
        return date(year, 3 * quarter - 2, 1), month_end(year, 3 * quarter), words
    if m := _MONTH_YEAR.search(question):
        year, month = int(m[2]), month_number(m[1])
        return (
            date(year, month, 1),
            month_end(year, month),
            (f"in {calendar.month_name[month]} {year}"),
        )
    if m := _DECADE.search(question):
        first = int(m[1]) * 10
        return date(first, 1, 1), date(first + 9, 12, 31), f"in the {first}s"
    return _years(question)


def _years(question: str) -> Period | None:
    if m := _BETWEEN.search(question) or _RANGE.search(question):
        first, last = sorted((int(m[1]), int(m[2])))
        return date(first, 1, 1), date(last, 12, 31), f"from {first} to {last}"
    if years := listed_years(question):
        return _listed(years)
    if m := _SINCE.search(question):
        year = m[1] or m[2] or m[3]
        return date(int(year), 1, 1), None, f"since {year}"
    if m := _BEFORE.search(question):
        year = int(m[1] or m[2])
        return None, date(year - 1, 12, 31), f"before {year}"
    if m := _IN_YEAR.search(question):
        year = int(m[1])
        return date(year, 1, 1), date(year, 12, 31), f"from {year}"
    return None


def years_listed(question: str) -> tuple[int, ...]:
    """The years a question lists with gaps between them ("in 2010 and 2013"), in order; ()
    when it lists none, or years that follow one another (a period: :func:`period_in`)."""
    years = listed_years(question)
    if not years or _BETWEEN.search(question) or _RANGE.search(question):
        return ()
    return tuple(years) if years != list(range(years[0], years[-1] + 1)) else ()


def _listed(years: list[int]) -> Period | None:
    """The period of listed years when they follow one another ("2012 and 2013": 2012 to 2013);
    years with gaps between them are no period (None; :func:`years_listed` reads them)."""
    first, last = years[0], years[-1]
    if years != list(range(first, last + 1)):
        return None
    return date(first, 1, 1), date(last, 12, 31), f"from {first} to {last}"


# --- NTSB records -------------------------------------------------------------------------


def _states(names: str) -> tuple[str, ...]:
    return tuple(names.split("|"))


#: Regions of states a question may name, by the states they are made of.
REGIONS = {
    r"new\s+england": (
        "Connecticut",
        "Maine",
        "Massachusetts",
        "New Hampshire",
        "Rhode Island",
        "Vermont",
    ),
    r"(?:the\s+)?carolinas": ("North Carolina", "South Carolina"),
    r"(?:the\s+)?dakotas": ("North Dakota", "South Dakota"),
    r"four\s+corners(?:\s+states)?": ("Arizona", "Colorado", "New Mexico", "Utah"),
    r"pacific\s+coast(?:\s+states)?|west\s+coast(?:\s+states)?": (
        "California",
        "Oregon",
        "Washington",
    ),
    r"pacific\s+northwest": ("Oregon", "Washington"),
    # the US Census Bureau's regions and divisions, and the states along a coast or the lakes
    r"(?:the\s+)?mid-?west(?:ern\s+states)?": _states(
        "Illinois|Indiana|Iowa|Kansas|Michigan|Minnesota|Missouri|Nebraska|North Dakota|Ohio|"
        "South Dakota|Wisconsin"
    ),
    r"the\s+(?:US\s+)?north-?east(?!\s+of)|north-?eastern\s+states": _states(
        "Connecticut|Maine|Massachusetts|New Hampshire|Rhode Island|Vermont|New Jersey|New York|"
        "Pennsylvania"
    ),
    r"mountain\s+(?:states|west)": _states(
        "Arizona|Colorado|Idaho|Montana|Nevada|New Mexico|Utah|Wyoming"
    ),
    r"gulf\s+coast(?:\s+states)?": _states("Texas|Louisiana|Mississippi|Alabama|Florida"),
    r"great\s+lakes\s+(?:states|region)": _states(
        "Illinois|Indiana|Michigan|Minnesota|New York|Ohio|Pennsylvania|Wisconsin"
    ),
    r"(?:the\s+)?south-?east(?:ern\s+states)?(?!\s+(?:of|asia))": _states(
        "Alabama|Florida|Georgia|Mississippi|North Carolina|South Carolina|Tennessee"
    ),
    r"(?:the\s+)?south-?west(?:ern\s+states)?(?!\s+of)": _states(
        "Arizona|New Mexico|Oklahoma|Texas"
    ),
    r"the\s+(?:US\s+)?south(?!\s*(?:-|china|atlantic|pacific|carolina|dakota|east|west))"
    r"|southern\s+states": _states(
        "Alabama|Arkansas|Delaware|District of Columbia|Florida|Georgia|Kentucky|Louisiana|"
        "Maryland|Mississippi|North Carolina|Oklahoma|South Carolina|Tennessee|Texas|Virginia|"
        "West Virginia"
    ),
    r"the\s+(?:US\s+)?west(?!\s*(?:-|coast|virginia))|western\s+states": _states(
        "Alaska|Arizona|California|Colorado|Hawaii|Idaho|Montana|Nevada|New Mexico|Oregon|Utah|"
        "Washington|Wyoming"
    ),
}
_WEEKEND = re.compile(r"\bweekends?\b|\bsaturdays?\s+or\s+sundays?\b", re.IGNORECASE)
_SEVERAL = r"(?:two|2)\s+or\s+more|more\s+than\s+(?:one|1)|multiple|several|at\s+least\s+(?:two|2)"
_SEVERAL_AIRCRAFT = re.compile(
    rf"\b(?:{_SEVERAL})\s+(?:aircraft|airplanes|planes|helicopters)|mid-?air\s+collisions?",
    re.IGNORECASE,
)
_PURPOSES = (
    ("INST", r"instruction(?:al)?|training|flight\s+school|dual\s+instruction|students?",
     "on instructional flights"),
    ("PERS", r"personal|private\s+(?:flights?|flying|use)|non-?commercial", "on personal flights"),
    ("AAPL", r"aerial\s+application|crop[- ]?dust\w*|agricultural|ag\s+flights?", "of aerial"
     " application flights"),
    ("SKYD", r"skydiv\w*|parachute\s+jump\w*|jump\s+planes?", "of skydiving flights"),
    ("BANT", r"banner[- ]tow\w*|towing\s+banners?", "of banner towing flights"),
    ("ASHO", r"air\s*shows?|aerobatic\s+(?:shows?|displays?)", "of air show flights"),
    ("EXLD", r"external[- ]loads?|sling\s+loads?|long[- ]line", "of external load flights"),
    ("FERY", r"ferry\s+flights?|ferry(?:ing)?\s+(?:an?\s+|the\s+)?(?:air)?planes?",
     "of ferry flights"),
)  # fmt: skip
_PART = re.compile(r"\bpart\s+(91|121|135|137)\b", re.IGNORECASE)
_PART_WORDS = (("121", r"airlines?|air\s+carriers?"), ("135", r"charters?|commuters?|air\s+taxi"))
_DESTROYED = re.compile(r"\bdestroy(?:ed|ing)?\b|\bwritten\s+off\b", re.IGNORECASE)
_NUMBER = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_WORDS |= {"eight": 8, "nine": 9, "ten": 10}
_AT_LEAST_KILLED = re.compile(
    rf"\b(?:killed|kill|with|had|left)\s+(?:at\s+least\s+{_NUMBER}|{_NUMBER}\s+or\s+more)"
    rf"\s+(?:people|persons|fatalities|deaths|dead|occupants)"
    rf"|\bat\s+least\s+{_NUMBER}\s+(?:people|persons|occupants)\s+(?:die|died|were\s+killed)"
    rf"|\b{_NUMBER}\s+or\s+more\s+(?:people\s+)?(?:died|were\s+killed|deaths|fatalities)",
    re.IGNORECASE,
)
_NO_INJURIES = re.compile(
    r"\b(?:no[\s-]?(?:one|body)|nobody)\s+(?:was\s+|got\s+|being\s+|getting\s+)?(?:hurt|injured)"
    r"|\bno\s+injur(?:y|ies)|\bwithout\s+(?:any\s+)?injur(?:y|ies)|\buninjured\b|\bunhurt\b"
    r"|\bwithout\s+any(?:one|body)\s+(?:being\s+|getting\s+)?(?:hurt|injured)",
    re.IGNORECASE,
)
#: Hurt badly, however said: "seriously injured", "badly hurt", "severe injuries".
HURT_BADLY = r"(?:serious(?:ly)?|bad(?:ly)?|severe(?:ly)?)\s+(?:injur\w*|hurt)"
#: Killed or hurt badly, either one: "killed or badly hurt", "seriously injured or killed".
_NEGATED = re.compile(
    r"\b(?:nobody|no\s+one|none|not|without\s+anyone)\s+(?:was\s+|were\s+)?$", re.I
)
_KILLED_OR_HURT = re.compile(
    rf"\b(?:killed|died|dead|fatal\w*)\s+or\s+(?:were\s+|was\s+|got\s+)?{HURT_BADLY}"
    rf"|\b{HURT_BADLY}\s+or\s+(?:were\s+|was\s+|got\s+)?(?:killed|died|dead)\b",
    re.IGNORECASE,
)
#: Nobody killed, however said: "non-fatal", "where no one died", "without fatalities".
_NOT_FATAL = re.compile(
    r"\bnon-?fatal\b|\b(?:no[\s-]?(?:one|body)|nobody)\s+(?:was\s+|were\s+|got\s+)?"
    r"(?:killed|died|dead)\b|\b(?:without|no)\s+(?:any\s+)?(?:fatalit(?:y|ies)|deaths?)\b|"
    r"\b(?:everyone|everybody|all\s+(?:occupants|aboard|on\s+board))\s+survived\b",
    re.IGNORECASE,
)
_MINOR_ONLY = re.compile(
    r"\bonly\s+minor\s+injur|\bworst\s+injury\s+(?:was\s+)?a\s+minor|\bminor\s+injuries\s+only",
    re.IGNORECASE,
)


def states_named(question: str, states: list[str]) -> tuple[str, ...]:
    """The states a question names, each once, in its order, and those of a region it names,
    unless the region's own states follow it in brackets ("the Southwest (Arizona, New
    Mexico)": those two) or the question names two or more of them elsewhere ("Mountain West
    question: in Idaho, Montana and Wyoming": the three it means)."""
    found = list(states)
    for pattern, members in REGIONS.items():
        match = re.search(rf"\b(?:{pattern})\b", question, re.IGNORECASE)
        bracket = re.match(r"\s*\(([^()]*)\)", question[match.end() :]) if match else None
        listed = bracket is not None and any(s.lower() in bracket[1].lower() for s in states)
        listed = listed or sum(s in members for s in states) >= 2
        if match and not listed:  # "New England (CT, ME, …)": postal codes list none by name
            found += [s for s in members if s not in found]
    return tuple(dict.fromkeys(found))


def air_fields(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    """``query`` narrowed by an NTSB question's season, day, aircraft count, flight, damage,
    injuries."""
    if found := months_named(question):
        query = replace(query, months=found[1])
        scope.append(found[0])
    if _WEEKEND.search(question):
        query = replace(query, weekend=True)
        scope.append("on a weekend")
    if _SEVERAL_AIRCRAFT.search(question):
        query = replace(query, min_aircraft=2)
        scope.append("involving more than one aircraft")
    for code, pattern, words in _PURPOSES:
        if re.search(rf"\b(?:{pattern})\b", question, re.IGNORECASE):
            query = replace(query, purpose=code)
            scope.append(words)
            break
    part = _PART.search(question)
    named = (
        part[1]
        if part
        else next(
            (p for p, pattern in _PART_WORDS if re.search(rf"\b(?:{pattern})\b", question, re.I)),
            "",
        )
    )
    if named and named != "137":
        query = replace(query, far_part=named)
        scope.append(f"under Part {named}")
    if _DESTROYED.search(question):
        query = replace(query, damage="destroyed")
        scope.append("with an aircraft destroyed")
    if m := _AT_LEAST_KILLED.search(question):
        number = next(g for g in m.groups() if g)
        k = int(number) if number.isdigit() else _WORDS[number.lower()]
        query = replace(query, min_fatalities=k)
        scope.append(f"with at least {k} killed")
    return query


def injury_outcome(question: str) -> str:
    """ "no_injuries", "minor_only", "fatal_or_serious", "not_fatal_or_serious" or "not_fatal"
    when the question asks for that level; "" otherwise."""
    if _NO_INJURIES.search(question):
        return "no_injuries"
    if _MINOR_ONLY.search(question):
        return "minor_only"  # "only minor injuries (nobody killed or seriously hurt)"
    if m := _KILLED_OR_HURT.search(question):  # "nobody killed or badly hurt": neither
        return (
            "not_fatal_or_serious" if _NEGATED.search(question[: m.start()]) else "fatal_or_serious"
        )
    if _NOT_FATAL.search(question):
        return "not_fatal"
    return ""


def model_pattern(model: str) -> str:
    """A pattern over a record's model (spaces and hyphens written "-") for a model a question
    names: "PA-28" matches "PA-28R-201" and "PA 28", "172" matches "172S", not "1720"."""
    m = re.fullmatch(r"([A-Za-z]{0,3})[\s-]?(\d{2,4})", model.strip())
    if m is None:
        raise ValueError(f"not a model designator: {model!r}")
    prefix = f"{m[1].upper()}-?" if m[1] else ""
    return f"^{prefix}{m[2]}(?![0-9])"


# --- IMO casualties -----------------------------------------------------------------------

_SEVERAL_SHIPS = re.compile(rf"\b(?:{_SEVERAL})\s+(?:ships|vessels)|\bmulti-?ship\b", re.IGNORECASE)
_TONNAGE = re.compile(
    r"\b(?:at\s+least|over|above|more\s+than)\s+(\d[\d,]*)\s*(?:gross\s+ton(?:nage|s)?|gt|grt)\b"
    r"|\b(\d[\d,]*)\s*(?:gross\s+ton(?:nage|s)?|gt|grt)\s+or\s+(?:more|above|larger)\b",
    re.IGNORECASE,
)
_DEAD = r"(?:d(?:ie|ied|ead)|killed|go(?:ne)?\s+missing|went\s+missing|missing|deaths?)"
_GROUPS = (("passengers", r"passengers?"), ("crew", r"crew(?:\s+members?)?|crewmen|seafarers"))


#: The kinds of tanker a question may name ("chemical tankers"), as patterns over type names.
_TANKER_KINDS = re.compile(
    r"\b(chemical|oil|crude(?:\s+oil)?|products?|gas|lpg|lng|asphalt|bitumen)\s+tankers?\b",
    re.IGNORECASE,
)
_KIND_WORDS = {"product": "product", "products": "product", "lpg": "lpg", "lng": "lng"}
_KIND_WORDS |= {"gas": "gas|lpg|lng", "crude": "crude", "crude oil": "crude"}


def sea_fields(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    """``query`` narrowed by an IMO question's kind of tanker, class society, ship count,
    tonnage, and the groups of people it asks dead or missing."""
    if query.vessel_families == ("tanker",) and (m := _TANKER_KINDS.search(question)):
        kind = " ".join(m[1].lower().split())
        query = replace(query, vessel_kind=_KIND_WORDS.get(kind, kind))
    if found := society_in(question):
        society, _ = found
        query = replace(query, class_society=society)
        scope.append(f"of ships classed by {society}")
    if _SEVERAL_SHIPS.search(question):
        query = replace(query, min_ships=2)
        scope.append("involving more than one ship")
    if m := _TONNAGE.search(question):
        tonnage = int((m[1] or m[2]).replace(",", ""))
        query = replace(query, min_tonnage=tonnage)
        scope.append(f"of ships of at least {tonnage:,} GT")
    groups = tuple(
        name
        for name, pattern in _GROUPS
        # the group and what befell it within a few words: "crew members die", "passengers or
        # crew died", not "the crew ... lost control"
        if re.search(rf"\b(?:{pattern})(?:\s+\w+){{0,3}}?\s+{_DEAD}\b", question, re.IGNORECASE)
    )
    if groups:
        query = replace(query, dead_missing=groups)
        scope.append(f"with {' or '.join(groups)} dead or missing")
    return query
