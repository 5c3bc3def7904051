"""Count questions' filters beyond kind, place and type: periods, "or" lists, regions, days,
kinds of flight, damage, injury levels, models, flags, class, tonnage, the dead or missing."""

from __future__ import annotations

import re
from datetime import date

import pytest

from answers.count_filters import model_pattern, period_in
from answers.counting import CountPlan, count_plan
from answers.flags import flags_in
from archive.store.counts import RecordCount, RecordQuery
from graph.nodes.count_records import count_records


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("in February 2003", date(2003, 2, 1), date(2003, 2, 28)),
        ("in Feb. 2004", date(2004, 2, 1), date(2004, 2, 29)),
        ("between February and April 2014", date(2014, 2, 1), date(2014, 4, 30)),
        ("in the first half of 2012", date(2012, 1, 1), date(2012, 6, 30)),
        ("in the second half of 2014", date(2014, 7, 1), date(2014, 12, 31)),
        ("in the third quarter of 2013", date(2013, 7, 1), date(2013, 9, 30)),
        ("in Q1 2011", date(2011, 1, 1), date(2011, 3, 31)),
        ("in the 2000s", date(2000, 1, 1), date(2009, 12, 31)),
        ("in the 1990s", date(1990, 1, 1), date(1999, 12, 31)),
        ("between 2010 and 2014", date(2010, 1, 1), date(2014, 12, 31)),
        ("from 2013 through 2015", date(2013, 1, 1), date(2015, 12, 31)),
        ("since 2014", date(2014, 1, 1), None),
        ("in 2009 or later", date(2009, 1, 1), None),
        ("before 2005", None, date(2004, 12, 31)),
        ("in 2011", date(2011, 1, 1), date(2011, 12, 31)),
    ],
)
def test_a_period_is_read_to_its_days(text: str, first: date | None, last: date | None) -> None:
    found = period_in(f"How many accidents happened {text}?")
    assert found is not None and found[:2] == (first, last), found


def test_no_period_is_read_from_a_question_without_one() -> None:
    assert period_in("How many fatal accidents involved a Cessna 172?") is None


def _plan(question: str) -> CountPlan:
    plan = count_plan(question)
    assert plan is not None, question
    return plan


@pytest.mark.parametrize(
    "question",
    [
        "Since 2014, how many Cessna accidents involved at least one fatality?",
        "In Minnesota, how many accidents happened in IMC?",
        "For chemical tankers, how many casualties had a fire as the first event?",
        "What's the number of Robinson R44 accidents from 2014 to 2015?",
        "In how many accidents from 2010 to 2012 did at least 3 people die?",
        "Between 2010 and 2013, how many charter or commuter (Part 135) accidents were fatal?",
        "In 2012, how many personal (private, non-commercial) flights ended in a fatal accident?",
    ],
)
def test_a_leading_clause_or_a_remark_does_not_hide_a_count(question: str) -> None:
    _plan(question)


def test_states_joined_by_or_and_regions_are_any_of_them() -> None:
    q = _plan("How many accidents happened in Arkansas or Indiana in 2012?").query
    assert (q.region, q.regions) == ("", ("Arkansas", "Indiana"))
    q = _plan("How many accidents were there in New England between 2011 and 2013?").query
    assert set(q.regions) == {
        "Connecticut",
        "Maine",
        "Massachusetts",
        "New Hampshire",
        "Rhode Island",
        "Vermont",
    }
    q = _plan("How many accidents were there in the Carolinas in 2012?").query
    assert q.regions == ("North Carolina", "South Carolina")
    q = _plan("How many accidents were there in the Pacific Northwest in 2012?").query
    assert q.regions == ("Oregon", "Washington")
    assert _plan("How many accidents in Texas in 2011?").query.region == "Texas"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How many accidents in Washington happened on a weekend in 2011?", {"weekend": True}),
        ("How many accidents with more than one aircraft happened in 2014?", {"min_aircraft": 2}),
        ("How many accidents in 2013 involved two or more aircraft?", {"min_aircraft": 2}),
        ("How many accidents on instructional flights happened in 2011?", {"purpose": "INST"}),
        ("How many training-flight accidents were there in Ohio?", {"purpose": "INST"}),
        ("How many crop-dusting accidents happened in Iowa?", {"purpose": "AAPL"}),
        ("How many Part 121 (airline) accidents happened in 2012?", {"far_part": "121"}),
        ("How many accidents in 2010 left an aircraft destroyed?", {"damage": "destroyed"}),
        ("How many accidents killed 3 or more people in 2012?", {"min_fatalities": 3}),
        ("In how many accidents in 2012 did at least two people die?", {"min_fatalities": 2}),
    ],
)
def test_an_aviation_question_reads_its_fields(question: str, expected: dict[str, object]) -> None:
    q = _plan(question).query
    assert {k: getattr(q, k) for k in expected} == expected
    assert "fatal" not in q.outcomes  # "killed 3 or more" is the set, not an outcome asked


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("How many airplane accidents in Georgia in 2014 ended with no one hurt?", "no_injuries"),
        ("How many accidents in Ohio caused no injuries at all?", "no_injuries"),
        (
            "How many accidents in Ohio had only minor injuries (nobody killed or seriously hurt)?",
            "minor_only",
        ),
        ("In how many Ohio accidents was the worst injury a minor one?", "minor_only"),
    ],
)
def test_an_injury_level_is_the_outcome_alone(question: str, outcome: str) -> None:
    assert _plan(question).query.outcomes == (outcome,)


@pytest.mark.parametrize(
    ("model", "matches", "misses"),
    [
        ("172", ["172", "172S", "172RG"], ["1720", "T182", "R172K"]),
        ("PA-28", ["PA-28-181", "PA-28R-201", "PA28"], ["PA-18", "PA-280"]),
        ("R44", ["R44", "R44-II", "R-44"], ["R22"]),
    ],
)
def test_a_model_matches_its_spellings_not_its_neighbours(
    model: str, matches: list[str], misses: list[str]
) -> None:
    pattern = model_pattern(model)
    assert all(re.search(pattern, m) for m in matches), pattern
    assert not any(re.search(pattern, m) for m in misses), pattern


def test_a_model_follows_its_make_and_a_year_is_no_model() -> None:
    q = _plan("In Michigan, how many accidents involved a Bell 206?").query
    assert (q.make, q.model) == ("BELL", "^206(?![0-9])")
    q = _plan("How many Piper PA-28 accidents occurred in Texas?").query
    assert (q.make, q.model) == ("PIPER|NEW PIPER", "^PA-?28(?![0-9])")
    assert _plan("How many Cessna accidents in 2011 were fatal?").query.model == ""
    assert _plan("How many accidents involving Cessna in 2012 were fatal?").query.model == ""
    assert _plan("How many Cessna 2011 accidents were fatal?").query.model == ""
    q = _plan("How many Beechcraft accidents were there in 2012?").query
    assert "HAWKER BEECHCRAFT" in q.make.split("|")


def test_flags_joined_by_or_are_any_of_them() -> None:
    assert flags_in("ships flagged in France or Antigua and Barbuda") == ("FRA", "ATG")
    assert flags_in("ships flagged in Malta, Cyprus or Panama in 2001") == ("MLT", "CYP", "PAN")
    assert flags_in("Manx-flagged fishing vessels") == ("IMN",)
    q = _plan("How many casualties in the 1990s involved ships flagged in Panama or Malta?").query
    assert (q.flag, q.flags_any) == ("", ("PAN", "MLT"))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "How many casualties of ships classed by the American Bureau of Shipping were very"
            " serious?",
            {"class_society": "American Bureau of Shipping", "severity": "very serious"},
        ),
        (
            "How many casualties in 2003 were classified as serious (but not very serious)?",
            {"severity": "serious"},
        ),
        (
            "How many casualties in 2010 were classified as less serious?",
            {"severity": "less serious"},
        ),
        ("How many casualties in 2004 involved two or more ships?", {"min_ships": 2}),
        (
            "In the 1990s, how many casualties were of ships of 10,000 GT or more?",
            {"min_tonnage": 10_000},
        ),
        (
            "How many casualties in the 2000s were of ships of at least 100,000 gross tonnage?",
            {"min_tonnage": 100_000},
        ),
        (
            "How many casualties from 2008 to 2014 left passengers dead or missing?",
            {"dead_missing": ("passengers",), "initial_event": ""},
        ),
        (
            "In how many casualties between 2012 and 2014 did crew members die or go missing?",
            {"dead_missing": ("crew",), "initial_event": ""},
        ),
        ("How many casualties started with the ship going missing?", {"initial_event": "missing"}),
    ],
)
def test_a_maritime_question_reads_its_fields(question: str, expected: dict[str, object]) -> None:
    q = _plan(question).query
    assert {k: getattr(q, k) for k in expected} == expected


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("How many casualties of Antigua and Barbuda-flagged ships ended in a total loss?", "ATG"),
        ("How many casualties of ships registered in the Isle of Man were total losses?", "IMN"),
        ("How many North Korean-flagged ship casualties were total losses?", "PRK"),
    ],
)
def test_flag_states_of_several_words_are_read(question: str, code: str) -> None:
    assert _plan(question).query.flag == code


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("How many Hong Kong-registered ships ran aground?", "HKG"),
        ("How many casualties of Maltese registered tankers were total losses?", "MLT"),
    ],
)
def test_a_flag_written_as_registered_is_read(question: str, code: str) -> None:
    assert flags_in(question) == (code,)


def test_sinking_as_the_initial_event_is_no_total_loss() -> None:
    q = _plan("How many casualties of ships registered in Malta began with sinking or foundering?")
    assert (q.query.initial_event, q.query.outcomes) == ("sinking|sank|founder", ())
    q = _plan("How many ships sank in 2010?")
    assert (q.query.initial_event, q.query.outcomes) == ("", ("total_loss",))
    q = _plan("How many Greek-flagged ship casualties started with someone falling overboard?")
    assert q.query.initial_event == "overboard"


def test_a_kind_of_tanker_narrows_the_family_to_its_type_names() -> None:
    q = _plan("For chemical tankers, how many casualties had a fire as the first event?")
    assert (q.query.vessel_families, q.query.vessel_kind) == (("tanker",), "chemical")
    assert q.scope.startswith("of chemical tankers")
    q = _plan("How many casualties of gas tankers were very serious?")
    assert q.query.vessel_kind == "gas|lpg|lng"
    assert _plan("How many casualties of tankers were very serious?").query.vessel_kind == ""


def test_a_collision_with_another_ship_is_no_contact_with_an_object() -> None:
    ships = _plan("How many casualties began with a collision with another ship?")
    contact = _plan("How many casualties began with contact with a quay or a bridge?")
    plain = _plan("How many ship casualties were collisions in 2005?")
    events = ["Collision", "Collision with fixed objects", "Collision to berth wall", "Contact"]
    said = {
        name: [e for e in events if re.search(p.query.initial_event, e.lower())]
        for name, p in (("ships", ships), ("contact", contact), ("plain", plain))
    }
    assert said == {
        "ships": ["Collision"],
        "contact": ["Collision with fixed objects", "Collision to berth wall", "Contact"],
        "plain": ["Collision", "Collision with fixed objects", "Collision to berth wall"],
    }


def test_costing_lives_is_loss_of_life() -> None:
    q = _plan("How many fishing vessel casualties between 2001 and 2005 cost lives?").query
    assert q.outcomes == ("loss_of_life",)


def test_a_group_is_dead_or_missing_only_when_the_words_say_so_of_it() -> None:
    q = _plan("How many casualties in which passengers or crew died in 2001?").query
    assert q.dead_missing == ("passengers", "crew")
    assert (
        _plan("How many casualties where the crew lost control in 2010?").query.dead_missing == ()
    )


def test_a_pilots_certificate_is_no_kind_of_flight() -> None:
    assert (
        _plan("How many accidents involving private pilots happened in 2012?").query.purpose == ""
    )


def test_deaths_or_missing_people_is_its_own_outcome() -> None:
    """ "led to deaths or missing people" asks the dead or missing the record counts; "loss of
    life" stays what the consequences say; a group named is the set, not an outcome."""
    q = _plan("How many casualties of Greek-flagged tankers led to deaths or missing people?").query
    assert q.outcomes == ("dead_or_missing",)
    q = _plan("How many casualties under the flag of Malta led to loss of life?").query
    assert q.outcomes == ("loss_of_life",)
    q = _plan("How many casualties from 2008 to 2014 left passengers dead or missing?").query
    assert (q.outcomes, q.dead_missing) == ((), ("passengers",))


def test_the_answer_states_the_set_it_counted() -> None:
    plan = _plan("How many accidents in Arkansas or Indiana happened on a weekend in March 2012?")
    assert plan.scope == "in Arkansas or Indiana on a weekend in March 2012", plan.scope


def test_an_empty_query_has_no_new_filters() -> None:
    q = RecordQuery("ntsb_report")
    assert (q.regions, q.weekend, q.min_aircraft, q.purpose, q.model) == ((), False, 0, "", "")


async def test_the_turn_records_only_the_filters_the_question_set() -> None:
    async def counter(query: RecordQuery) -> RecordCount:
        return RecordCount(matched=3, scope=5)

    question = "How many accidents in Ohio happened on a weekend in 2012?"
    update = await count_records({"question": question}, counter=counter)
    assert update["diagnostics"]["count"]["filters"] == {
        "kind": "ntsb_report",
        "date_from": "2012-01-01",
        "date_to": "2012-12-31",
        "region": "Ohio",
        "weekend": True,
    }
