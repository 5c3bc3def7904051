"""`bosun eval-answers`: the questions format, outcomes of real graph turns (fakes), the report."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from agent.evaluation.answers import (
    AnswerOutcome,
    AnswerReport,
    Question,
    QuestionsError,
    ask_each,
    dataset_questions,
    format_report,
    outcome_of,
    read_questions,
)
from agent.evaluation.answers_command import add_eval_answers_parser, asked_queries
from agent.evaluation.folds import Fold, split_queries
from graph import Clients, Context, build_graph
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture


def write(tmp_path: Path, *rows: object) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows),
        encoding="utf-8",
    )
    return path


def test_questions_file_with_expect_split_and_blank_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {"question": " What is the capital of France? ", "expect": "off_topic", "split": "train"},
        "",
        {"question": "Why did the ballast pump leak?", "expect": "in_domain"},
    )
    assert read_questions(path) == [
        Question("What is the capital of France?", "off_topic", "train", "questions.jsonl"),
        Question("Why did the ballast pump leak?", "in_domain", "", "questions.jsonl"),
    ]


def test_missing_expect_needs_a_default(tmp_path: Path) -> None:
    path = write(tmp_path, {"question": "Tell me a joke", "split": "heldout"})
    with pytest.raises(QuestionsError, match=r"questions.jsonl:1: \"expect\".*--expect"):
        read_questions(path)
    (question,) = read_questions(path, default_expect="off_topic")
    assert (question.expect, question.split) == ("off_topic", "heldout")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r":2: not JSON"),
        (json.dumps(["a list"]), r":2: expected an object"),
        (json.dumps({"question": "  ", "expect": "in_domain"}), r":2: \"question\""),
        (json.dumps({"question": "q", "expect": "maybe"}), r":2: \"expect\" must be one of"),
    ],
)
def test_bad_lines_are_named_by_line_number(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path, {"question": "fine", "expect": "in_domain"}, line)
    with pytest.raises(QuestionsError, match=message):
        read_questions(path)


def test_empty_or_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(QuestionsError, match="no questions"):
        read_questions(write(tmp_path, ""))
    with pytest.raises(QuestionsError, match="cannot read"):
        read_questions(tmp_path / "absent.jsonl")


def test_dataset_queries_are_in_domain_questions() -> None:
    questions = dataset_questions({"q1": "engine power loss", "q2": " "}, "ntsb/dev")
    assert questions == [Question("engine power loss", "in_domain", "", "ntsb/dev")]


@pytest.mark.parametrize(
    ("state", "expected"),
    [
        ({"cutoff": True, "intent": "factual_query"}, "cutoff"),
        ({"intent": "factual_query", "filter_problem": "no vessel X"}, "filter"),
        ({"intent": "greeting"}, "reply"),
        ({"intent": "factual_query", "citations": [{"id": "a"}]}, "answered"),
    ],
)
def test_outcome_of_a_finished_turn(state: dict, expected: str) -> None:
    outcome = outcome_of(Question("q", "in_domain"), state)
    assert outcome.outcome == expected
    assert outcome.stopped is (expected != "answered")


def _outcome(
    expect: Any,
    outcome: Any,
    *,
    split: str = "",
    llm: bool = False,
    cites: int = 0,
    invalid: int = 0,
) -> AnswerOutcome:
    question = Question(f"{expect} {outcome} {split}", expect, split)
    return AnswerOutcome(
        question, outcome, llm, cites, invalid, "factual_query", 0.1, 0.2, {"total": 5.0}
    )


def test_report_shares_and_counts() -> None:
    report = AnswerReport(
        [
            _outcome("off_topic", "cutoff", split="train"),
            _outcome("off_topic", "reply", split="heldout"),
            _outcome("off_topic", "cutoff", split="heldout", llm=True),  # stopped after an LLM call
            _outcome("off_topic", "answered", split="heldout", cites=1),
            _outcome("in_domain", "answered", cites=3),
            _outcome("in_domain", "answered", cites=2, invalid=1),
            _outcome("in_domain", "answered"),
            _outcome("in_domain", "cutoff"),
        ]
    )
    s = report.summary()
    assert (s["questions"], s["answers"], s["answers_citations_all_valid"]) == (8, 4, 2)
    assert s["citations_all_valid_share"] == 0.5 and s["answers_without_citations"] == 1
    assert s["mean_citations_per_answer"] == 1.5
    assert (s["off_topic"], s["off_topic_stopped_no_llm"], s["off_topic_stopped_no_llm_share"]) == (
        4,
        2,
        0.5,
    )
    assert s["off_topic_by_split"] == {
        "heldout": {"questions": 3, "stopped_no_llm": 1, "share": 0.3333},
        "train": {"questions": 1, "stopped_no_llm": 1, "share": 1.0},
    }
    assert (s["in_domain"], s["in_domain_wrongly_stopped"]) == (4, 1)
    assert s["in_domain_wrongly_stopped_share"] == 0.25
    assert s["outcomes"] == {"cutoff": 3, "reply": 1, "answered": 4}
    assert len(s["failures"]["off_topic_not_stopped"]) == 2
    assert s["latency_ms"]["total"] == {"p50": 5.0, "p95": 5.0}
    text = format_report(s, collection="eval_x")
    assert "off-topic stopped, no LLM call      50.0%  (2 of 4)" in text
    assert "in-domain wrongly stopped           25.0%  (1 of 4)" in text
    assert "split heldout" in text and "mean citations per answer" in text


def test_empty_report_has_no_shares() -> None:
    s = AnswerReport([]).summary()
    assert s["citations_all_valid_share"] is None and s["mean_citations_per_answer"] is None
    assert "n/a" in format_report(s, collection="c")


async def test_questions_run_through_the_real_graph() -> None:
    passages, registry, docs = fleet_fixture()
    reranker = FakeReranker(default_cutoff=0.5)
    graph = build_graph(
        Clients(
            backend=FakeBackend(passages, registry, docs), archive=FakeArchive(), reranker=reranker
        )
    )
    questions = [
        Question("hello there", "off_topic"),
        Question("which recipe for the pump of a crack", "off_topic"),
        Question("ballast pump leak in the engine room", "in_domain"),
    ]
    outcomes = await ask_each(graph, questions, Context())
    assert [o.outcome for o in outcomes] == ["reply", "cutoff", "answered"]
    assert not any(o.llm_called for o in outcomes)  # offline: no chat model at all
    assert outcomes[2].citations >= 1 and outcomes[2].invalid_citations == 0
    assert outcomes[1].best_score is not None and outcomes[1].best_score < 0.5
    assert "total" in outcomes[0].timings_ms


def test_command_line_documents_the_format_and_takes_layer_switches() -> None:
    parser = argparse.ArgumentParser(prog="bosun")
    sub = parser.add_subparsers(dest="command")
    answers = add_eval_answers_parser(sub)
    assert '"expect": "off_topic"' in answers.description  # type: ignore[operator]
    args = parser.parse_args(
        [
            "eval-answers",
            "a.jsonl",
            "b.jsonl",
            "--dataset",
            "d",
            "--split",
            "dev",
            "--limit",
            "5",
            "--no-rerank",
            "--json",
        ]
    )
    assert args.questions == [Path("a.jsonl"), Path("b.jsonl")] and args.dataset == Path("d")
    assert (args.rerank, args.expand, args.topics, args.limit, args.json) == (
        False,
        False,
        False,
        5,
        True,
    )


def test_fold_asks_only_the_held_out_queries_then_the_limit() -> None:
    parser = argparse.ArgumentParser()
    add_eval_answers_parser(parser.add_subparsers())
    queries = {f"q{i}": f"question {i}" for i in range(40)}
    args = parser.parse_args(["eval-answers", "--fold", "2/2", "--limit", "5"])
    asked = asked_queries(queries, args)
    inside = split_queries(queries, Fold(2, 2))[1]
    assert list(asked) == list(inside)[:5] and len(inside) > 5
    everything = parser.parse_args(["eval-answers"])
    assert asked_queries(queries, everything) == queries
