"""The follow-up, claim-check and relative-date measures of ``bosun eval-answers``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent.evaluation.answer_kinds import (
    KindResult,
    Turn,
    read_kind_questions,
)
from agent.evaluation.followup_scores import filler_lines, measure, states_aspect
from agent.evaluation.kind_report import format_kinds, summarise

INJURIES = {"fatal": 1, "serious": 0, "minor": 1}


def test_the_aspect_value_is_found_in_usual_wordings() -> None:
    assert states_aspect(
        "CEN12FA091: 1 fatal, 0 serious, 1 minor injuries. [1]", "injuries", INJURIES
    )
    assert states_aspect("The pilot was killed: fatal 1; minor 1.", "injuries", INJURIES)
    assert not states_aspect("The helicopter was destroyed by fire. [1]", "injuries", INJURIES)
    none = {"fatal": 0, "serious": 0, "minor": 0}
    assert states_aspect("The pilot was not injured.", "injuries", none)
    assert states_aspect("It happened on May 28, 2012.", "date", {"date": "2012-05-28"})
    assert not states_aspect("It happened in May 2012.", "date", {"date": "2012-05-28"})
    place = {"city": "Fort Morgan", "state": "Colorado"}
    assert states_aspect("It happened in Fort Morgan, Colorado.", "place", place)
    assert not states_aspect("It happened in Colorado.", "place", place)
    assert states_aspect("A Piper PA28-140.", "aircraft", {"make": "PIPER", "model": "PA-28-140"})


def test_filler_is_a_metadata_line_of_an_aspect_not_asked() -> None:
    answer = "From the archive:\n\nVessel: Baltic Trader, IMO 9345678.\nThe coils were wet. [1]"
    assert filler_lines(answer, "injuries") == 1
    assert filler_lines(answer, "vessel") == 0


def citation(report: str) -> dict[str, Any]:
    return {"source_id": report, "doc_id": report.lower()}


def test_followup_claim_and_dates_measures() -> None:
    spec = {"aspect": "injuries", "report_no": "CEN12FA091", "expected": INJURIES}
    answers = ["It crashed. [1]", "CEN12FA091: 1 fatal, 0 serious, 1 minor injuries. [1]"]
    own = [[citation("CEN12FA091")], [citation("CEN12FA091")]]
    assert measure("followup", spec, answers, own, {}) == {
        "aspect_value": True,
        "subject_cited": True,
        "no_unrelated": True,
        "no_filler": True,
    }
    both = [own[0], [citation("CEN12FA091"), citation("WPR12CA431")]]
    assert not measure("followup", spec, answers, both, {})["no_unrelated"]
    denied = ["Not in the archive: nothing retrieved mentions P-51.\n\nThe closest ... [1]"]
    claim = measure("claim", {"report_no": "WPR11MA454"}, denied, [[citation("WPR11MA454")]], {})
    assert claim == {"not_denied": False, "subject_cited": True}
    spec = {"date_from": "2015-02-01", "date_to": None}
    assert measure("dates", spec, ["x"], [[]], {"date_from": "2015-02-01"}) == {"date_range": True}
    assert not measure("dates", spec, ["x"], [[]], {"date_from": "2015-01-01"})["date_range"]


def test_files_with_these_kinds_are_read_scored_and_tabled(tmp_path: Path) -> None:
    rows = [
        {
            "kind": "followup",
            "question": "What happened to the R44 in Hackensack?",
            "followup": "was anyone hurt?",
            "aspect": "injuries",
            "report_no": "CEN12FA091",
            "expected": INJURIES,
        },
        {
            "kind": "dates",
            "question": "Which accidents last year?",
            "today": "2016-07-01",
            "date_from": "2015-01-01",
            "date_to": "2015-12-31",
        },
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    questions = read_kind_questions(path, gold_causes={})
    assert [q.kind for q in questions] == ["followup", "dates"]
    turn = Turn(
        "CEN12FA091: 1 fatal, 0 serious, 1 minor injuries. [1]",
        False,
        [citation("CEN12FA091")],
        0,
        5.0,
    )
    dated = Turn("x [1]", False, [citation("A")], 0, 5.0, {"date_from": "2015-01-01"})
    results = [KindResult(questions[0], [turn, turn]), KindResult(questions[1], [dated])]
    summary = summarise(results)
    assert summary["followup"]["aspect_value"] == 1.0
    assert summary["dates"]["date_range"] == 0.0
    table = format_kinds(summary, label="offline")
    assert "followup: aspect_value 100.0%" in table and "dates: date_range 0.0%" in table


def test_a_casualty_records_aspects_are_found_in_usual_wordings() -> None:
    assert states_aspect("GALA was flagged in Antigua and Barbuda.", "flag", {"flag": "ATG"})
    assert states_aspect("Flag state: ATG. [1]", "flag", {"flag": "ATG"})
    assert not states_aspect("The ship was flagged in Panama.", "flag", {"flag": "ATG"})
    assert states_aspect("a gross tonnage of 1,064 [1]", "tonnage", {"gross_tonnage": "1064"})
    assert not states_aspect("a gross tonnage of 10,640", "tonnage", {"gross_tonnage": "1064"})
    event = {"initial_event": "Stranding / grounding"}
    assert states_aspect("the initial event was stranding/grounding.", "initial_event", event)
    assert not states_aspect("the ship ran aground.", "initial_event", event)
    lost = {"consequences": ["Total loss of the ship", "Loss of life"]}
    assert states_aspect(
        "consequences: loss of life; total loss of the ship.", "consequences", lost
    )
    assert not states_aspect("the ship was a total loss of the ship.", "consequences", lost)
    assert states_aspect("happened in Fakse Bugt. [1]", "place", {"location": "Fakse Bugt"})
    cargo = {"ship_type": "General Cargo Ship"}
    assert states_aspect("the vessel was GALA, general cargo ship.", "ship_type", cargo)
    assert filler_lines("Vessel: GALA, IMO 6812637. [1]", "flag") == 0  # the ship's own line
    assert filler_lines("Vessel: GALA, IMO 6812637. [1]", "date") == 1
