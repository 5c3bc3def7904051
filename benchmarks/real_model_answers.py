"""Answers from a real chat model over the archive: cited, flagged, correct, and how long.

    BOSUN_CHAT_MODEL=openai:qwen2.5-coder-1.5b-instruct \\
    BOSUN_CHAT_BASE_URL=http://127.0.0.1:8080/v1 BOSUN_PROVIDER_TIMEOUT_S=300 \\
        python benchmarks/real_model_answers.py [--questions benchmarks/questions/real_model.jsonl]

Not part of the test suite: it needs an archive (``bosun ingest examples/archive`` for the default
questions) and any OpenAI-compatible endpoint (a llama-cpp-python or Ollama server; no
``OPENAI_API_KEY`` needed for a local base URL). Without ``BOSUN_CHAT_MODEL`` (or with
``--offline``) it measures the offline extractive answers, the baseline.

Each question runs one turn of the real graph on its own thread. Per question it prints the
outcome, the seconds, the model's own citations and which gold statements its answer contains;
then a table over the in-domain questions:

- cited share: answers whose model text cites at least one valid passage (before any offline
  backup);
- flagged share: answers flagged (no valid citation, or most citations invalid);
- correct-statement share: gold statements found in the model's own text (the offline backup
  appended to an uncited answer, and the offline answer of a degraded turn, are not counted):
  every keyword of a statement, case-insensitive, as whole words;
- degraded: turns where the chat model failed and the offline answer was given;
- off-topic stopped: off-topic questions ended by the relevance cutoff;
- seconds per turn: mean and max over all questions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agent.conversation import ask_graph
from agent.settings import Settings
from agent.wiring import build_clients, open_services
from answers.citations import uncited_statements
from graph import Context, build_graph
from graph.prompts import OFFLINE_SUMMARY, UNCITED_NOTE
from graph.state import diagnostics_of

QUESTIONS = Path(__file__).parent / "questions" / "real_model.jsonl"


@dataclass
class Result:
    question: str
    expect: str
    seconds: float
    outcome: str  # answered | cutoff | reply | filter
    cited: bool = False  # the model's own text cites a valid passage
    flagged: bool = False
    degraded: bool = False
    gold_found: list[bool] = field(default_factory=list)


def model_text(answer: str) -> str:
    """The answer without the marked offline backup."""
    return answer.split(f"\n\n{UNCITED_NOTE} {OFFLINE_SUMMARY}", 1)[0]


def contains(text: str, keywords: list[str]) -> bool:
    """Every keyword appears in ``text`` as whole words, case-insensitive."""
    return all(re.search(rf"\b{re.escape(k)}\b", text, re.IGNORECASE) for k in keywords)


def outcome_of(state: dict[str, Any]) -> str:
    if state.get("cutoff"):
        return "cutoff"
    if state.get("filter_problem") or state.get("filters_only"):
        return "filter"
    return "answered" if state.get("intent") == "factual_query" else "reply"


def score(item: dict[str, Any], state: dict[str, Any], seconds: float) -> Result:
    """One turn's result against its gold statements."""
    diagnostics = diagnostics_of(state)
    check = diagnostics.get("citation_check") or {}
    answer = next((m.text for m in reversed(state.get("messages", [])) if m.type == "ai"), "")
    own = model_text(answer) if state.get("answer_source") == "model" else ""  # not a fallback
    return Result(
        question=item["question"],
        expect=item["expect"],
        seconds=seconds,
        outcome=outcome_of(state),
        cited=bool(check) and not check.get("uncited", True),
        flagged=bool(check.get("flagged")),
        degraded=bool(diagnostics.get("degraded")),
        gold_found=[contains(own, keywords) for keywords in item.get("gold", [])],
    )


def score_record(item: dict[str, Any], record: dict[str, Any]) -> Result:
    """:func:`score` from a turn's ``--json`` record (as ``--answers`` writes them); a model
    answer with statements that cite nothing counts as flagged, as Bosun now flags it, also in
    records written before it did."""
    answer = record.get("answer", "")
    partly = record.get("answer_source") == "model" and bool(uncited_statements(answer))
    if "result" in record:
        result = Result(**record["result"])
        result.flagged = result.flagged or partly
        return result
    outcome = (
        "cutoff"
        if record.get("cutoff")
        else "filter"
        if record.get("filter_problem")
        else ("answered" if record.get("intent") == "factual_query" else "reply")
    )
    return Result(
        question=item["question"],
        expect=item["expect"],
        seconds=float(record.get("timings", {}).get("total", 0.0)) / 1000.0,
        outcome=outcome,
        cited=record.get("answer_source") == "model"
        and UNCITED_NOTE not in answer
        and bool(record.get("citations")),
        flagged=bool(record.get("flagged")) or partly,
        degraded=bool(record.get("degraded")),
        gold_found=[
            contains(model_text(answer) if record.get("answer_source") == "model" else "", k)
            for k in item.get("gold", [])
        ],
    )


def summarize(answers: Path, questions: Path, label: str) -> str:
    """The table over the turns recorded in ``answers`` (a partial run included)."""
    items = {
        item["question"]: item
        for item in (json.loads(line) for line in questions.read_text().splitlines() if line)
    }
    records = [json.loads(line) for line in answers.read_text().splitlines() if line.strip()]
    results = [score_record(items[r["question"]], r) for r in records]
    return report(results, f"{label}, {len(results)} questions")


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100.0 * part / whole:.0f}%)" if whole else "-"


def report(results: list[Result], label: str) -> str:
    """The summary table (markdown)."""
    answered = [r for r in results if r.expect == "in_domain" and r.outcome == "answered"]
    in_domain = [r for r in results if r.expect == "in_domain"]
    off_topic = [r for r in results if r.expect == "off_topic"]
    gold = [found for r in in_domain for found in r.gold_found]
    seconds = [r.seconds for r in results]
    rows = [
        ("in-domain answered", share(len(answered), len(in_domain))),
        ("cited share", share(sum(r.cited for r in answered), len(answered))),
        ("flagged share", share(sum(r.flagged for r in answered), len(answered))),
        ("correct-statement share", share(sum(gold), len(gold))),
        ("degraded turns", share(sum(r.degraded for r in results), len(results))),
        ("off-topic stopped", share(sum(r.outcome == "cutoff" for r in off_topic), len(off_topic))),
        (
            "seconds per turn (mean / max)",
            f"{statistics.mean(seconds):.1f} / {max(seconds):.1f}" if seconds else "-",
        ),
    ]
    lines = [f"| {label} | |", "|---|---|"]
    lines += [f"| {name} | {value} |" for name, value in rows]
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> None:
    settings = Settings.from_env()
    items = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    items = items[args.skip :]
    items = items[: args.limit] if args.limit else items
    context = Context(max_passages=args.max_passages) if args.max_passages else None
    results: list[Result] = []
    async with open_services(settings) as services:
        graph = build_graph(build_clients(services, offline=args.offline))
        for item in items:
            turn = await ask_graph(
                graph,
                settings,
                thread_id=f"bench-{uuid.uuid4().hex}",
                question=item["question"],
                context=context,
            )
            result = score(item, turn.state, turn.seconds)
            results.append(result)
            if args.answers:
                record = {**turn.to_json(), "question": item["question"], "result": asdict(result)}
                with args.answers.open("a") as out:
                    out.write(json.dumps(record, default=str) + "\n")
            print(  # noqa: T201 - a benchmark prints its table
                f"{result.seconds:6.1f}s {result.outcome:8} cited={result.cited!s:5} "
                f"flagged={result.flagged!s:5} gold={result.gold_found} {item['question']}"
            )
    model = "offline extractive" if args.offline else (settings.chat_model or "offline extractive")
    print()  # noqa: T201
    print(report(results, f"{model}, {len(items)} questions"))  # noqa: T201


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--offline", action="store_true", help="no chat model: the baseline")
    parser.add_argument("--answers", type=Path, help="append each turn's JSON (answer, citations)")
    parser.add_argument("--limit", type=int, help="only the first N questions")
    parser.add_argument("--skip", type=int, default=0, help="start after the first N questions")
    parser.add_argument(
        "--max-passages", type=int, help="passages given to the model (default: the product's 8)"
    )
    parser.add_argument("--summarize", type=Path, help="only print the table of an --answers file")
    parser.add_argument("--label", default="chat model", help="the table's label (--summarize)")
    args = parser.parse_args()
    if args.summarize:
        print(summarize(args.summarize, args.questions, args.label))  # noqa: T201
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
