"""TAIC questions about what kinds of occurrence the reports were about group the reports by
the occurrence their titles name; questions about why keep grouping the findings."""

from __future__ import annotations

import pytest

from answers.occurrence_kinds import asks_occurrence_kinds, event_stems, occurrence_of
from answers.patterns import compose_pattern, groups_of, pattern_plan, statements_of
from archive.store.passages import Passage


@pytest.mark.parametrize(
    "question",
    [
        "What are the usual kinds of occurrences in TAIC rail reports?",
        "What type of occurrence comes up most in TAIC's marine reports?",
        "TAIC aviation inquiries since 2015: what were they mostly about?",
        "What are the common problems TAIC investigated in rail?",
    ],
)
def test_kinds_of_occurrence_are_asked(question: str) -> None:
    assert asks_occurrence_kinds(question)
    pattern = pattern_plan(question)
    assert pattern is not None and pattern.about == "kind"


@pytest.mark.parametrize(
    "question",
    [
        "What are the common findings of TAIC rail investigations?",
        "What kinds of factors keep causing TAIC's marine accidents?",
        "What usually led up to the groundings in TAIC's marine reports?",
        "most common safety issues in TAIC rail reports",
    ],
)
def test_why_keeps_the_findings(question: str) -> None:
    assert not asks_occurrence_kinds(question)
    pattern = pattern_plan(question)
    assert pattern is not None and pattern.about == "finding"


def test_a_title_names_its_occurrence_without_number_or_date() -> None:
    title = "Final report RO-2014-101: Level crossing collision, Rangiriri, 27 February 2014"
    assert occurrence_of(title) == "Level crossing collision, Rangiriri"
    assert occurrence_of("Inquiry 11-106: Derailment of Train 8219") == "Derailment of Train 8219"


def test_only_words_of_something_happening_are_event_stems() -> None:
    stems = event_stems(["Derailment of metro passenger Train 8219, Wellington Station"])
    assert "derail" in stems
    assert not {"passeng", "train", "station", "metro"} & stems


TITLES = {
    "r1": "Final report RO-2015-101: Derailment of passenger Train 1, Picton, 1 May 2015",
    "r2": "Final report RO-2015-102: Derailment of freight Train 2, Otira, 2 May 2015",
    "r3": "Final report RO-2015-103: Derailment of passenger Train 3, Taita, 3 May 2015",
    "r4": "Final report RO-2015-104: Level crossing collision, passenger Train 4, 4 May 2015",
    "r5": "Final report RO-2015-105: Level crossing collision, passenger Train 5, 5 May 2015",
    "r6": "Final report RO-2015-106: Signal passed at danger, passenger Train 6, 6 May 2015",
}


def _found() -> list[tuple[Passage, str]]:
    return [
        (
            Passage(  # type: ignore[typeddict-item]
                chunk_id=f"c{doc:0>11}", doc_id=doc, title=title, kind="investigation_report"
            ),
            title,
        )
        for doc, title in TITLES.items()
    ]


def test_reports_group_by_the_occurrence_not_the_vehicle() -> None:
    pattern = pattern_plan("What are the usual kinds of occurrences in TAIC rail reports?")
    assert pattern is not None
    statements = statements_of(pattern, _found())
    assert [s.item for s in statements] == list(TITLES)  # one statement a report
    groups = groups_of(pattern, statements, [])
    named = {g.name: g.count for g in groups}
    assert named["Level crossing collision"] == 2
    assert [n for n, count in named.items() if n.startswith("Derailment")] and 3 in named.values()
    assert "Passenger train" not in named  # a vehicle alone names no kind
    answer = compose_pattern(pattern, len(TITLES), groups)
    assert "Grouped by kind of occurrence" in answer
    assert "**Other occurrences** — 1 of 6" in answer  # no cause is grouped here
