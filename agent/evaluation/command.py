"""`bosun eval DATASET_DIR`: retrieval quality and latency on a BEIR-layout dataset, through the
same query-time layers as the agent (:mod:`agent.evaluation.layers`); ``--ablation`` compares the
layer combinations worth comparing in one table and one chart."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from tqdm import tqdm

from agent.arguments import positive_int
from agent.conversation import add_layer_args, context_from_args
from agent.evaluation.answer_kinds import (
    KindQuestion,
    failures,
    format_kinds,
    read_gold_causes,
    read_kind_questions,
    run_kind_questions,
    summarise,
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
from agent.evaluation.beir import BeirDataset, DatasetError, load_dataset
from agent.evaluation.chart import write_chart
from agent.evaluation.collections import (
    DEFAULT_CHUNK_CHARS,
    collection_name,
    document_count,
    ensure_ingested,
)
from agent.evaluation.harness import (
    EVAL_CHUNKS,
    EvalResult,
    evaluate,
    read_runs,
    record_run,
    runs_file,
)
from agent.evaluation.layers import ABLATION, LayeredSearch, Layers, layered_search
from agent.settings import Settings
from agent.wiring import Services, build_clients, open_services
from graph.builder import build_graph
from graph.context import Context
from providers.chat import build_chat_model
from tools.hybrid import RetrievalOptions

#: Stages whose cost the layers add, shown for every run of an ablation.
LAYER_STAGES = ("expand", "topics", "rerank", "cutoff", "total")


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval",
        help="measure retrieval on a BEIR-layout dataset",
        description="Ingest a BEIR dataset into its own collection (once), run every query of a "
        "split through the agent's query-time layers (expansion, topic filter, hybrid retrieval, "
        "rerank, cutoff: the switches below, the product's defaults unless given), print "
        "nDCG@10, Recall@10, Recall@100, MRR@10 and per-stage latency p50/p95.",
    )
    parser.add_argument(
        "dataset",
        type=Path,
        metavar="DATASET_DIR",
        help="folder with corpus.jsonl, queries.<split>.jsonl, qrels/<split>.tsv",
    )
    parser.add_argument("--split", help="split to run (default: test, dev, train, in that order)")
    arms = parser.add_mutually_exclusive_group()
    arms.add_argument("--no-hybrid", action="store_true", help="vector search only")
    arms.add_argument("--lexical-only", action="store_true", help="BM25 only")
    add_layer_args(parser)
    parser.add_argument(
        "--ablation",
        action="store_true",
        help="run the layer combinations worth comparing (bm25, dense, hybrid, hybrid+rerank = "
        "default, +expand, +topics) instead of one configuration: one table, one chart",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--limit", type=positive_int, metavar="N", help="run only the first N queries"
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder of the chart (default <BOSUN_HOME>/eval/<dataset>)",
    )
    parser.add_argument(
        "--chunk-chars",
        type=positive_int,
        default=DEFAULT_CHUNK_CHARS,
        metavar="N",
        help=f"chunk size of the eval collection (default {DEFAULT_CHUNK_CHARS})",
    )
    return parser


def layers_of(args: argparse.Namespace) -> Layers:
    """The configuration the switches ask for."""
    return Layers(
        lexical=not args.no_hybrid,
        dense=not args.lexical_only,
        rerank=args.rerank,
        expand=args.expand,
        topics=args.topics,
        score_cutoff=args.score_cutoff,
    )


def switches_of(args: argparse.Namespace, layers: Layers | None = None) -> dict[str, Any]:
    """The switches that make a run configuration (what the chart compares)."""
    switches = (layers or layers_of(args)).switches()
    if args.chunk_chars != DEFAULT_CHUNK_CHARS:
        switches["chunk_chars"] = args.chunk_chars
    if args.limit is not None:
        switches["limit"] = args.limit
    return switches


@dataclass
class LayerRun:
    """One configuration's result and what its layers decided."""

    layers: Layers
    result: EvalResult
    search: LayeredSearch

    def summary(self) -> dict[str, Any]:
        summary = {
            "configuration": self.layers.label,
            "default": self.layers.is_default,
            **self.result.summary(),
        }
        if self.layers.rerank:
            summary["stopped_by_cutoff"] = self.search.stopped
        if self.layers.topics:
            summary["topic_decisions"] = dict(self.search.topic_decisions)
        return summary


async def run_eval(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``bosun eval``; returns the exit status (2 for a dataset that cannot be used)."""
    try:
        dataset = load_dataset(args.dataset, args.split)
    except DatasetError as err:
        _err(f"bosun: {err}")
        return 2
    if args.limit is not None and args.limit < 1:
        _err("bosun: --limit must be at least 1")
        return 2
    configurations = list(ABLATION) if args.ablation else [layers_of(args)]
    collection = collection_name(dataset.name, args.chunk_chars)
    runs: list[LayerRun] = []
    async with open_services(settings, collection=collection) as services:
        await _prepare(services, dataset, args.chunk_chars, collection)
        for layers in configurations:
            if args.ablation:
                _err(f"running {layers.label} ...")
            search = await layered_search(services, layers, EVAL_CHUNKS)
            result = await evaluate(services, dataset, limit=args.limit, search=search)
            runs.append(LayerRun(layers, result, search))
    options = RetrievalOptions()
    config = {
        "collection": collection,
        "chunk_chars": args.chunk_chars,
        "candidates": options.candidates,
        "similarity_floor": options.similarity_floor,
        "fusion": vars(options.fusion).copy(),
        "rerank_pool": Context().candidates,
    }
    for run in runs:
        record_run(settings, run.result, switches_of(args, run.layers), config)
    log = runs_file(settings, dataset.name)
    out = args.out or log.parent
    if args.ablation:
        chart = write_chart(
            _logged(read_runs(log), runs, args),
            dataset.name,
            dataset.split,
            out,
            name=f"{dataset.name}_{dataset.split}_ablation",
        )
        text = format_ablation(runs, collection=collection)
        data: dict[str, Any] = {
            "dataset": dataset.name,
            "split": dataset.split,
            "runs": [r.summary() for r in runs],
        }
    else:
        chart = write_chart(read_runs(log), dataset.name, dataset.split, out)
        (run,) = runs
        text = format_result(run.result, label=run.layers.label, collection=collection)
        text += _decisions(run)
        data = run.summary()
    if args.json:
        _out(json.dumps(data))
        if chart:
            _err(f"chart: {chart}")
    else:
        _out(text)
        if chart:
            _out(f"chart: {chart}")
    return 0


async def _prepare(
    services: Services, dataset: BeirDataset, chunk_chars: int, collection: str
) -> None:
    if await document_count(services.store) != dataset.corpus_size:
        _err(
            f"ingesting {dataset.corpus_size} documents of {dataset.name} into collection "
            f"{collection} (once; later runs reuse it)"
        )
    stats = await ensure_ingested(
        services, dataset, chunk_chars=chunk_chars, progress=sys.stderr.isatty()
    )
    if stats.added:
        _err(f"ingested {stats.added} documents ({stats.chunks} chunks) in {stats.seconds:.0f} s")


def _logged(
    logged: list[dict[str, Any]], runs: list[LayerRun], args: argparse.Namespace
) -> list[dict[str, Any]]:
    """The logged runs of this ablation's configurations (the latest of each is drawn)."""
    wanted = [json.dumps(switches_of(args, r.layers), sort_keys=True) for r in runs]
    return [r for r in logged if json.dumps(r.get("switches", {}), sort_keys=True) in wanted]


def _decisions(run: LayerRun) -> str:
    lines = []
    if run.layers.rerank:
        lines.append(
            f"  relevance cutoff would stop {run.search.stopped} of {run.search.queries} queries"
        )
    if run.search.topic_decisions:
        shares = ", ".join(f"{k} {v}" for k, v in sorted(run.search.topic_decisions.items()))
        lines.append(f"  topic filter: {shares}")
    return "".join("\n" + line for line in lines)


def format_ablation(runs: list[LayerRun], *, collection: str) -> str:
    """One markdown table: each configuration's metrics and change against the default, then the
    p50/p95 of each stage the layers add."""
    first = runs[0].result
    base = next((r for r in runs if r.layers.is_default), runs[0]).result.metrics["ndcg@10"]
    lines = [
        f"{first.dataset}/{first.split}: {first.queries} queries, ablation "
        f"(collection {collection})",
        "",
        "| configuration | nDCG@10 | Δ default | Recall@10 | Recall@100 | MRR@10 | stopped |",
        "|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        m = run.result.metrics
        name = run.layers.label + (" (default)" if run.layers.is_default else "")
        stopped = str(run.search.stopped) if run.layers.rerank else "–"
        lines.append(
            f"| {name} | {m['ndcg@10']:.4f} | {m['ndcg@10'] - base:+.4f} | "
            f"{m['recall@10']:.4f} | {m['recall@100']:.4f} | {m['mrr@10']:.4f} | {stopped} |"
        )
    lines += [
        "",
        "| configuration | " + " | ".join(f"{s} p50 / p95 ms" for s in LAYER_STAGES) + " |",
        "|---|" + "---|" * len(LAYER_STAGES),
    ]
    for run in runs:
        cells = []
        for stage in LAYER_STAGES:
            values = run.result.latency_ms.get(stage)
            cells.append(f"{values['p50']:.1f} / {values['p95']:.1f}" if values else "–")
        lines.append(f"| {run.layers.label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def format_result(result: EvalResult, *, label: str, collection: str) -> str:
    """The human-readable report: metrics, then p50/p95 latency per stage."""
    m = result.metrics
    lines = [
        f"{result.dataset}/{result.split}: {result.queries} queries, {label} "
        f"(collection {collection})",
        f"  nDCG@10 {m['ndcg@10']:.4f}   Recall@10 {m['recall@10']:.4f}   "
        f"Recall@100 {m['recall@100']:.4f}   MRR@10 {m['mrr@10']:.4f}",
        f"  {'latency ms':<12}{'p50':>9}{'p95':>9}",
    ]
    for stage, values in result.latency_ms.items():
        lines.append(f"  {stage:<12}{values['p50']:>9.2f}{values['p95']:>9.2f}")
    return "\n".join(lines)


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")


# --- bosun eval-answers ---------------------------------------------------------------------

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

A file whose lines carry a "kind" (cause, fix, pattern, followup) is scored per kind instead: does
the answer contain the gold statement (an NTSB record's probable cause by "report_no", read from
--ntsb-records; a thread's fix), are its citations valid, are sentences repeated, does a
follow-up answer without repeating the first answer, was it wrongly stopped. One table per kind,
offline and, where a chat model is configured (and not --offline), with it:
  {"kind": "cause", "question": "What caused the accident CEN12LA244?", "report_no": "CEN12LA244"}
  {"kind": "fix", "question": "How was ... fixed?", "gold": "b2xx_fx3_utils --init-device"}
  {"kind": "pattern", "question": "common causes of fatal landing accidents", "min_documents": 3}
  {"kind": "followup", "question": "How was ... resolved?", "followup": "what caused it?"}"""

#: Where the shared NTSB records are, relative to the project root.
NTSB_RECORDS = Path("../shared/data/ntsb/reports_2010_2016.jsonl")


def add_eval_answers_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval-answers`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval-answers",
        help="answer-level evaluation through the agent graph",
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
    except (QuestionsError, ValueError) as err:
        _err(f"bosun: {err}")
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
        schema = services.store.schema
    if args.json:
        _out(json.dumps({"collection": schema, **reports}))
        return 0
    for label, report in reports.items():
        _out(format_kinds(report["kinds"], label=f"{label}, collection {schema}"))
        for item in report["failures"]:
            _out(f"  missed {','.join(item['missed'])}: [{item['kind']}] {item['question'][:80]}")
    return 0


async def run_eval_answers(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``bosun eval-answers``; 2 for unusable input."""
    kind_files = [p for p in args.questions if _is_kind_file(p)]
    if kind_files:
        if len(kind_files) != len(args.questions) or args.dataset:
            _err("bosun: per-kind question files cannot be mixed with other questions")
            return 2
        return await run_kind_eval(settings, args, kind_files)
    questions: list[Question] = []
    try:
        for path in args.questions:
            questions += read_questions(path, default_expect=args.expect)
        dataset = load_dataset(args.dataset, args.split) if args.dataset else None
    except (QuestionsError, DatasetError) as err:
        _err(f"bosun: {err}")
        return 2
    if args.limit is not None and args.limit < 1:
        _err("bosun: --limit must be at least 1")
        return 2
    if dataset is not None:
        queries = dict(list(dataset.queries.items())[: args.limit])
        questions += dataset_questions(queries, f"{dataset.name}/{dataset.split}")
    if not questions:
        _err("bosun: no questions: give QUESTIONS.jsonl files, --dataset, or both")
        return 2
    collection = collection_name(dataset.name) if dataset else args.collection
    async with open_services(settings, collection=collection) as services:
        if dataset is not None:
            await _prepare(services, dataset, DEFAULT_CHUNK_CHARS, services.store.schema)
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
    _out(json.dumps(summary) if args.json else format_report(summary, collection=schema))
    return 0
