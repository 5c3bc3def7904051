"""Record filters in users' words: injury levels and kinds of flight, aircraft that crashed and
sea events counted, flags and places of ships, seasons, regions of states, and aircraft called by
a model's name."""

from __future__ import annotations

import pytest

from answers.counting import count_plan
from answers.patterns import PatternPlan, pattern_plan


def _pattern(question: str) -> PatternPlan:
    plan = pattern_plan(question)
    assert plan is not None, question
    return plan


@pytest.mark.parametrize(
    ("question", "outcomes", "purpose"),
    [
        ("Accidents where no one died in 2014: typical causes?", ("not_fatal",), ""),
        ("Non-fatal Cessna accidents: main causes?", ("not_fatal",), ""),
        ("Helicopter crashes without fatalities: what usually goes wrong?", ("not_fatal",), ""),
        ("Fatal accidents in Texas: common causes?", ("fatal",), ""),
        ("What usually goes wrong on skydiving flights?", (), "SKYD"),
        ("Banner towing accidents: what usually goes wrong?", (), "BANT"),
        ("What typically causes accidents at air shows?", (), "ASHO"),
        ("Helicopters carrying external loads: why do they crash?", (), "EXLD"),
    ],
)
def test_injury_levels_and_kinds_of_flight_in_users_words(
    question: str, outcomes: tuple[str, ...], purpose: str
) -> None:
    query = _pattern(question).plan.query
    assert (query.outcomes, query.purpose) == (outcomes, purpose), question


@pytest.mark.parametrize(
    ("question", "kind", "fields"),
    [
        ("How many Cessnas crashed in Texas in 2012?", "ntsb_report", {"make": "CESSNA"}),
        ("How many helicopters crashed in Alaska?", "ntsb_report", {"category": "HELI"}),
        ("How many collisions were recorded in the English Channel?", "casualty", {}),
        ("How many ferry fires were there?", "casualty", {"initial_event": "fire"}),
        ("How many mid-air collisions were there in 2012?", "ntsb_report", {"min_aircraft": 2}),
    ],
)
def test_a_count_of_aircraft_that_crashed_or_of_events_counts_records(
    question: str, kind: str, fields: dict[str, object]
) -> None:
    plan = count_plan(question)
    assert plan is not None, question
    assert plan.query.kind == kind, question
    assert {k: getattr(plan.query, k) for k in fields} == fields, question


@pytest.mark.parametrize(
    ("question", "fields"),
    [
        ("Liberian tankers: what are the main causes of casualties?", {"flag": "LBR"}),
        ("What goes wrong on Japanese fishing vessels?", {"flag": "JPN"}),
        ("What usually goes wrong in the Strait of Malacca?", {"area": "malacca"}),
        ("What usually goes wrong for ships near Singapore?", {"area": "singapore"}),
        ("Casualties off the coast of China: what usually starts them?", {"area": "china"}),
        ("What goes wrong for ships in the North Atlantic?", {"area": r"north\s+atlantic"}),
        ("What usually causes ships to sink?", {"outcomes": ("total_loss",)}),
        (
            "Ships in the South China Sea: what goes wrong?",
            {"flag": "", "area": r"south\s+china\s+sea"},
        ),
    ],
)
def test_flags_and_places_in_users_words(question: str, fields: dict[str, object]) -> None:
    query = _pattern(question).plan.query
    assert query.kind == "casualty", question
    assert {k: getattr(query, k) for k in fields} == fields, question


def test_the_set_names_its_ships_in_the_plural() -> None:
    pattern = _pattern("When a tanker runs aground, how bad does it usually get?")
    assert pattern.plan.scope.startswith("of tankers and related types"), pattern.plan.scope
    plan = count_plan("How many ferry casualties were there in 2005?")
    assert plan is not None and "of ferries" in plan.scope, plan


@pytest.mark.parametrize(
    ("question", "months"),
    [
        ("What tends to cause accidents in Alaska in winter?", (12, 1, 2)),
        ("Winter accidents in Alaska: usual causes?", (12, 1, 2)),
        ("What usually goes wrong with Robinson helicopters in the fall?", (9, 10, 11)),
        ("What usually goes wrong on summer flights in Arizona?", (6, 7, 8)),
    ],
)
def test_a_season_is_its_months_of_every_year(question: str, months: tuple[int, ...]) -> None:
    assert _pattern(question).plan.query.months == months, question


def test_last_spring_is_no_season_of_every_year() -> None:
    plan = count_plan("How many accidents happened last spring?")
    assert plan is None or plan.query.months == ()


@pytest.mark.parametrize(
    ("question", "states"),
    [
        ("Fatal crashes in the Southwest: usual causes?", {"Arizona", "Texas"}),
        ("Accidents in the South in 2012: common causes?", {"Georgia", "Virginia"}),
        ("Southwest (Arizona, New Mexico) accidents: typical causes?", {"Arizona", "New Mexico"}),
        ("Accidents on the West Coast: usual causes?", {"California", "Oregon"}),
    ],
)
def test_regions_in_users_words_are_their_states(question: str, states: set[str]) -> None:
    query = _pattern(question).plan.query
    assert states <= set(query.regions), question
    if "(" in question:  # the states in brackets are the region's
        assert set(query.regions) == states, question


def test_a_region_with_its_states_named_is_those_states() -> None:
    query = _pattern("Mountain states, namely Colorado and Utah: usual causes?").plan.query
    assert set(query.regions) == {"Colorado", "Utah"}


def test_west_virginia_is_one_state() -> None:
    query = _pattern("Accidents in West Virginia: usual causes?").plan.query
    assert (query.region, query.regions) == ("West Virginia", ())


@pytest.mark.parametrize(
    ("question", "make", "model"),
    [
        ("Why do Bonanzas crash?", "BEECH", "^(?:[A-Z]-?)?3[356](?![0-9])"),
        ("What usually goes wrong on Super Cubs?", "PIPER", "^PA-?18(?![0-9])"),
        ("How many Skyhawks crashed in 2012?", "CESSNA", "^172(?![0-9])"),
        ("Why do Cessnas crash?", "CESSNA", ""),
    ],
)
def test_aircraft_called_by_a_models_name_are_that_make_and_model(
    question: str, make: str, model: str
) -> None:
    plan = pattern_plan(question) or count_plan(question)
    assert plan is not None, question
    query = plan.plan.query if isinstance(plan, PatternPlan) else plan.query
    assert query.make.startswith(make) and query.model == model, question


@pytest.mark.parametrize(
    "question",
    ["What caused the Cessna crash?", "Why did the Bonanza crash?", "Oil barons: usual causes?"],
)
def test_one_aircraft_or_a_lower_case_word_is_no_kind(question: str) -> None:
    plan = pattern_plan(question)
    assert plan is None or plan.plan.query.model == "", question


@pytest.mark.parametrize(
    ("question", "outcomes"),
    [
        ("Crashes where someone got hurt: usual causes?", ("injured",)),
        ("Accidents where nobody got hurt: usual causes?", ("no_injuries",)),
        ("Accidents where people were badly hurt: usual causes?", ("serious",)),
    ],
)
def test_hurt_is_injured(question: str, outcomes: tuple[str, ...]) -> None:
    assert _pattern(question).plan.query.outcomes == outcomes, question
