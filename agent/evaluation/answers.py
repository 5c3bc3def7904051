"""`bosun eval-answers`: questions through the real agent graph, scored on what the user sees.

Each question runs one turn of the compiled conversation graph (the providers the settings
configure; offline with no keys: embedding intent centroids, the local reranker, extractive
answers) on its own thread, and ends in one of four ways:

- ``answered``: an answer was generated from retrieved passages (its citations are validated);
- ``cutoff``: the relevance cutoff stopped the turn ("no relevant documents");
- ``reply``: the intent router answered without searching (greeting, thanks, about the assistant);
- ``filter``: a requested filter matched nothing.

Reported: the share of answers whose citations are all valid (at least one citation, none
rejected), the share of off-topic questions stopped with no LLM call, the share of in-domain
questions wrongly stopped, mean citations per answer, and the counts behind each share.
"""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from langchain_core.messages import HumanMessage

from agent.evaluation.metrics import percentile
from graph.builder import BosunGraph
from graph.context import Context
from graph.state import diagnostics_of
from tools.timing import elapsed_ms

Expect = Literal["off_topic", "in_domain"]
EXPECTS: tuple[Expect, ...] = get_args(Expect)
Outcome = Literal["answered", "cutoff", "reply", "filter"]

#: Failures listed per kind in the report (the counts cover them all).
LISTED_FAILURES = 20


class QuestionsError(Exception):
    """A questions file that cannot be used; the message names the file and line."""


@dataclass(frozen=True)
class Question:
    """One question and what should happen to it."""

    text: str
    expect: Expect
    split: str = ""  # the file's own grouping (e.g. train / heldout), reported separately
    source: str = ""  # file name or dataset it came from


@dataclass(frozen=True)
class AnswerOutcome:
    """How the agent handled one question."""

    question: Question
    outcome: Outcome
    llm_called: bool
    citations: int  # valid citations kept on the answer
    invalid_citations: int  # markers rejected by validation
    intent: str
    best_score: float | None  # best reranker score (None when not reranked or not searched)
    best_cosine: float | None  # closest passage in meaning (None when not searched)
    timings_ms: dict[str, float]

    @property
    def stopped(self) -> bool:
        """No answer was generated from the archive."""
        return self.outcome != "answered"

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question.text,
            "expect": self.question.expect,
            "split": self.question.split,
            "outcome": self.outcome,
            "llm_called": self.llm_called,
            "intent": self.intent,
            "best_score": self.best_score,
            "best_cosine": self.best_cosine,
            "citations": self.citations,
            "invalid_citations": self.invalid_citations,
        }


def read_questions(path: Path, *, default_expect: Expect | None = None) -> list[Question]:
    """Questions from a JSONL file: one ``{"question": str, "expect": "off_topic"|"in_domain",
    "split": str (optional)}`` per line; blank lines are skipped. ``default_expect`` stands in
    for a missing ``expect``."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise QuestionsError(f"cannot read {path}: {err.strerror or err}") from err
    questions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise QuestionsError(f"{where}: not JSON ({err.msg})") from err
        if not isinstance(row, dict):
            raise QuestionsError(f"{where}: expected an object")
        text = row.get("question")
        if not isinstance(text, str) or not text.strip():
            raise QuestionsError(f'{where}: "question" must be a non-empty string')
        expect = row.get("expect", default_expect)
        if expect not in EXPECTS:
            raise QuestionsError(
                f'{where}: "expect" must be one of {", ".join(EXPECTS)}'
                + ("" if "expect" in row else " (or pass --expect)")
            )
        split = row.get("split", "")
        questions.append(Question(text.strip(), expect, str(split or ""), path.name))
    if not questions:
        raise QuestionsError(f"{path}: no questions")
    return questions


def dataset_questions(queries: Mapping[str, str], source: str) -> list[Question]:
    """A BEIR split's queries as in-domain questions."""
    return [Question(text, "in_domain", "", source) for text in queries.values() if text.strip()]


def outcome_of(question: Question, state: Mapping[str, Any]) -> AnswerOutcome:
    """Classify a finished turn's state."""
    outcome: Outcome
    if state.get("cutoff"):
        outcome = "cutoff"
    elif state.get("filter_problem") or state.get("filters_only"):
        outcome = "filter"
    elif state.get("intent") != "factual_query":
        outcome = "reply"
    else:
        outcome = "answered"
    diagnostics = diagnostics_of(state)
    check = diagnostics.get("citation_check") or {}
    relevance = state.get("relevance") or {}
    return AnswerOutcome(
        question=question,
        outcome=outcome,
        llm_called=bool(diagnostics.get("llm_called")),
        citations=len(state.get("citations") or []),
        invalid_citations=int(check.get("invalid", 0)),
        intent=str(state.get("intent") or ""),
        best_score=relevance.get("best"),
        best_cosine=relevance.get("best_cosine"),
        timings_ms=dict(diagnostics.get("timings") or {}),
    )


async def ask_each(
    graph: BosunGraph,
    questions: Iterable[Question],
    context: Context,
    *,
    progress: Any = None,
) -> list[AnswerOutcome]:
    """One turn per question, each on a fresh thread, one at a time."""
    outcomes = []
    for question in questions:
        config: Any = {"configurable": {"thread_id": f"eval-{uuid.uuid4().hex[:12]}"}}
        started = time.perf_counter()
        state = await graph.ainvoke(
            {"messages": [HumanMessage(content=question.text)]}, config, context=context
        )
        outcome = outcome_of(question, state)
        outcome.timings_ms["total"] = elapsed_ms(started)
        outcomes.append(outcome)
        if progress is not None:
            progress.update(1)
    return outcomes


@dataclass
class AnswerReport:
    """The shares and counts ``bosun eval-answers`` prints."""

    outcomes: list[AnswerOutcome] = field(default_factory=list)

    def _of(self, expect: Expect, split: str | None = None) -> list[AnswerOutcome]:
        return [
            o
            for o in self.outcomes
            if o.question.expect == expect and (split is None or o.question.split == split)
        ]

    def summary(self) -> dict[str, Any]:
        answers = [o for o in self.outcomes if not o.stopped]
        all_valid = [o for o in answers if o.citations > 0 and o.invalid_citations == 0]
        off = self._of("off_topic")
        inside = self._of("in_domain")
        off_stopped = [o for o in off if o.stopped and not o.llm_called]
        wrongly = [o for o in inside if o.stopped]
        splits = sorted({o.question.split for o in off if o.question.split})
        return {
            "questions": len(self.outcomes),
            "answers": len(answers),
            "answers_citations_all_valid": len(all_valid),
            "citations_all_valid_share": _share(len(all_valid), len(answers)),
            "answers_without_citations": sum(o.citations == 0 for o in answers),
            "mean_citations_per_answer": (
                round(sum(o.citations for o in answers) / len(answers), 3) if answers else None
            ),
            "off_topic": len(off),
            "off_topic_stopped_no_llm": len(off_stopped),
            "off_topic_stopped_no_llm_share": _share(len(off_stopped), len(off)),
            "off_topic_by_split": {
                split: _off_topic(self._of("off_topic", split)) for split in splits
            },
            "in_domain": len(inside),
            "in_domain_wrongly_stopped": len(wrongly),
            "in_domain_wrongly_stopped_share": _share(len(wrongly), len(inside)),
            "outcomes": dict(Counter(o.outcome for o in self.outcomes)),
            "latency_ms": _latency(self.outcomes),
            "failures": {
                "off_topic_not_stopped": [o.to_json() for o in off if o not in off_stopped][
                    :LISTED_FAILURES
                ],
                "in_domain_stopped": [o.to_json() for o in wrongly][:LISTED_FAILURES],
            },
        }


def format_report(summary: Mapping[str, Any], *, collection: str) -> str:
    """The human-readable report."""

    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{100.0 * value:.1f}%"

    s = summary

    def row(label: str, share: float | None, detail: str) -> str:
        return f"  {label:<34}{pct(share):>7}  ({detail})"

    lines = [
        f"{s['questions']} questions through the agent (collection {collection})",
        row(
            "answers with all citations valid",
            s["citations_all_valid_share"],
            f"{s['answers_citations_all_valid']} of {s['answers']} answers; "
            f"{s['answers_without_citations']} without citations",
        ),
        row(
            "off-topic stopped, no LLM call",
            s["off_topic_stopped_no_llm_share"],
            f"{s['off_topic_stopped_no_llm']} of {s['off_topic']}",
        ),
    ]
    for split, part in s["off_topic_by_split"].items():
        lines.append(
            row(
                f"  split {split}",
                part["share"],
                f"{part['stopped_no_llm']} of {part['questions']}",
            )
        )
    mean = s["mean_citations_per_answer"]
    lines += [
        row(
            "in-domain wrongly stopped",
            s["in_domain_wrongly_stopped_share"],
            f"{s['in_domain_wrongly_stopped']} of {s['in_domain']}",
        ),
        f"  {'mean citations per answer':<34}{'n/a' if mean is None else f'{mean:.2f}':>7}",
        "  outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(s["outcomes"].items())),
        f"  {'latency ms':<12}{'p50':>9}{'p95':>9}",
    ]
    for stage, values in s["latency_ms"].items():
        lines.append(f"  {stage:<12}{values['p50']:>9.2f}{values['p95']:>9.2f}")
    for kind, failed in s["failures"].items():
        for item in failed:
            lines.append(
                f"  {kind}: [{item['outcome']}, best {item['best_score']}] {item['question'][:90]}"
            )
    return "\n".join(lines)


def _off_topic(outcomes: Sequence[AnswerOutcome]) -> dict[str, Any]:
    stopped = sum(o.stopped and not o.llm_called for o in outcomes)
    return {
        "questions": len(outcomes),
        "stopped_no_llm": stopped,
        "share": _share(stopped, len(outcomes)),
    }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _latency(outcomes: Sequence[AnswerOutcome]) -> dict[str, dict[str, float]]:
    stages: dict[str, list[float]] = {}
    for outcome in outcomes:
        for stage, ms in outcome.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    return {
        stage: {"p50": round(percentile(v, 50), 2), "p95": round(percentile(v, 95), 2)}
        for stage, v in stages.items()
    }
