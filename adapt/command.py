"""`bosun adapt`: fine-tune the local embedder on pairs mined from a collection, export it as int8
ONNX next to the collection, re-embed the collection and record the model's hash in it.

Mining, training and export are :mod:`tools.pair_mining` and :mod:`providers.finetune`; this module
chooses the pairs, runs the steps in order and reports. ``--queries`` adds (query, relevant
passage) pairs of a BEIR split for the evaluation collections, leaving out the queries of the
``--hold-out`` fold so that ``bosun eval --fold`` scores queries the model never saw.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

from agent.adapt_calibration import Calibrated, collect, fit_calibration, record_calibration
from agent.adapt_head import (
    adapt_head,
    adapt_report,
    adapted_meta,
    install_model,
    start_from_stock,
)
from agent.adapt_queries import (
    QuerySource,
    cross_fit_plan,
    off_topic_questions,
    query_pairs,
    vocabulary_model,
)
from agent.adapt_reset import reset
from agent.arguments import positive_int
from agent.evaluation.beir import DatasetError, load_dataset
from agent.evaluation.folds import parse_fold, split_queries
from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.reembed import reembed_collection
from archive.store.embedder import (
    CALIBRATION_KEYS,
    HEAD_SHA_KEY,
    adapted_model_id,
)
from archive.store.locks import rewriting
from providers.finetune import AdaptUnavailable, Pair, TrainConfig, export_int8, train
from providers.linear_head import head_file
from providers.minilm import adapted_minilm
from tools.pair_mining import (
    MinedChunk,
    add_hard_negatives,
    count_sources,
    mine_chunks,
    stored_chunks,
)

logger = logging.getLogger(__name__)


def add_adapt_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``adapt`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "adapt",
        description="Mine (anchor, passage) pairs from what the collection holds (report "
        "sections, mail threads, titles, sentences of a passage), add hard negatives from "
        "Bosun's hybrid retrieval, fine-tune MiniLM (needs the [adapt] extra), export it as int8 "
        "ONNX under BOSUN_HOME/models, re-embed the collection and record the model's sha256.",
    )
    parser.add_argument("--collection", help="collection to adapt (default: the archive)")
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=TrainConfig.steps,
        help=f"at most this many training steps (default {TrainConfig.steps})",
    )
    parser.add_argument(
        "--epochs",
        type=positive_int,
        default=1,
        help="at most this many passes over the mined pairs (default 1)",
    )
    parser.add_argument("--batch-size", type=positive_int, default=TrainConfig.batch_size)
    parser.add_argument(
        "--negatives",
        type=int,
        default=400,
        metavar="N",
        help="pairs given a hard negative by hybrid retrieval (default 400; 0: none)",
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
        "--mode",
        choices=("head", "full"),
        default="head",
        help="head: fit a linear head on the stock model and map the stored vectors through it "
        "(minutes); full: fine-tune the upper layers and re-embed every passage (2-3 s a step "
        "and the passages' embedding on 2 cores; measured no better than the head)",
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
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


async def run_adapt(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``bosun adapt``; returns the exit status."""
    collection = args.collection or settings.collection
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
    waiting = f"waiting for the runs writing collection {collection!r} (ingest, delete, adapt)"
    async with rewriting(settings.database_uri(), collection, on_wait=lambda: write_err(waiting)):
        report = await _adapt_collection(settings, collection, args, query_source)
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        sys.stdout.write(_format(report) + "\n")
    return 0


async def _adapt_collection(
    settings: Settings, collection: str, args: argparse.Namespace, query_source: QuerySource
) -> dict[str, Any]:
    """Adapt or reset ``collection`` (no other run writes it meanwhile); returns the report."""
    if args.mode == "head" and not args.reset:
        async with open_services(settings, collection=collection, calibrated=False) as services:
            undone = await start_from_stock(services)
        if undone:
            seconds = undone["seconds"]
            write_err(
                f"started from the stock model: the previous head was undone in {seconds:.0f} s"
            )
    if args.reset:
        return await reset(settings, collection)
    if not (args.no_calibrate or args.mode == "full"):
        return await adapt_calibrated(settings, collection, args, query_source)
    if args.mode == "full" and not args.no_calibrate:
        logger.warning(
            "a full fine-tune keeps the shipped reranker and the stock cutoff thresholds "
            "(applied to its own cosines: the stock vectors cannot be recovered)"
        )
    async with open_services(settings, collection=collection, calibrated=False) as services:
        return await adapt(services, args, query_source)


async def adapt_calibrated(
    settings: Settings, collection: str, args: argparse.Namespace, query_source: QuerySource
) -> dict[str, Any]:
    """Cross-fit: for each half of the training queries, fit a head without it and collect that
    half's candidates and cosines; fit the reranker on both halves; then fit the head on every
    training query and record the reranker for it. Each step reopens the collection: queries
    are embedded by the model it holds at that point."""
    started = time.perf_counter()
    async with open_services(settings, collection=collection, calibrated=False) as services:
        chunks = await stored_chunks(services.store)
    plan = cross_fit_plan(chunks, query_source)
    if not any(plan.halves):
        logger.warning("no training queries or question-like anchors: the shipped reranker stays")
        async with open_services(settings, collection=collection, calibrated=False) as services:
            report = await adapt(services, args, query_source, chunks=chunks)
            report["calibration"] = await record_calibration(services, Calibrated(None))
        return report
    off_topic = off_topic_questions()
    collected = []
    for half, source, skip in zip(plan.halves, plan.head_sources, plan.skip_anchors, strict=True):
        async with open_services(settings, collection=collection, calibrated=False) as services:
            fitted = await adapt(services, args, source, skip_anchors=skip, chunks=chunks)
        write_err(f"cross-fit head in {fitted['seconds']:.0f} s; collecting {len(half)} queries")
        vocabulary = await asyncio.to_thread(vocabulary_model, chunks, source, skip)
        async with open_services(settings, collection=collection, calibrated=False) as services:
            collected.append(await collect(services, half, off_topic, vocabulary))
    vocabulary = await asyncio.to_thread(vocabulary_model, chunks, query_source, frozenset())
    calibrated = await asyncio.to_thread(fit_calibration, collected, plan.described, vocabulary)
    async with open_services(settings, collection=collection, calibrated=False) as services:
        report = await adapt(services, args, query_source, chunks=chunks)
        report["calibration"] = await record_calibration(services, calibrated)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


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


async def adapt(
    services: Services,
    args: argparse.Namespace,
    query_source: QuerySource,
    *,
    skip_anchors: frozenset[str] = frozenset(),
    chunks: list[MinedChunk] | None = None,
) -> dict[str, Any]:
    """Mine (leaving out ``skip_anchors``), train, export, re-embed, record; returns what each
    step did. ``chunks`` are the collection's passages if already read (a head changes only
    their vectors)."""
    started = time.perf_counter()
    store = services.store
    chunks = await stored_chunks(store) if chunks is None else chunks
    pairs = [p for p in mine_chunks(chunks) if p.anchor not in skip_anchors]
    queries, relevant, described = query_source
    pairs += query_pairs(chunks, queries, relevant)
    if not pairs:
        raise AdaptUnavailable(f"collection {store.schema!r} holds nothing to mine pairs from")
    if args.mode == "head":
        report = await adapt_head(
            services, choose_pairs(pairs, len(pairs)), chunks, args, described
        )
        model = Path(report["model"])
        _remove_old_models(model.parent, keep=model)
        return report
    passes = math.ceil(args.epochs * len(pairs) / args.batch_size)
    config = TrainConfig(steps=min(args.steps, passes), batch_size=args.batch_size)
    chosen = choose_pairs(pairs, config.steps * config.batch_size)
    doc_of = {c.embedded: c.doc_id for c in chunks}
    with_negatives = chosen[: max(0, args.negatives)]
    with_negatives = await add_hard_negatives(store, services.embeddings, with_negatives, doc_of)
    chosen = with_negatives + chosen[len(with_negatives) :]
    mined_s = time.perf_counter() - started
    write_err(f"mined {len(pairs)} pairs, training on {len(chosen)}: {count_sources(chosen)}")

    def progress(step: int, loss: float) -> None:
        if step % 10 == 0 or step == config.steps:
            write_err(f"step {step}/{config.steps} loss {loss:.3f}")

    model, trained = await asyncio.to_thread(train, chosen, config, on_step=progress)
    target, sha = await install_model(services, lambda staging: export_int8(model, staging))
    model_id = adapted_model_id(sha)
    embeddings = adapted_minilm(target, sha, model_id.removeprefix("local:"))
    training = {
        "kind": "full",
        "pairs": count_sources(chosen),
        "queries": described or None,
        "steps": config.steps,
        "batch_size": config.batch_size,
    }
    meta = adapted_meta(services, "full", target, sha, training)
    reembedded = await reembed_collection(
        store, embeddings, meta, drop=(HEAD_SHA_KEY, *CALIBRATION_KEYS)
    )
    _remove_old_models(target.parent, keep=target)
    return adapt_report(store, target, sha, pairs, training, mined_s, trained, reembedded, started)


def choose_pairs(pairs: list[Pair], budget: int, *, seed: int = 13) -> list[Pair]:
    """At most ``budget`` pairs: every non-cloze pair first (query, sections, thread, title; in
    random order), then cloze pairs to fill."""
    rng = random.Random(seed)
    strong = [p for p in pairs if p.source != "cloze"]
    cloze = [p for p in pairs if p.source == "cloze"]
    rng.shuffle(strong)
    rng.shuffle(cloze)
    return (strong + cloze)[:budget]


def _remove_old_models(folder: Path, *, keep: Path) -> None:
    for old in folder.glob("minilm-adapted-*"):
        if old not in (keep, head_file(keep)):
            old.unlink()
            logger.info("removed the previous adapted model %s", old)


def _format(report: dict[str, Any]) -> str:
    lines = [_format_model(report)] if "reembed" in report else []
    if "calibration" in report:
        lines.append(_format_calibration(report["calibration"]))
    return "\n".join(lines)


def _format_calibration(calibration: dict[str, Any]) -> str:
    reranker = calibration["reranker"]
    return "  reranker         " + (
        f"fitted on {reranker['in_domain']} queries ({reranker['queries']}) + "
        f"{reranker['off_topic']} off-topic, floor {reranker['floor']:.4f}; vocabulary "
        f"of {reranker['vocabulary']['translations']} translations from "
        f"{reranker['vocabulary']['pairs']} pairs"
        if reranker
        else "the shipped one (too few training queries)"
    )


def _format_model(report: dict[str, Any]) -> str:
    if "train" not in report:
        return (
            f"collection {report['collection']}: back to {report['model']}, "
            f"{report['reembed']['chunks']} chunks re-embedded in {report['seconds']:.0f} s"
        )
    train_report, reembed = report["train"], report["reembed"]
    return "\n".join(
        [
            f"collection {report['collection']} adapted in {report['seconds']:.0f} s",
            f"  pairs mined      {report['pairs_mined']}",
            f"  trained on       {report['training']['pairs']}"
            + (
                f" (queries: {report['training']['queries']})"
                if report["training"]["queries"]
                else ""
            ),
            f"  training         {train_report['steps']} steps in {train_report['seconds']:.0f} s,"
            f" loss {train_report['first_loss']:.3f} -> {train_report['last_loss']:.3f}",
            f"  model            {report['model']} ({report['model_bytes'] / 1e6:.1f} MB)",
            f"  sha256           {report['sha256']}",
            f"  re-embedded      {reembed['chunks']} chunks in"
            f" {reembed['embed_seconds'] + reembed['write_seconds']:.0f} s",
        ]
    )


def write_err(text: str) -> None:
    sys.stderr.write(text + "\n")


__all__ = ["add_adapt_parser", "adapt", "choose_pairs", "run_adapt"]
