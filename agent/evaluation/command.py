"""`bosun eval DATASET_DIR`: retrieval quality and latency on a BEIR-layout dataset."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from agent.evaluation.beir import DatasetError, load_dataset
from agent.evaluation.chart import write_chart
from agent.evaluation.harness import (
    DEFAULT_CHUNK_CHARS,
    EVAL_CHUNKS,
    EvalResult,
    collection_name,
    document_count,
    ensure_ingested,
    evaluate,
    read_runs,
    record_run,
)
from agent.services import open_services
from agent.settings import Settings
from tools.hybrid import RetrievalOptions


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``eval`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval", help="measure retrieval on a BEIR-layout dataset",
        description="Ingest a BEIR dataset into its own collection (once), run every query of a "
        "split, print nDCG@10, Recall@10, Recall@100, MRR@10 and per-stage latency.",
    )  # fmt: skip
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
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--limit", type=int, metavar="N", help="run only the first N queries")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="folder of the chart (default <BOSUN_HOME>/eval/<dataset>)",
    )
    parser.add_argument(
        "--chunk-chars",
        type=int,
        default=DEFAULT_CHUNK_CHARS,
        metavar="N",
        help=f"chunk size of the eval collection (default {DEFAULT_CHUNK_CHARS})",
    )
    return parser  # fmt: skip


def switches_of(args: argparse.Namespace) -> dict[str, Any]:
    """The switches that make a run configuration (what the chart compares)."""
    switches: dict[str, Any] = {"no_hybrid": args.no_hybrid, "lexical_only": args.lexical_only}
    if args.chunk_chars != DEFAULT_CHUNK_CHARS:
        switches["chunk_chars"] = args.chunk_chars
    if args.limit is not None:
        switches["limit"] = args.limit
    return switches


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
    options = RetrievalOptions(
        lexical=not args.no_hybrid, dense=not args.lexical_only, k=EVAL_CHUNKS
    )
    collection = collection_name(dataset.name, args.chunk_chars)
    async with open_services(settings, collection=collection) as services:
        if await document_count(services.store) != dataset.corpus_size:
            _err(f"ingesting {dataset.corpus_size} documents of {dataset.name} into collection "
                 f"{collection} (once; later runs reuse it)")  # fmt: skip
        stats = await ensure_ingested(
            services, dataset, chunk_chars=args.chunk_chars, progress=sys.stderr.isatty()
        )
        if stats.added:
            _err(f"ingested {stats.added} documents ({stats.chunks} chunks) in "
                 f"{stats.seconds:.0f} s")  # fmt: skip
        result = await evaluate(services, dataset, options=options, limit=args.limit)
    config = {
        "collection": collection, "chunk_chars": args.chunk_chars,
        "candidates": options.candidates, "similarity_floor": options.similarity_floor,
        "fusion": vars(options.fusion).copy(),
    }  # fmt: skip
    log = record_run(settings, result, switches_of(args), config)
    out = args.out or log.parent
    chart = write_chart(read_runs(log), dataset.name, dataset.split, out)
    if args.json:
        _out(json.dumps(result.summary()))
        if chart:
            _err(f"chart: {chart}")
    else:
        _out(format_result(result, label=_arms(args), collection=collection))
        if chart:
            _out(f"chart: {chart}")
    return 0


def _arms(args: argparse.Namespace) -> str:
    return "bm25 only" if args.lexical_only else "dense only" if args.no_hybrid else "hybrid"


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
