"""Record pattern questions in users' own words: the ways of asking for what usually happens or
why (a cause asked of plural records included), listed and ranged years, instrument weather,
regions of states, sea areas (never read as a flag), what becomes of ships afterwards, and a TAIC
question's period, modes and the event or factor it names."""

from __future__ import annotations

from datetime import date

import pytest

from answers.count_filters import period_in
from answers.counting import plan_for
from answers.patterns import PatternPlan, pattern_plan
from answers.sea_areas import area_in
from tools.dates import date_range, year_in_passing


def _pattern(question: str) -> PatternPlan:
    plan = pattern_plan(question)
    assert plan is not None, question
    return plan


@pytest.mark.parametrize(
    "question",
    [
        "Cessna accidents in Ohio: is there a common thread in why they happened?",
        "Gyroplane accidents, what tends to go wrong?",
        "What keeps going wrong with chemical tankers?",
        "Piper crashes in Alaska, what usually brings them down?",
        "Tankers in the Red Sea: what typically started those casualties?",
        # a cause asked of plural records, no cue word: a set, not one event
        "What caused the seaplane accidents in Florida that killed someone?",
        "What was behind the fatal Bellanca crashes?",
        "Trawlers lost with all hands: what set those casualties off?",
    ],
)
def test_a_pattern_asked_in_other_words_is_a_pattern(question: str) -> None:
    assert pattern_plan(question) is not None, question


@pytest.mark.parametrize(
    "question",
    [
        "What caused the crash of N123AB?",  # one record
        "What caused the Reno P-51 accident?",
        "Why do cats purr?",
        "What usually goes wrong when baking bread?",  # no records
        "What tends to happen at weddings?",
        "How many Mooney accidents were fatal?",  # a count
    ],
)
def test_one_record_or_no_records_is_no_pattern(question: str) -> None:
    assert pattern_plan(question) is None, question


@pytest.mark.parametrize(
    ("text", "first", "last"),
    [
        ("in 2012 and 2013", date(2012, 1, 1), date(2013, 12, 31)),
        ("in 2009, 2010 and 2011", date(2009, 1, 1), date(2011, 12, 31)),
        ("in 2014 or 2015", date(2014, 1, 1), date(2015, 12, 31)),
        ("going back to 2003 and 2004", date(2003, 1, 1), date(2004, 12, 31)),
        ("2006 to 2009", date(2006, 1, 1), date(2009, 12, 31)),
        ("in 2004-2007", date(2004, 1, 1), date(2007, 12, 31)),
        ("from 2016 onwards", date(2016, 1, 1), None),
        ("2012 onward", date(2012, 1, 1), None),
        ("in 2013 and later", date(2013, 1, 1), None),
    ],
)
def test_listed_and_ranged_years_are_one_period(
    text: str, first: date | None, last: date | None
) -> None:
    found = period_in(f"Cessna accidents {text}: what were the usual causes?")
    assert found is not None and found[:2] == (first, last), found


def test_years_with_a_gap_are_those_years() -> None:
    """ "2010 and 2013" is neither 2010 alone nor 2010 to 2013: those two years."""
    question = "What caused the glider accidents in 2010 and 2013?"
    assert period_in(question) is None
    plan = plan_for(question, sea=False)
    assert plan.query.years == (2010, 2013) and "in 2010 and 2013" in plan.scope
    assert plan_for("Glider accidents in 2010 and 2011", sea=False).query.years == ()
    taic = _pattern("Marine reports TAIC wrote in 2012, 2014 and 2016: common threads?")
    assert taic.plan.query.years == (2012, 2014, 2016)


@pytest.mark.parametrize(
    "words", ["in instrument weather", "in IFR conditions", "in instrument weather conditions"]
)
def test_instrument_weather_is_imc(words: str) -> None:
    assert plan_for(f"Fatal accidents {words}: usual causes?", sea=False).query.weather == "IMC"


def test_a_sea_area_filters_the_location_and_names_no_flag() -> None:
    plan = plan_for("Very serious casualties in the South China Sea", sea=True)
    assert plan.query.area == area_in("South China Sea")[1]  # type: ignore[index]
    assert (plan.query.flag, plan.query.flags_any) == ("", ())
    assert "in the South China Sea" in plan.scope
    assert area_in("Groundings in the Gulf of Mexico") == (
        "the Gulf of Mexico",
        r"gulf\s+of\s+mexico",
    )
    assert area_in("Collisions off Norway") is None


def test_what_becomes_of_the_ships_asks_their_consequences() -> None:
    plan = _pattern("Groundings in the Baltic: what usually happens to the ships afterwards?")
    assert plan.about == "outcome" and plan.plan.query.area == "baltic"
    assert _pattern("Groundings in the Baltic: what usually causes them?").about == "cause"


def test_what_follows_an_event_only_ships_record_is_a_casualty_pattern() -> None:
    plan = _pattern("After the hull failed, what usually followed?")
    assert plan.plan.query.kind == "casualty" and plan.about == "outcome"
    assert plan.plan.query.initial_event == "hull failure"


def test_what_about_a_place_introduces_it_and_is_no_topic() -> None:
    plan = _pattern("What about Ohio in summer - the usual causes of accidents?")
    assert plan.plan.query.region == "Ohio" and plan.topic == ""
    assert _pattern("Common causes of accidents about fuel in Ohio?").topic == "fuel"


def test_a_taic_question_reads_its_period_modes_and_topic() -> None:
    rail = _pattern("Rail occurrences TAIC investigated between 2012 and 2014: common threads?")
    assert rail.plan.query.mode == "rail"
    assert (rail.plan.query.date_from, rail.plan.query.date_to) == (
        date(2012, 1, 1),
        date(2014, 12, 31),
    )
    assert "from 2012 to 2014" in rail.plan.scope
    every = _pattern("Across rail and air, where does drug use come up in TAIC reports?")
    assert (every.plan.query.mode, every.topic) == ("", "drug use")
    derailed = _pattern("Trains that derailed, in TAIC's reports: what usually led up to it?")
    assert (derailed.plan.query.mode, derailed.topic) == ("rail", "derailed")


@pytest.mark.parametrize(
    "question",
    [
        "What's behind all the Cirrus accidents in Texas?",
        "What is causing these seaplane crashes?",
        "Why do gyroplanes crash?",
        "What leads to groundings of tankers?",
    ],
)
def test_why_asked_of_plural_records_is_a_pattern(question: str) -> None:
    assert pattern_plan(question) is not None, question


@pytest.mark.parametrize(
    ("words", "outcomes"),
    [
        ("that killed or badly hurt someone", ("fatal_or_serious",)),
        ("where people were seriously injured or killed", ("fatal_or_serious",)),
        ("where someone was badly hurt", ("serious",)),
        ("with severe injuries", ("serious",)),
        ("where nobody got hurt", ("no_injuries",)),
        ("where no one was injured", ("no_injuries",)),
        ("where everyone walked away unhurt", ("no_injuries",)),
    ],
)
def test_injuries_in_users_words(words: str, outcomes: tuple[str, ...]) -> None:
    query = plan_for(f"Piper accidents {words}: what usually caused them?", sea=False).query
    assert query.outcomes == outcomes, words


@pytest.mark.parametrize(
    ("words", "topic"),
    [
        ("on take-off", "takeoff"),
        ("while taking off", "takeoff"),
        ("during go arounds", "go-around"),
        ("while taxiing", "taxi"),
        ("while hovering", "hover"),
        ("on landing", "landing"),
    ],
)
def test_a_phase_in_users_words_is_the_records_word(words: str, topic: str) -> None:
    assert _pattern(f"Common causes of Robinson accidents {words}?").topic == topic


@pytest.mark.parametrize(
    ("words", "members"),
    [
        ("in the Midwest", {"Ohio", "Iowa", "Kansas", "Wisconsin"}),
        ("along the Gulf Coast", {"Texas", "Louisiana", "Mississippi", "Alabama", "Florida"}),
        ("in the Northeast", {"New York", "Maine", "Pennsylvania"}),
        ("in the Mountain states", {"Colorado", "Utah", "Nevada"}),
        ("in the Great Lakes states", {"Michigan", "Ohio", "New York"}),
    ],
)
def test_a_region_in_users_words_is_its_states(words: str, members: set[str]) -> None:
    regions = plan_for(f"Accidents {words}: usual causes?", sea=False).query.regions
    assert members <= set(regions), (words, regions)


def test_a_direction_is_no_region() -> None:
    query = plan_for("Accidents northeast of Denver: usual causes?", sea=False).query
    assert (query.region, query.regions) == ("", ())


def test_why_records_are_as_they_are_is_no_pattern() -> None:
    assert pattern_plan("Why do planes have wings?") is None
    assert pattern_plan("Why are ships painted red below the waterline?") is None


def test_nobody_killed_or_badly_hurt_is_no_worst_outcome() -> None:
    query = plan_for("Cessna accidents where nobody was killed or badly hurt", sea=False).query
    assert query.outcomes == ("not_fatal_or_serious",)


def test_a_search_filters_listed_years_from_the_first_to_the_last() -> None:
    """A question the search answers keeps every year it lists ("Robinson accidents in 2012 and
    2013"), not the first alone, so no later claim says the archive lacks 2013."""
    assert date_range("Robinson helicopter accidents in 2012 and 2013") == (
        date(2012, 1, 1),
        date(2013, 12, 31),
    )
    assert year_in_passing("The Airbus A380 engine failure in 2009 and 2010") is None
