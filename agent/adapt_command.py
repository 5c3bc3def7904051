"""`bosun adapt` on the command line: its arguments, the training queries they name, and the
collection opened from settings; the fitting itself is :mod:`adapt.command`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from adapt.checked import Ranker, adapt_on_labels
from adapt.command import AdaptOptions, adapt_collection, format_report
from adapt.feedback import MIN_QUESTIONS, FeedbackLabel
from adapt.memory_fit import FOLDS, Pool, Ranked
from adapt.queries import QuerySource
from adapt.services import AdaptServices, Collection, OpenServices
from agent.arguments import positive_int
from agent.evaluation.beir import DatasetError, load_dataset
from agent.evaluation.folds import parse_fold, split_queries
from agent.evaluation.harness import EVAL_CHUNKS
from agent.evaluation.layers import Layers, layered_search
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.database import EmbeddingIdentity
from archive.store.passages import Passage
from archive.store.search_filters import SearchFilters
from providers.linear_head import apply_head, inverse_head
from providers.rerankers import rerank_text
from tools.click_residual import pool_features
from tools.pipeline import run_pipeline


def add_adapt_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``adapt`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "adapt",
        description="Learn from labels. Labels come from the operators' feedback the web app "
        "(bosun serve) stores for the collection: the citations they opened and the originals "
        "they downloaded are positives, unless the answer was thumbed down (a thumbs-up names "
        "no passage). From them bosun adapt fits a click vocabulary (which question words go with "
        "which words of the documents users opened, blended with the reranker's order), or when "
        "that is refused a click residual (a small linear correction of the reranker's order on "
        "its own features, each click weighted by one over the chance its place in the source "
        "list was looked at), and a click memory (for a new question close to "
        "labelled ones, the documents opened for those move up a bounded number of places); the "
        "embedder and the reranker stay as they are. Their settings are chosen by cross-validation "
        f"over every feedback question, and each is installed only when a nested {FOLDS}-fold "
        "check (each question ranked by one fitted without it) shows a mean nDCG@10 gain with "
        "more questions higher than lower; otherwise the current model stays. "
        f"Fewer than {MIN_QUESTIONS} feedback questions with an opened citation change nothing "
        "(exit 0). --queries (the qrels of a BEIR split, for the evaluation collections) also fit "
        "the embedder's linear head and the reranker on them (needs the [adapt] extra).",
    )
    parser.add_argument("--collection", help="collection to adapt (default: the archive)")
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=AdaptOptions.steps,
        help=f"at most this many training steps (default {AdaptOptions.steps})",
    )
    parser.add_argument(
        "--negatives",
        type=int,
        default=AdaptOptions.negatives,
        metavar="N",
        help=f"pairs given a hard negative by hybrid retrieval (default {AdaptOptions.negatives};"
        " 0: none)",
    )
    parser.add_argument(
        "--queries",
        type=Path,
        metavar="DATASET_DIR",
        help="a BEIR dataset whose split's queries add (query, relevant passage) pairs",
    )
    parser.add_argument("--split", help="split of --queries (default: the dataset's default)")
    parser.add_argument(
        "--hold-out",
        type=parse_fold,
        metavar="K/N",
        help="leave fold K of N of the --queries out (bosun eval --fold K/N scores it)",
    )
    parser.add_argument(
        "--reset",
        action="store_true",
        help="re-embed with the stock model and forget the adapted model and reranker",
    )
    parser.add_argument(
        "--no-calibrate",
        action="store_true",
        help="keep the shipped reranker (an ablation; by default a head is fitted twice: first "
        "without half the training queries, on which the reranker is fitted, then with all of "
        "them)",
    )
    parser.add_argument(
        "--no-mining",
        action="store_true",
        help="train on the labels only, without the pairs mined from the collection (an ablation)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


async def run_adapt(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``bosun adapt``; returns the exit status."""
    if settings.providers.embeddings != "local":
        write_err("bosun: adapt fine-tunes the local embedder; set BOSUN_EMBEDDINGS=local")
        return 2
    if args.hold_out and not args.queries:
        write_err("bosun: --hold-out needs --queries")
        return 2
    try:
        query_source = _query_source(args)
    except DatasetError as err:
        write_err(f"bosun: {err}")
        return 2
    collection = args.collection or settings.collection
    target = adapt_target(settings, collection)
    options = options_of(args)
    if options.reset:
        report = await adapt_collection(target, options, query_source)
    else:
        report = await adapt_on_labels(target, options, query_source, ranker(settings, collection))
    sys.stdout.write(
        (json.dumps(report, default=str) if args.json else format_report(report)) + "\n"
    )
    return 0


def ranker(settings: Settings, collection: str) -> Ranker:
    """Each labelled question ranked on ``collection`` as it is served without a click memory
    (hybrid retrieval and the reranker fitted for it: every candidate's document, in order),
    and the questions' stock-model vectors (mapped back through a head's inverse)."""

    async def rank(labels: list[FeedbackLabel]) -> tuple[list[Ranked], np.ndarray]:
        ranked = []
        async with open_services(settings, collection=collection) as opened:
            calibration = replace(opened.calibration, memory=None)
            services = replace(opened, calibration=calibration)
            search = await layered_search(services, Layers(), EVAL_CHUNKS)
            for label in labels:
                found = await run_pipeline(
                    search.pipeline, label.query, SearchFilters(), search.config
                )
                sources = tuple(c["source_id"] for c in found.ranked)
                ranked.append(
                    Ranked(
                        label.query,
                        label.relevant_sources,
                        sources,
                        search.pool,
                        pooled_of(label, found.ranked[: search.pool]),
                    )
                )
            texts = [label.query for label in labels]
            vectors = np.asarray(
                await asyncio.to_thread(services.embeddings.embed_documents, texts), np.float32
            )
            if calibration.head is not None:
                vectors = apply_head(inverse_head(calibration.head), vectors)
        return ranked, vectors

    return rank


def pooled_of(label: FeedbackLabel, pool: list[Passage]) -> Pool:
    """The reranked pool of a labelled question as the click residual learns from it."""
    return Pool(
        tuple(p["chunk_id"] for p in pool),
        np.asarray([p["rerank"] or 0.0 for p in pool], np.float64),
        pool_features(label.query, pool),
        label.clicked,
        tuple(rerank_text(p) for p in pool),
    )


def options_of(args: argparse.Namespace) -> AdaptOptions:
    """What the flags ask of :func:`adapt.command.adapt_collection`."""
    return AdaptOptions(
        steps=args.steps,
        negatives=args.negatives,
        calibrate=not args.no_calibrate,
        reset=args.reset,
        mine=not args.no_mining,
    )


def _query_source(args: argparse.Namespace) -> QuerySource:
    """(query id → text, query id → relevant corpus ids, description) of the training queries."""
    if not args.queries:
        return {}, {}, ""
    dataset = load_dataset(args.queries, args.split)
    queries = dataset.queries
    described = f"{dataset.name}/{dataset.split}"
    if args.hold_out:
        queries, _ = split_queries(queries, args.hold_out)
        described += f" without fold {args.hold_out}"
    relevant = {q: [d for d, g in dataset.qrels[q].items() if g > 0] for q in queries}
    return queries, relevant, described


def adapt_target(settings: Settings, collection: str) -> Collection:
    """``collection`` as `bosun adapt` works on it, opened from ``settings``."""
    return Collection(
        collection, _opener(settings, collection), settings.home, settings.database_uri()
    )


def _opener(settings: Settings, collection: str) -> OpenServices:
    """Opens ``collection`` as `bosun adapt` needs it: without the reranker and head fitted for
    it (adapt refits them)."""

    @contextlib.asynccontextmanager
    async def opened(
        *, embeddings: Embeddings | None = None, identity: EmbeddingIdentity | None = None
    ) -> AsyncIterator[AdaptServices]:
        async with open_services(
            settings,
            collection=collection,
            embeddings=embeddings,
            identity=identity,
            calibrated=False,
        ) as services:
            yield AdaptServices(
                services.store, services.embeddings, settings.home, settings.database_uri()
            )

    return opened


def write_err(text: str) -> None:
    sys.stderr.write(text + "\n")


__all__ = ["adapt_target", "add_adapt_parser", "options_of", "pooled_of", "ranker", "run_adapt"]
