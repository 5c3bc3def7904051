"""The per-kind answer benchmark's measures: gold statements, repeats, follow-ups, files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.evaluation.answer_kinds import (
    KindQuestion,
    KindResult,
    Turn,
    contains,
    overlap,
    read_kind_questions,
    repeats,
)
from agent.evaluation.answers import QuestionsError
from agent.evaluation.kind_report import format_kinds, summarise

CAUSE = "The pilot's failure to maintain directional control during the landing roll."


def test_gold_is_found_word_for_word_across_markers_and_punctuation() -> None:
    answer = (
        "From the archive:\n\nThe pilot’s failure to maintain directional control [C:0123456789ab]"
    )
    assert not contains(answer, CAUSE)
    answer = f"From the archive:\n\n{CAUSE} [C:0123456789ab] Wind was calm. [C:0123456789ac]"
    assert contains(answer, CAUSE)
    assert contains(
        "Run `b2xx_fx3_utils --init-device`. [C:0123456789ab]", "b2xx_fx3_utils --init-device"
    )


def test_repeated_sentences_and_followup_overlap() -> None:
    twice = f"{CAUSE} [C:0123456789ab] The crew replaced the liner. [C:0123456789ac] {CAUSE} [2]"
    assert repeats(twice) == 1
    assert repeats(f"{CAUSE} [C:0123456789ab] The crew replaced the liner. [1]") == 0
    assert overlap(f"{CAUSE} [1]", f"Something else entirely happened here. [2] {CAUSE} [1]")
    assert not overlap(f"{CAUSE} [1]", "The crew replaced the cracked liner at sea. [2]")


def test_question_files_need_a_kind_and_a_gold(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    rows = [
        {"kind": "cause", "question": "What caused ERA10CA125?", "report_no": "era10ca125"},
        {"kind": "followup", "question": "How was it fixed?", "followup": "why?"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    questions = read_kind_questions(path, gold_causes={"ERA10CA125": CAUSE})
    assert questions[0].gold == CAUSE and questions[1].followup == "why?"
    with pytest.raises(QuestionsError, match="no probable cause"):
        read_kind_questions(path, gold_causes={})
    path.write_text('{"kind": "poem", "question": "x"}\n', encoding="utf-8")
    with pytest.raises(QuestionsError, match=r"q.jsonl:1: \"kind\" must be one of"):
        read_kind_questions(path, gold_causes={})


def turn(answer: str, *, stopped: bool = False, docs: tuple[str, ...] = ("d1",)) -> Turn:
    return Turn(answer, stopped, [{"doc_id": d} for d in docs], 0, 10.0)


def test_summary_per_kind() -> None:
    results = [
        KindResult(KindQuestion("cause", "q1", gold=CAUSE), [turn(f"{CAUSE} [1]")]),
        KindResult(KindQuestion("cause", "q2", gold=CAUSE), [turn("No relevant.", stopped=True)]),
        KindResult(KindQuestion("pattern", "q3"), [turn("- a [1]\n- b [2]", docs=("a", "b"))]),
        KindResult(
            KindQuestion("followup", "q4", followup="why?"),
            [turn(f"{CAUSE} [1]"), turn(f"Gusts were reported at the airport. [2] {CAUSE} [1]")],
        ),
    ]
    summary = summarise(results)
    assert summary["cause"]["gold"] == 0.5 and summary["cause"]["wrongly_stopped"] == 0.5
    assert summary["pattern"]["min_documents_met"] == 0.0  # 2 documents, 3 wanted
    assert summary["followup"]["followup_answered_not_repeated"] == 0.0  # it repeated the cause
    table = format_kinds(summary, label="offline")
    assert "cause" in table and "50.0%" in table
