"""`bosun eval DATASET_DIR`: retrieval quality and latency on a BEIR-layout dataset, through the
same query-time layers as the agent (:mod:`agent.evaluation.layers`); ``--ablation`` compares the
layer combinations worth comparing in one table and one chart."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from agent.arguments import positive_int
from agent.conversation import add_layer_args
from agent.evaluation.beir import BeirDataset, DatasetError, load_dataset
from agent.evaluation.collections import (
    DEFAULT_CHUNK_CHARS,
    collection_name,
    document_count,
    ensure_ingested,
    read_reranker_training,
    read_training,
)
from agent.evaluation.folds import Fold, parse_fold, split_queries
from agent.evaluation.harness import (
    EVAL_CHUNKS,
    EvalResult,
    evaluate,
    read_runs,
    record_run,
    runs_file,
)
from agent.evaluation.layers import LayeredSearch, Layers, ablation_of, layered_search
from agent.settings import Settings
from agent.wiring import Services, open_services
from tools.retrieval_config import RetrievalConfig

#: Stages whose cost the layers add, shown for every run of an ablation.
LAYER_STAGES = ("expand", "topics", "rerank", "cutoff", "total")


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval",
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
        "default, the shipped reranker where `bosun adapt` fitted one, +expand, +topics) instead "
        "of one configuration: one table, one chart",
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
        "--fold",
        type=parse_fold,
        metavar="K/N",
        help="run only the queries of fold K of N (held out by bosun adapt --hold-out K/N)",
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
    if args.fold is not None:
        switches["fold"] = str(args.fold)
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
        dataset = _dataset(args)
    except DatasetError as err:
        write_err(f"bosun: {err}")
        return 2
    if args.limit is not None and args.limit < 1:
        write_err("bosun: --limit must be at least 1")
        return 2
    collection = collection_name(dataset.name, args.chunk_chars)
    runs: list[LayerRun] = []
    async with open_services(settings, collection=collection) as services:
        await prepare_collection(services, dataset, args.chunk_chars, collection)
        embedder = await embedder_note(services, dataset, args.fold)
        configurations = ablation_of(services) if args.ablation else [layers_of(args)]
        for layers in configurations:
            if args.ablation:
                write_err(f"running {layers.label} ...")
            search = await layered_search(services, layers, EVAL_CHUNKS)
            result = await evaluate(services, dataset, limit=args.limit, search=search)
            runs.append(LayerRun(layers, result, search))
    config = run_config(collection, args.chunk_chars, embedder)
    for run in runs:
        logged = {**config, "rerank_pool": run.search.pool}
        record_run(settings, run.result, switches_of(args, run.layers), logged)
    from agent.evaluation.chart import write_chart  # matplotlib: only an eval run needs it

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
    text += f"\nembedder: {_described(embedder)}"
    if args.json:
        write_out(json.dumps(data))
        if chart:
            write_err(f"chart: {chart}")
    else:
        write_out(text)
        if chart:
            write_out(f"chart: {chart}")
    return 0


def run_config(collection: str, chunk_chars: int, embedder: dict[str, Any]) -> dict[str, Any]:
    """What the run log records about the retrieval setup of a run."""
    options = RetrievalConfig()
    config = {
        "collection": collection,
        "chunk_chars": chunk_chars,
        "candidates": options.arm_rows,
        "similarity_floor": options.similarity_floor,
        "fusion": vars(options.fusion).copy(),
        "embedding_model": embedder["model"],
    }
    if embedder.get("training"):
        config["embedder_training"] = embedder["training"]
    if embedder.get("reranker_training"):
        config["reranker_training"] = embedder["reranker_training"]
    return config


def _described(embedder: dict[str, Any]) -> str:
    """``local:…-adapted-<sha> (bosun adapt on …)`` for the text report."""
    training = embedder.get("training")
    if not training:
        return str(embedder["model"])
    queries = training.get("queries") or "the corpus only"
    sample = " (in-sample)" if embedder.get("in_sample") else ""
    return f"{embedder['model']} (bosun adapt, queries: {queries}){sample}"


def _dataset(args: argparse.Namespace) -> BeirDataset:
    """The dataset's split, only the queries of ``--fold`` when given."""
    dataset = load_dataset(args.dataset, args.split)
    if args.fold is None:
        return dataset
    return replace(dataset, queries=split_queries(dataset.queries, args.fold)[1])


async def embedder_note(
    services: Services, dataset: BeirDataset, fold: Fold | None
) -> dict[str, Any]:
    """The collection's embedding model and what an adapted one was trained on; warns when the
    adapted model saw queries of the split being scored (an in-sample figure)."""
    note: dict[str, Any] = {"model": services.store.identity.model}
    reranker = await read_reranker_training(services.store)
    if reranker is not None:
        note["reranker_training"] = reranker
    training = await read_training(services.store)
    if training is None:
        return note
    note["training"] = training
    seen = training.get("queries") or ""
    if seen.startswith(f"{dataset.name}/{dataset.split}") and (
        fold is None or not seen.endswith(f"without fold {fold}")
    ):
        write_err(
            f"warning: the collection's adapted embedder was trained on {seen}: "
            "these figures are in-sample (use --fold with the held-out fold)"
        )
        note["in_sample"] = True
    return note


async def prepare_collection(
    services: Services, dataset: BeirDataset, chunk_chars: int, collection: str
) -> None:
    if await document_count(services.store) != dataset.corpus_size:
        write_err(
            f"ingesting {dataset.corpus_size} documents of {dataset.name} into collection "
            f"{collection} (once; later runs reuse it)"
        )
    stats = await ensure_ingested(
        services, dataset, chunk_chars=chunk_chars, progress=sys.stderr.isatty()
    )
    if stats.added:
        write_err(
            f"ingested {stats.added} documents ({stats.chunks} chunks) in {stats.seconds:.0f} s"
        )


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


def write_out(text: str) -> None:
    sys.stdout.write(text + "\n")


def write_err(text: str) -> None:
    sys.stderr.write(text + "\n")
