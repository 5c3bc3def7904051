"""The aircraft a question names by make ("Cessna", "Cessnas", "Hawker Beechcraft"), by make
and model ("Piper PA-28", "Cessna 172s") or by a model's name ("Bonanzas"), as the records'
make and model fields hold them."""

from __future__ import annotations

import re
from dataclasses import replace

from answers.aircraft_names import named_model, plural_model
from answers.count_filters import model_pattern
from archive.store.counts import RecordQuery
from text.patterns import LazyPattern

#: Aircraft makes a question may name: the first words of the records' make field.
MAKES = (  # noqa: SIM905
    "Cessna Piper Beech Beechcraft Bell Boeing Airbus Robinson Mooney Schweizer Cirrus Bellanca "
    "Maule Aeronca Hughes Luscombe Eurocopter Diamond Champion Aviat Grumman Stinson Taylorcraft "
    "Ercoupe Embraer Bombardier Sikorsky Enstrom Agusta Lake Socata Pilatus Mitsubishi Learjet "
    "Dassault Gulfstream Hawker Ryan Waco Schleicher Rans Kitfox Vans Globe Navion Douglas "
    "Rockwell Ayres Hiller Aerospatiale Fairchild Raytheon Quicksilver Piaggio"
).split() + ["Air Tractor", "North American", "Aero Commander", "de Havilland", "Dehavilland"]
# "Cessnas", "Piper's": a make in the plural or possessive is the make ("Great Lakes" no Lake)
_MAKE = LazyPattern(
    r"\b(" + "|".join(sorted(MAKES, key=len, reverse=True)) + r")(?:(?<!s)(?<!lake)'?s)?\b",
    re.I,
)
#: The makes' other spellings in the records (renamed companies): a pattern over the first words.
MAKE_SPELLING = {
    "BEECH": "BEECH|BEECHCRAFT|HAWKER BEECHCRAFT|HAWKER-BEECHCRAFT",
    "BEECHCRAFT": "BEECH|BEECHCRAFT|HAWKER BEECHCRAFT|HAWKER-BEECHCRAFT",
    "PIPER": "PIPER|NEW PIPER",
    "DE HAVILLAND": "DEHAVILLAND|DE HAVILLAND",
    "DEHAVILLAND": "DEHAVILLAND|DE HAVILLAND",
}
# A model designator right after the make ("Cessna 172", "Piper PA-28", "Robinson R44"); a year
# is none ("Cessna 2011", "Cessna in 2012").
# "Cessna 172s": the model in the plural
_MODEL = LazyPattern(r"\s+(?![A-Z]{0,3}[\s-]?(?:19|20)\d\d\b)([A-Z]{0,3}[\s-]?\d{2,4})(?:'?s)?\b")


def names_make(question: str) -> bool:
    """Whether ``question`` names an aircraft make or a model by its name ("Cirrus", "Cessnas",
    "Bonanzas")."""
    return bool(_MAKE.search(question) or named_model(question))


def make_filters(question: str, query: RecordQuery, scope: list[str]) -> RecordQuery:
    """``query`` narrowed to the make a question names and the model after it ("Piper PA-28"),
    or to the model it calls by name ("Bonanzas")."""
    words = ""
    if m := _MAKE.search(question):
        make = " ".join(m[1].upper().split())
        query = replace(query, make=MAKE_SPELLING.get(make, make))
        words = m[1].title()
        if model := _MODEL.match(question[m.end() :]):
            query = replace(query, model=model_pattern(model[1]))
            words += f" {model[1]}"
    if not query.model and (named := named_model(question)):
        query = replace(query, make=named[0], model=named[1])
        words = named[2]
    if words:
        scope.append(f"of {words} aircraft")
    return query


def names_kinds_of_aircraft(question: str) -> bool:
    """Whether ``question`` names aircraft of a make or model in the plural ("Cessnas",
    "Bonanzas", "Piper Cubs"): a set of records, not one."""
    m = _MAKE.search(question)
    if m and m[0].lower().endswith("s") and not m[1].lower().endswith("s"):
        return True
    return plural_model(question)
