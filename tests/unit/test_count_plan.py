"""Count questions: which questions count records, and the filters read from their words."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from agent.evaluation.answer_kinds import first_number
from answers.counting import compose_count, count_plan
from answers.flags import flag_in
from answers.patterns import pattern_plan
from archive.store.counts import RecordCount, distinct_incidents
from archive.store.passages import Passage
from archive.vessel_types import own_words, vessel_family


def test_the_issues_two_questions_become_exact_filters() -> None:
    plan = count_plan("How many accidents in Texas in 2011 were fatal?")
    assert plan is not None
    q = plan.query
    assert (q.kind, q.region, q.date_from, q.date_to) == (
        "ntsb_report",
        "Texas",
        date(2011, 1, 1),
        date(2011, 12, 31),
    )
    assert q.outcomes == ("fatal",)
    assert q.scope_only().outcomes == () and q.scope_only().region == "Texas"

    plan = count_plan("How many casualties involved ships flagged in Panama?")
    assert plan is not None
    assert (plan.query.kind, plan.query.flag, plan.query.outcomes) == ("casualty", "PAN", ())


@pytest.mark.parametrize(
    "question",
    [
        "How many legs does a spider have?",
        "How many people died in the Reno P-51 crash?",  # one record's fact, not a count
        "What caused the accident CEN12LA244?",
        "How many moons does Jupiter have?",
        "common causes of fatal landing accidents",
    ],
)
def test_questions_that_count_no_records_are_no_count(question: str) -> None:
    assert count_plan(question) is None


def test_no_off_topic_question_becomes_a_count() -> None:
    path = Path(__file__).parents[2] / "benchmarks" / "questions" / "off_topic.jsonl"
    questions = [json.loads(line)["question"] for line in path.read_text().splitlines() if line]
    assert len(questions) >= 84
    assert [q for q in questions if count_plan(q) is not None] == []


@pytest.mark.parametrize(
    ("question", "field", "value"),
    [
        ("How many helicopter accidents occurred in Alaska?", "category", "HELI"),
        ("How many accidents in West Virginia?", "region", "West Virginia"),
        ("How many Robinson accidents in 2012?", "make", "ROBINSON"),
        ("How many accidents in IMC were fatal?", "weather", "IMC"),
        ("How many casualties of Liberian-flagged ships?", "flag", "LBR"),
        ("How many casualties of bulk carriers in 2005?", "vessel_families", ("bulk carrier",)),
        ("How many very serious casualties in 2010?", "severity", "very serious"),
        ("How many ship casualties were groundings?", "initial_event", "grounding"),
        ("How many casualties with loss of life?", "outcomes", ("loss_of_life",)),
        ("How many accidents involved serious injuries?", "outcomes", ("serious",)),
    ],
)
def test_filters_read_from_the_question(question: str, field: str, value: object) -> None:
    plan = count_plan(question)
    assert plan is not None
    assert getattr(plan.query, field) == value


def test_year_ranges() -> None:
    between = count_plan("How many accidents between 2012 and 2010 were fatal?")
    since = count_plan("How many casualties since 2005?")
    assert between is not None and since is not None
    assert (between.query.date_from, between.query.date_to) == (
        date(2010, 1, 1),
        date(2012, 12, 31),
    )
    assert (since.query.date_from, since.query.date_to) == (date(2005, 1, 1), None)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("ships flagged in the Bahamas", "BHS"),
        ("under the flag of Saint Vincent and the Grenadines", "VCT"),
        ("Marshall Islands-flagged ships", "MHL"),
        ("ships flagged in Atlantis", None),
    ],
)
def test_flag_states(text: str, code: str | None) -> None:
    assert flag_in(text) == code


def _passage(chunk_id: str, title: str) -> Passage:
    return Passage(  # type: ignore[typeddict-item]
        chunk_id=chunk_id, title=title, doc_id=chunk_id, kind="ntsb_report", source_id=title
    )


def test_the_answer_states_the_count_first_then_its_set_and_cites_examples() -> None:
    plan = count_plan("How many accidents in Texas in 2011 were fatal?")
    assert plan is not None
    cite = [_passage("0123456789ab", "CEN11FA001 2011-01-02 Dallas, Texas")]
    answer = compose_count(plan, RecordCount(matched=31, scope=1377, examples=cite), cite)
    assert first_number(answer) == 31
    assert answer.startswith("31 of the 1,377 accident records in Texas from 2011")
    assert "fatal" in answer and answer.count("[C:0123456789ab]") == 2


def test_a_ship_type_counts_its_family_and_names_the_related_types_in_it() -> None:
    """ "bulk carriers" are the whole family (ore and cement carriers are bulk carriers); the
    records whose type says the family otherwise are named with their counts after the count,
    which is still the first number said."""
    plan = count_plan("How many casualties with loss of life involved bulk carriers?")
    assert plan is not None and plan.query.vessel_families == ("bulk carrier",)
    named = plan.query.vessel_named
    assert re.search(named, "Bulk Dry (general, ore) Carrier", re.I)
    assert not any(re.search(named, t, re.I) for t in ("ORE CARRIER", "Cement Carrier"))
    related = [("Ore Carrier", 7), ("Cement Carrier", 5)]
    answer = compose_count(plan, RecordCount(matched=271, scope=1509, related=related), [])
    assert first_number(answer) == 271
    assert "Counted with them: 12 casualty records of related types" in answer
    assert "(Ore Carrier 7, Cement Carrier 5)" in answer


@pytest.mark.parametrize(
    ("family", "spelled", "named"),
    [
        ("bulk carrier", "OPEN-HATCH BULK CARRIER", True),
        ("bulk carrier", "Aggregates Carrier", False),
        ("tanker", "Chemical/Products Tanker", True),
        ("tanker", "FPSO", False),
        ("fishing vessel", "Fish Catching Vessel", True),
        ("fishing vessel", "Stern Trawler", False),
        ("passenger ship", "Cruise Passenger Ship", True),
        ("passenger ship", "FERRY, TWIN-HULL", False),
    ],
)
def test_a_type_names_its_family_in_its_own_words(family: str, spelled: str, named: bool) -> None:
    assert vessel_family(spelled) == family  # every one is filed in the family
    assert bool(re.search(own_words((family,)), spelled, re.IGNORECASE)) is named


def test_no_off_topic_question_becomes_a_pattern() -> None:
    path = Path(__file__).parents[2] / "benchmarks" / "questions" / "off_topic.jsonl"
    questions = [json.loads(line)["question"] for line in path.read_text().splitlines() if line]
    assert [q for q in questions if pattern_plan(q) is not None] == []


def test_a_pattern_question_names_its_set_and_phase() -> None:
    pattern = pattern_plan("common causes of fatal landing accidents")
    assert pattern is not None
    assert (pattern.topic, pattern.plan.query.outcomes) == ("landing", ("fatal",))
    sea = pattern_plan("What are the most common causes of casualties of tankers?")
    assert sea is not None and sea.plan.query.kind == "casualty"
    assert pattern_plan("What caused the accident CEN12LA244?") is None


@pytest.mark.parametrize(
    "question",
    [
        "What tends to go wrong on tankers?",  # a tendency
        "In general, why do gliders crash?",
        "Known causes of fires on container ships?",  # what is known
        "What are the classic causes of loss of control accidents?",
        "Which causes show up most in accidents during approach?",  # how often after the verb
        "What kinds of accidents happen most with Robinson helicopters?",
        "What usually leads to groundings of bulk carriers?",  # what leads to it
        "What do TAIC investigations usually find about rail accidents?",  # what is found
    ],
)
def test_a_record_pattern_asked_with_other_cues(question: str) -> None:
    assert pattern_plan(question) is not None, question


@pytest.mark.parametrize(
    "question",
    [
        "Where did most accidents happen in 2012?",  # a place asked, not a pattern
        "Which state had the most accidents in 2013?",
        "What was the most serious casualty of a tanker in 2015?",
        "How many people died in the Reno P-51 crash and why?",
    ],
)
def test_most_of_a_set_or_one_record_is_no_record_pattern(question: str) -> None:
    assert pattern_plan(question) is None, question


def test_themes_asked_for_are_a_pattern() -> None:
    """ "Common themes in …" asks what the set's reports have in common, as "patterns" does."""
    themes = pattern_plan("What are the recurring themes in TAIC rail investigations?")
    assert themes is not None and themes.plan.query.kind is not None
    assert pattern_plan("Common themes in fishing vessel casualties?") is not None


def test_examples_name_one_incident_once() -> None:
    """Two IMO records of one incident (same ship, same date, another record number) are one
    example; another ship on that date is another."""
    titles = [
        "C0007677 PACIFIC — GENERAL CARGO — Very serious casualty — 2009-09-18",
        "C0008321 PACIFIC — GENERAL CARGO — Very serious casualty — 2009-09-18",
        "C0008322 AURORA — Container ship — Serious casualty — 2009-09-18",
    ]
    found = [{**_passage(f"{i:012x}", t), "date": "2009-09-18"} for i, t in enumerate(titles)]
    kept = distinct_incidents(found)  # type: ignore[arg-type]
    assert [p["title"].split()[0] for p in kept] == ["C0007677", "C0008322"]


def test_one_record_is_said_in_the_singular() -> None:
    """One matching record "was" fatal, one record "is" in the archive: a count of one reads as
    English, not as "1 ... were"."""
    plan = count_plan("How many accidents in Texas in 2011 were fatal?")
    assert plan is not None
    answer = compose_count(plan, RecordCount(matched=1, scope=9), [])
    assert answer.startswith("1 of the 9 accident records in Texas from 2011 in the archive was")
    plain = count_plan("How many accidents happened in Texas in 2011?")
    assert plain is not None and not plain.outcome
    answer = compose_count(plain, RecordCount(matched=1, scope=1), [])
    assert answer.startswith("1 accident record in Texas from 2011 is in the archive")
