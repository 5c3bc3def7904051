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

from answers.aircraft_makes import make_filters, names_make
from answers.count_asks import head_first
from answers.count_filters import (
    HURT_BADLY,
    air_fields,
    injury_outcome,
    period_in,
    sea_fields,
    states_named,
    years_listed,
)
from answers.flags import country_name, flags_in
from answers.related_types import related_line
from answers.sea_areas import area_in, place_in, without_areas
from answers.sea_events import EVENT_RECORDS, initial_event
from archive.store.counts import RecordCount, RecordQuery
from archive.store.passages import Passage
from archive.vessel_types import families_in, own_words, type_words
from text.patterns import LazyPattern
from text.words import content_stems, tokens

_ASKS_COUNT = re.compile(
    r"^\s*(?:(?:and|so|also|ok|okay),?\s+)?"
    # a leading clause that sets the period, place or type: "Since 2014, ", "For tankers, "
    r"(?:(?:in|since|from|between|during|for|over|among|of)\s[^,?]{1,80},\s*)?"
    r"(?:in\s+)?(?:how\s+many|what(?:\s+(?:is|was)|'s)\s+the\s+(?:total\s+)?number\s+of|"
    r"(?:the\s+)?(?:total\s+)?number\s+of|tally(?:\s+of)?|count(?:\s+(?:of|the))?)\b",
    re.IGNORECASE,
)
# What is counted: the record nouns, after at most four qualifying words ("fatal helicopter").
_AVIATION = (
    r"(?:aviation\s+|aircraft\s+|airplane\s+|plane\s+|air\s+)?"
    r"(?:accidents?|crash(?:es)?|incidents?|mishaps?)"
)
_MARITIME = r"(?:marine\s+|maritime\s+)?(?:casualt(?:y|ies)|shipwrecks?|ships|vessels|wrecks?)"
_RECORD = LazyPattern(
    rf"^(?:[\w'/-]+\s+){{0,4}}?(?:(?P<air>{_AVIATION})|(?P<sea>{_MARITIME})|"
    # "how many personal flights ended in a fatal accident?"
    r"(?P<flights>flights(?=.*\b(?:accidents?|crash(?:es)?)\b))|"
    # "how many Cessnas crashed", "how many ferry fires", "how many collisions were recorded"
    r"(?P<craft>\w+s(?=\s+(?:\w+\s+)?crash(?:ed|es)?\b))|"
    r"(?P<event>collisions|groundings|strandings|fires|explosions|sinkings|capsizings)|"
    # "how many events in 2015": records of either kind, the other words say which
    r"(?P<records>events|occurrences|records)|"
    r"(?P<ntsb>ntsb\s+(?:records?|reports?))|(?P<imo>imo\s+(?:records?|casualt(?:y|ies))))\b",
    re.IGNORECASE,
)
_TOTAL_LOSS = LazyPattern(r"total\s+loss|totally\s+lost", re.IGNORECASE)
_REMARK = LazyPattern(r"\s*\([^()]*\)\s*")
_SEA_WORDS = LazyPattern(
    r"\b(?:ships?|vessels?|flag(?:ged|s)?|imo|casualt(?:y|ies)|maritime|marine|tankers?|"
    r"carriers?|trawlers?|ferr(?:y|ies)|tugs?|yachts?|sea)\b",
    re.IGNORECASE,
)

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
_STATE = LazyPattern(
    r"\b(" + "|".join(sorted(map(re.escape, US_STATES), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
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
    # the weather a pilot flies by instruments or by sight in, however a user calls it
    (
        "IMC",
        r"\bimc\b|instrument\s+(?:meteorological\s+|weather\s+)?conditions|instrument\s+weather"
        r"|ifr\s+(?:weather|conditions)",
    ),
    (
        "VMC",
        r"\bvmc\b|visual\s+(?:meteorological\s+|weather\s+)?conditions|vfr\s+(?:weather|conditions)",
    ),
)
_AIR_OUTCOMES = (
    ("fatal", r"fatal|fatalit(?:y|ies)|deadly|killed|deaths?|died|lethal"),
    ("serious", HURT_BADLY),
    ("injured", r"injur|\bhurt\b"),
)
_SEA_OUTCOMES = (
    # the people dead or missing the record counts: "led to deaths or missing people"
    (
        "dead_or_missing",
        r"deaths?\s+or\s+(?:missing|disappearances)|dead\s+or\s+missing"
        r"|died\s+or\s+(?:went|gone)\s+missing",
    ),
    (
        "loss_of_life",
        r"loss\s+of\s+life|lives\s+lost|cost\s+(?:\w+\s+)?lives|fatal|fatalit|deaths?|died|killed|deadly",
    ),
    (
        "total_loss",
        r"total\s+loss|totally\s+lost|sank|sunk|sinking|to\s+sink"
        r"|lost\s+(?:entirely|completely|altogether)|(?:entirely|completely|wholly)\s+lost",
    ),
    ("pollution", r"pollut|oil\s+spill"),
    ("injured", r"injur"),
)
_CLASSIFIED = LazyPattern(
    r"\b(?:(?:classified|categori[sz]ed|rated|graded)(?:\s+as)?|were|was)\s+"
    r"(very\s+serious|less\s+serious|serious)\b(?!\s+injur)",
    re.IGNORECASE,
)
_SEVERITY = LazyPattern(r"\b(very\s+serious|less\s+serious|serious)\s+(?:marine\s+)?casualt", re.I)


@dataclass(frozen=True)
class CountPlan:
    """What a count question asks: the records' query and how to name its parts."""

    query: RecordQuery
    noun: str  # "accident records" | "casualty records"
    scope: str  # "in Texas from 2011" ("" when the whole kind is counted)
    outcome: str  # "fatal" ("" when the question asks no outcome)


#: Words that say what an aircraft is (its category), not what went wrong.
_AIRCRAFT = LazyPattern(
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
    counted = _counted(question)
    if counted is None:
        return None
    sea = bool(counted["sea"] or counted["imo"]) or (
        not (counted["ntsb"] or counted["air"] or counted["flights"] or counted["craft"])
        and bool(
            _SEA_WORDS.search(question) or (counted["event"] and not _aviation_words(question))
        )
    )
    if counted["air"] and _SEA_WORDS.search(question) and not _aviation_words(question):
        sea = True  # "How many accidents involved ships flagged in Panama?"
    return plan_for(question, sea=sea)


def _counted(question: str) -> re.Match[str] | None:
    """The records a count question counts, read after its "how many", wherever the question
    says it (:func:`answers.count_asks.head_first`)."""
    for reading in (question, *head_first(question)):
        head = _ASKS_COUNT.match(reading)
        if head is None:
            continue
        # a remark in brackets qualifies, it is not one of the words before the noun: "charter
        # or commuter (Part 135) accidents"
        counted = _RECORD.match(_REMARK.sub(" ", reading[head.end() :]).lstrip())
        if counted is not None:
            return counted
    return None


def plan_for(question: str, *, sea: bool) -> CountPlan:
    """The records a question's words select among IMO casualties (``sea``) or NTSB records."""
    query = RecordQuery(kind="casualty" if sea else "ntsb_report")
    scope: list[str] = []
    query, years = dated(question, query)
    query = _sea_filters(question, query, scope) if sea else _air_filters(question, query, scope)
    outcomes = _SEA_OUTCOMES if sea else _AIR_OUTCOMES
    found = [name for name, pattern in outcomes if re.search(pattern, question, re.IGNORECASE)]
    if "serious" in found or "fatal" in found:
        found = [o for o in found if o != "injured"]
    if level := ("" if sea else injury_outcome(question)):
        found = [level]  # "only minor injuries (nobody killed or seriously hurt)"
    if query.min_fatalities:
        found = [o for o in found if o != "fatal"]  # "killed 2 or more people": the set says it
    if "dead_or_missing" in found:  # it says loss of life too
        found = [o for o in found if o != "loss_of_life"]
    if query.initial_event == EVENT_RECORDS["sinking or foundering"] and not _TOTAL_LOSS.search(
        question
    ):  # "began with sinking": the event, not the loss of the ship
        found = [o for o in found if o != "total_loss"]
    if query.dead_missing:  # "passengers dead or missing": the set says it
        found = [o for o in found if o not in ("dead_or_missing", "loss_of_life")]
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
    "fatal_or_serious": "with someone killed or seriously injured",
    "not_fatal_or_serious": "with nobody killed or seriously injured",
    "not_fatal": "with nobody killed",
    "no_injuries": "without injuries",
    "minor_only": "with only minor injuries",
    "injured": "with injuries",
    "loss_of_life": "with loss of life",
    "dead_or_missing": "with someone dead or missing",
    "total_loss": "with the total loss of the ship",
    "pollution": "with pollution",
}


_AIR_WORDS = LazyPattern(
    r"\b(?:aircraft|airplanes?|(?:sea|float)?-?planes?|helicopters?|pilots?|flights?|mid-?air)\b",
    re.IGNORECASE,
)


def _aviation_words(question: str) -> bool:
    return bool(_AIR_WORDS.search(question) or names_make(question))


def names_aircraft(question: str) -> bool:
    """Whether ``question`` names aircraft or pilots (a category included: "gliders")."""
    return bool(_AIR_WORDS.search(question) or _AIRCRAFT.search(question))


def dated(question: str, query: RecordQuery) -> tuple[RecordQuery, str]:
    """``query`` narrowed to the period a question names, or to the years it lists with gaps
    between them ("in 2010 and 2013"), with the words that say so; unchanged when it names no
    date."""
    found = period_in(question)
    if found is None and (years := years_listed(question)):
        words = "in " + ", ".join(map(str, years[:-1])) + f" and {years[-1]}"
        found = (date(years[0], 1, 1), date(years[-1], 12, 31), words)
        query = replace(query, years=years)
    if found is None:
        return query, ""
    start, end, words = found
    return replace(query, date_from=start, date_to=end), words


def _air_filters(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    named = [next(s for s in US_STATES if s.lower() == m.lower()) for m in _STATE.findall(question)]
    states = states_named(question, named)
    if len(states) == 1:
        query = replace(query, region=states[0])
    elif states:
        query = replace(query, regions=states)
    if states:
        scope.append("in " + " or ".join(states))
    query = make_filters(question, query, scope)
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
    return air_fields(question, query, scope)


def _sea_filters(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    if area := area_in(question):
        query = replace(query, area=area[1])
        scope.append(f"in {area[0]}")
    elif place := place_in(question):
        query = replace(query, area=place[1])
        scope.append(place[0])
    codes = flags_in(without_areas(question))
    if len(codes) == 1:
        query = replace(query, flag=codes[0])
    elif codes:
        query = replace(query, flags_any=codes)
    if codes:
        names = " or ".join(country_name(c) for c in codes)
        scope.append(f"involving a ship flagged in {names}")
    if found := families_in(question):
        families, words = found
        query = replace(query, vessel_families=families, vessel_named=own_words(families))
        scope.append(f"of {plural(words)}")
    if m := _SEVERITY.search(question) or _CLASSIFIED.search(question):
        severity = " ".join(m[1].lower().split())
        query = replace(query, severity=severity)
        scope.append(f"classed {severity}")
    if named := initial_event(question):
        event, recorded = named
        query = replace(query, initial_event=recorded)
        scope.append(f"whose initial event was {event}")
    return sea_fields(question, query, scope)


def plural(words: str) -> str:
    """Ship words as the set names them, in the plural ("a tanker": "tankers", "ferry":
    "ferries")."""
    if words.lower().endswith("s"):
        return words
    return words[:-1] + "ies" if words.lower().endswith("y") else words + "s"


def _records(n: int, noun: str) -> str:
    """``n`` records, in the singular for one ("1 accident record")."""
    return f"{n:,} {noun[:-1] if n == 1 else noun}"


def compose_count(plan: CountPlan, count: RecordCount, cite: list[Passage]) -> str:
    """The answer: the count first, the set it was taken among, then cited examples."""
    markers = "".join(f"[C:{p['chunk_id']}]" for p in cite)
    among = f"the {_records(count.scope, plan.noun)}" + (f" {plan.scope}" if plan.scope else "")
    one = count.matched == 1
    if plan.outcome:
        lead = f"{count.matched:,} of {among} in the archive {'was' if one else 'were'}"
        lead += f" {plan.outcome}, counted over every one {markers}."
    else:
        lead = _records(count.matched, plan.noun) + (f" {plan.scope}" if plan.scope else "")
        lead += f" {'is' if one else 'are'} in the archive {markers}."
    lines = [lead.replace(" .", ".")]
    if count.related:
        lines.append(related_line(plan.noun, count.related))
    if cite:
        label = "For example" if count.matched else "Records of that set"
        lines.append(f"{label}:")
        lines += [f"- {p['title']} [C:{p['chunk_id']}]" for p in cite]
    return "\n".join(lines)
