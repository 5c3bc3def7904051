"""`bosun adapt` on the command line: its arguments, the training queries they name, and the
collection opened from settings; the fitting itself is :mod:`adapt.command`."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from adapt.checked import TOLERANCE, Scorer, adapt_on_labels
from adapt.command import AdaptOptions, adapt_collection, format_report
from adapt.feedback import MIN_HELD, MIN_TRAIN, FeedbackLabel
from adapt.queries import QuerySource
from adapt.services import AdaptServices, Collection, OpenServices
from agent.arguments import positive_int
from agent.evaluation.beir import DatasetError, load_dataset
from agent.evaluation.folds import parse_fold, split_queries
from agent.evaluation.harness import EVAL_CHUNKS
from agent.evaluation.layers import Layers, layered_search
from agent.evaluation.metrics import aggregate_documents, ndcg_at_k
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.database import EmbeddingIdentity


def add_adapt_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``adapt`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "adapt",
        description="Fit the collection's embedder (a linear head on MiniLM; needs the [adapt] "
        "extra) and its reranker on labels. Labels come from the operators' feedback the web "
        "app stores for the collection (bosun serve): the citations they opened and the "
        "originals they downloaded are positives (unless the answer was thumbed down; a "
        "thumbs-up names no passage); passages shown above an opened one and left alone, and "
        "those of thumbed-down answers, are negatives; and from --queries. A fifth of the "
        "feedback questions is held back: the fitted model is scored on it (nDCG@10, question "
        "by question) before and after, and refused when its mean drops by more than "
        f"{TOLERANCE}. "
        f"Without --queries, fewer than {MIN_TRAIN} feedback questions to train on or "
        f"{MIN_HELD} held back change nothing (exit 0).",
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
        report = await adapt_on_labels(target, options, query_source, scorer(settings, collection))
    sys.stdout.write(
        (json.dumps(report, default=str) if args.json else format_report(report)) + "\n"
    )
    return 0


def scorer(settings: Settings, collection: str) -> Scorer:
    """nDCG@10 of each labelled question on ``collection`` as it is served now: its labelled
    documents ranked among every candidate of hybrid retrieval and the reranker fitted for it
    (documents by their best passage), not only among the passages its user was shown."""

    async def score(labels: list[FeedbackLabel]) -> list[float]:
        scores = []
        async with open_services(settings, collection=collection) as services:
            search = await layered_search(services, Layers(), EVAL_CHUNKS)
            for label in labels:
                found = await search(label.query)
                ranked = aggregate_documents(
                    [(c["source_id"], c["score"]) for c in found.candidates]
                )
                scores.append(ndcg_at_k(ranked, dict.fromkeys(label.relevant_sources, 1), 10))
        return scores

    return score


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


__all__ = ["adapt_target", "add_adapt_parser", "options_of", "run_adapt"]
