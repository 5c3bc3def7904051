"""`bosun eval-answers`: questions through the real graph, scored per kind of question."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from tqdm import tqdm

from agent.conversation import add_layer_args, context_from_args
from agent.evaluation.answer_kinds import (
    KindQuestion,
    read_gold_causes,
    read_kind_questions,
    run_kind_questions,
)
from agent.evaluation.answers import (
    EXPECTS,
    AnswerReport,
    Question,
    QuestionsError,
    ask_each,
    dataset_questions,
    format_report,
    read_questions,
)
from agent.evaluation.beir import DatasetError, load_dataset
from agent.evaluation.collections import (
    DEFAULT_CHUNK_CHARS,
    collection_name,
)

#: Stages whose cost the layers add, shown for every run of an ablation.
from agent.evaluation.command import prepare_collection, write_err, write_out
from agent.evaluation.folds import parse_fold, split_queries
from agent.evaluation.kind_report import failures, format_kinds, summarise, write_details
from agent.settings import Settings
from agent.wiring import build_clients, open_services
from graph.builder import build_graph
from providers.chat import build_chat_model

ANSWERS_HELP = """\
Run each question through the agent graph (one turn, its own thread; offline with no provider
keys) and report: the share of answers whose citations are all valid, the share of off-topic
questions stopped with no LLM call, the share of in-domain questions wrongly stopped, mean
citations per answer, and the counts.

QUESTIONS.jsonl holds one JSON object per line:
  {"question": "What is the capital of France?", "expect": "off_topic", "split": "heldout"}
  {"question": "Why did the engine lose power?", "expect": "in_domain"}
"expect" is off_topic (must be stopped before any LLM call) or in_domain (must be answered);
--expect fills it in for lines without it. "split" is optional; off-topic shares are also
reported per split. --dataset adds a BEIR split's queries as in-domain questions and runs
against that dataset's eval collection (the one `bosun eval` builds); otherwise the questions
run against the main archive (or --collection).

A file whose lines carry a "kind" (cause, fix, pattern, followup, count) is scored per kind
instead: does the answer contain the gold statement (an NTSB record's probable cause by
"report_no", read from --ntsb-records; a thread's fix), are its citations valid, are sentences
repeated, does a follow-up answer without repeating the first answer, was it wrongly stopped.
One table per kind, offline and, where a chat model is configured (and not --offline), with it:
  {"kind": "cause", "question": "What caused the accident CEN12LA244?", "report_no": "CEN12LA244"}
  {"kind": "fix", "question": "How was ... fixed?", "gold": "b2xx_fx3_utils --init-device"}
  {"kind": "pattern", "question": "common causes of fatal landing accidents", "min_documents": 3}
  {"kind": "followup", "question": "How was ... resolved?", "followup": "what caused it?"}
  {"kind": "count", "question": "How many accidents in Texas in 2011 were fatal?", "count": 31}
  {"kind": "fix", "question": "What fixed ...?", "thread_id": "...", "message_id": "<the reply>",
   "gold": ["key phrase", ...]}  (a thread question: the phrases cited to that message)
A count answer is exact when the first number it states is "count" (column "exact n"). A
pattern line with "set" and "dominant" (benchmarks/questions/make_pattern_questions.py) passes
(column "groups") when the answer lists named groups with counts, states the set, cites two
documents for each top group and names the dominant group among the top three; a line with
"min_groups" or "dominant_messages" (mail threads) needs the named groups and cited examples,
and one of the top three groups citing a message whose Message-ID starts with a listed prefix."""

#: Where the shared NTSB records are, relative to the project root.
NTSB_RECORDS = Path("../shared/data/ntsb/reports_2010_2016.jsonl")


def add_eval_answers_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval-answers`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval-answers",
        description=ANSWERS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("questions", nargs="*", type=Path, metavar="QUESTIONS.jsonl")
    parser.add_argument("--expect", choices=EXPECTS, help="for lines without an expect field")
    parser.add_argument(
        "--dataset",
        type=Path,
        metavar="DIR",
        help="BEIR folder whose queries are asked as in-domain questions, on its eval collection",
    )
    parser.add_argument("--split", help="split of --dataset (default: test, dev, train)")
    parser.add_argument(
        "--limit", type=int, metavar="N", help="ask only N of the dataset's queries"
    )
    parser.add_argument(
        "--fold",
        type=parse_fold,
        metavar="K/N",
        help="ask only the dataset's queries in fold K of N (held out by `bosun adapt --hold-out`)",
    )
    parser.add_argument("--collection", help="collection to ask (default: the main archive)")
    parser.add_argument("--no-hybrid", action="store_true", help="vector search only")
    add_layer_args(parser)
    parser.add_argument(
        "--offline", action="store_true", help="no chat model even if one is configured"
    )
    parser.add_argument(
        "--details",
        type=Path,
        metavar="FILE",
        help="also write each question's outcome to FILE (JSONL)",
    )
    parser.add_argument(
        "--ntsb-records",
        type=Path,
        default=NTSB_RECORDS,
        metavar="JSONL",
        help=f"NTSB records with the gold probable causes (default {NTSB_RECORDS})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _is_kind_file(path: Path) -> bool:
    """Whether ``path``'s first question carries a "kind" (scored per kind)."""
    try:
        first = next((ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()), "")
        row = json.loads(first) if first else {}
    except (OSError, json.JSONDecodeError):
        return False  # read_questions reports the problem
    return isinstance(row, dict) and "kind" in row


async def run_kind_eval(settings: Settings, args: argparse.Namespace, paths: list[Path]) -> int:
    """``eval-answers`` over per-kind question files: one table offline, one with the model."""
    try:
        gold = read_gold_causes(args.ntsb_records)
        questions: list[KindQuestion] = []
        for path in paths:
            questions += read_kind_questions(path, gold_causes=gold)
        questions = questions[: args.limit]
    except (QuestionsError, ValueError) as err:
        write_err(f"bosun: {err}")
        return 2
    reports: dict[str, Any] = {}
    async with open_services(settings, collection=args.collection) as services:
        modes = [True] if args.offline or build_chat_model(settings) is None else [True, False]
        for offline in modes:
            label = "offline" if offline else "chat model"
            graph = build_graph(  # follow-ups need the conversation: kept in memory
                build_clients(services, offline=offline), checkpointer=InMemorySaver()
            )
            progress = tqdm(
                total=len(questions),
                desc=label,
                disable=not sys.stderr.isatty(),
                file=sys.stderr,
                leave=False,
            )
            results = await run_kind_questions(
                graph, questions, context_from_args(args), progress=progress
            )
            progress.close()
            reports[label] = {"kinds": summarise(results), "failures": failures(results)}
            if args.details is not None:
                write_details(args.details, label, results)
        schema = services.store.schema
    if args.json:
        write_out(json.dumps({"collection": schema, **reports}))
        return 0
    for label, report in reports.items():
        write_out(format_kinds(report["kinds"], label=f"{label}, collection {schema}"))
        for item in report["failures"]:
            write_out(
                f"  missed {','.join(item['missed'])}: [{item['kind']}] {item['question'][:80]}"
            )
    return 0


def asked_queries(queries: dict[str, str], args: argparse.Namespace) -> dict[str, str]:
    """The dataset's queries asked: those of ``--fold`` when given, the first ``--limit``."""
    if args.fold is not None:
        queries = split_queries(queries, args.fold)[1]
    return dict(list(queries.items())[: args.limit])


async def run_eval_answers(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``bosun eval-answers``; 2 for unusable input."""
    kind_files = [p for p in args.questions if _is_kind_file(p)]
    if kind_files:
        if len(kind_files) != len(args.questions) or args.dataset:
            write_err("bosun: per-kind question files cannot be mixed with other questions")
            return 2
        return await run_kind_eval(settings, args, kind_files)
    questions: list[Question] = []
    try:
        for path in args.questions:
            questions += read_questions(path, default_expect=args.expect)
        dataset = load_dataset(args.dataset, args.split) if args.dataset else None
    except (QuestionsError, DatasetError) as err:
        write_err(f"bosun: {err}")
        return 2
    if args.limit is not None and args.limit < 1:
        write_err("bosun: --limit must be at least 1")
        return 2
    if dataset is not None:
        questions += dataset_questions(
            asked_queries(dataset.queries, args), f"{dataset.name}/{dataset.split}"
        )
    if not questions:
        write_err("bosun: no questions: give QUESTIONS.jsonl files, --dataset, or both")
        return 2
    collection = collection_name(dataset.name) if dataset else args.collection
    async with open_services(settings, collection=collection) as services:
        if dataset is not None:
            await prepare_collection(services, dataset, DEFAULT_CHUNK_CHARS, services.store.schema)
        graph = build_graph(build_clients(services, offline=args.offline))
        progress = tqdm(
            total=len(questions),
            desc="questions",
            disable=not sys.stderr.isatty(),
            file=sys.stderr,
            leave=False,
        )
        outcomes = await ask_each(graph, questions, context_from_args(args), progress=progress)
        progress.close()
        schema = services.store.schema
    summary = AnswerReport(outcomes).summary()
    if args.details:
        args.details.parent.mkdir(parents=True, exist_ok=True)
        args.details.write_text(
            "".join(json.dumps(o.to_json()) + "\n" for o in outcomes), encoding="utf-8"
        )
    write_out(json.dumps(summary) if args.json else format_report(summary, collection=schema))
    return 0
