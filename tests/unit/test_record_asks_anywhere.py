"""Count and pattern questions in the order users write them: the records first and the "how
many" last, a field named with no record noun, a span of months with no "from"."""

from __future__ import annotations

from datetime import date

import pytest

from answers.count_asks import head_first
from answers.count_filters import period_in
from answers.counting import count_plan
from answers.patterns import pattern_plan
from answers.seasons import months_named


@pytest.mark.parametrize(
    ("question", "kind", "fields"),
    [
        ("Cessnas in Texas - how many accidents?", "ntsb_report", {"region": "Texas"}),
        ("Kansas, 2012 to 2013: number of crashes?", "ntsb_report", {"region": "Kansas"}),
        (
            "Collisions of Panama-flagged ships: how many are on record?",
            "casualty",
            {"flag": "PAN"},
        ),
        ("Tally of accidents in Utah in 2014?", "ntsb_report", {"region": "Utah"}),
        ("what's the total number of 2012 events in the data?", "ntsb_report", {}),
    ],
)
def test_a_count_asked_after_its_records_is_counted(
    question: str, kind: str, fields: dict[str, str]
) -> None:
    plan = count_plan(question)
    assert plan is not None
    assert plan.query.kind == kind
    for name, value in fields.items():
        assert getattr(plan.query, name) == value


@pytest.mark.parametrize(
    "question",
    [
        "What caused the crash in Texas, how many people died?",
        "The B210 drops samples - how many buffers should I use?",
        "Paris, France: how many people live there?",
    ],
)
def test_a_clause_that_asks_or_names_no_records_is_no_count(question: str) -> None:
    assert count_plan(question) is None


def test_the_asking_clause_is_moved_first_both_ways() -> None:
    assert head_first("Groundings in 2014 - how many are recorded?") == [
        "how many are recorded Groundings in 2014",
        "how many Groundings in 2014 are recorded",
    ]
    assert head_first("How many accidents in Ohio?") == []


@pytest.mark.parametrize(
    ("question", "field", "value"),
    [
        ("Glider clubs in Nevada: what usually goes wrong?", "region", "Nevada"),
        ("Give me the usual causes for Oregon between 2011 and 2012.", "region", "Oregon"),
    ],
)
def test_a_pattern_naming_a_field_and_no_record_noun_is_a_record_pattern(
    question: str, field: str, value: str
) -> None:
    plan = pattern_plan(question)
    assert plan is not None
    assert getattr(plan.plan.query, field) == value


def test_a_pattern_question_with_no_field_and_no_records_is_not_one() -> None:
    assert pattern_plan("What usually goes wrong when I build UHD from source?") is None


@pytest.mark.parametrize(
    ("words", "first", "last"),
    [
        ("accidents from June to August 2013", date(2013, 6, 1), date(2013, 8, 31)),
        ("Alaska, June to August 2013: how many?", date(2013, 6, 1), date(2013, 8, 31)),
        ("Oct-Dec 2013 accidents", date(2013, 10, 1), date(2013, 12, 31)),
        ("between February and April 2014", date(2014, 2, 1), date(2014, 4, 30)),
    ],
)
def test_a_span_of_months_in_a_year_is_the_whole_span(words: str, first: date, last: date) -> None:
    found = period_in(words)
    assert found is not None
    assert found[:2] == (first, last)


def test_two_months_joined_by_and_are_not_a_span() -> None:
    found = period_in("in June and August 2013")
    assert found is not None
    assert found[0] != date(2013, 6, 1) or found[1] != date(2013, 8, 31)


def test_ferry_flights_are_a_purpose_and_ships_lost_entirely_a_total_loss() -> None:
    ferry = count_plan("How many accidents happened on ferry flights?")
    assert ferry is not None and ferry.query.purpose == "FERY"
    lost = count_plan("How many ships flagged in Greece were lost completely?")
    assert lost is not None and "total_loss" in lost.query.outcomes


@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("Over 2014, when a helicopter was destroyed, what had typically led to it?", "cause"),
        ("Break down the causes of fatal accidents in Ohio.", "cause"),
        ("After a collision, what usually becomes of the ship?", "outcome"),
        ("What typically goes wrong on approach?", "cause"),
        ("Ships under the Maltese flag: what are the usual first events?", "cause"),
    ],
)
def test_users_ways_of_asking_for_a_pattern(question: str, about: str) -> None:
    plan = pattern_plan(question)
    assert plan is not None
    assert plan.about == about


def test_the_kinds_a_taic_set_holds_are_its_pattern() -> None:
    plan = pattern_plan("Marine occurrences TAIC looked at in 2015: common kinds?")
    assert plan is not None and plan.plan.query.mode == "marine"
    about = pattern_plan("TAIC's aviation inquiries in 2019: what were they mostly about?")
    assert about is not None and about.plan.query.mode == "aviation"


@pytest.mark.parametrize(
    "question",
    [
        "Why did the engine break down on the last flight?",
        "common causes of landing gear collapse",
    ],
)
def test_a_part_or_a_breakdown_of_a_machine_is_no_record_pattern(question: str) -> None:
    assert pattern_plan(question) is None


@pytest.mark.parametrize(
    ("question", "months"),
    [
        ("Minnesota, november to january: what usually goes wrong?", (11, 12, 1)),
        ("Texas (Jun, Jul, Aug) accidents: the usual causes?", (6, 7, 8)),
        ("Common causes of accidents in Ohio in winter?", (12, 1, 2)),
    ],
)
def test_months_of_every_year_narrow_the_set(question: str, months: tuple[int, ...]) -> None:
    plan = pattern_plan(question)
    assert plan is not None
    assert plan.plan.query.months == months


def test_months_with_a_year_or_one_word_twice_are_no_months_of_every_year() -> None:
    assert months_named("accidents from June, July and August 2013") is None
    assert months_named("it may, or may not, be the cause") is None


def test_a_region_with_postal_codes_in_brackets_keeps_its_states() -> None:
    plan = pattern_plan("New England (CT, ME, MA, NH, RI, VT): what usually goes wrong there?")
    assert plan is not None
    assert "Vermont" in plan.plan.query.regions and "Maine" in plan.plan.query.regions


def test_casualties_rated_less_serious_are_that_severity() -> None:
    plan = pattern_plan("Of the casualties rated less serious, what usually happened?")
    assert plan is not None and plan.plan.query.severity == "less serious"
