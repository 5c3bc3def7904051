"""`bosun adapt`: fine-tune the local embedder on pairs mined from a collection, export it as int8
ONNX next to the collection, re-embed the collection and record the model's hash in it.

Mining, training and export are :mod:`adapt.pair_mining` and :mod:`providers.finetune`; this module
chooses the pairs, runs the steps in order and reports. Training queries (a BEIR split's, given
to the CLI as ``--queries``) add (query, relevant passage) pairs for the evaluation collections,
without the queries of the ``--hold-out`` fold so that ``bosun eval --fold`` scores queries the
model never saw. The CLI (:mod:`agent.adapt_command`) parses the arguments and opens the
collection; this module does the rest.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adapt.calibration import Calibrated, collect, fit_calibration, record_calibration
from adapt.head import (
    adapt_head,
    adapt_report,
    adapted_meta,
    install_model,
    start_from_stock,
)
from adapt.pair_mining import (
    MinedChunk,
    add_hard_negatives,
    count_sources,
    mine_chunks,
    stored_chunks,
)
from adapt.queries import (
    QuerySource,
    cross_fit_plan,
    off_topic_questions,
    query_pairs,
    vocabulary_model,
)
from adapt.reset import reset
from adapt.services import AdaptServices, Collection
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

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class AdaptOptions:
    """What `bosun adapt` was asked to do (the CLI's flags)."""

    mode: str = "head"  # head: a linear head on the stock model; full: fine-tune the upper layers
    steps: int = TrainConfig.steps  # training steps at most
    epochs: int = 1  # passes over the mined pairs at most (full)
    batch_size: int = TrainConfig.batch_size  # (full)
    negatives: int = 400  # pairs given a hard negative by hybrid retrieval
    calibrate: bool = True  # fit the reranker for the new model (False: keep the shipped one)
    reset: bool = False  # back to the stock model and the shipped reranker instead


async def adapt_collection(
    target: Collection, options: AdaptOptions, query_source: QuerySource
) -> dict[str, Any]:
    """Run ``bosun adapt`` on ``target`` with the training queries ``query_source``, holding the
    collection's write lock throughout; returns the report (``--json`` prints it)."""
    collection = target.name
    waiting = f"waiting for the runs writing collection {collection!r} (ingest, delete, adapt)"
    async with rewriting(target.database_uri, collection, on_wait=lambda: write_err(waiting)):
        return await _adapt_collection(target, options, query_source)


async def _adapt_collection(
    target: Collection, args: AdaptOptions, query_source: QuerySource
) -> dict[str, Any]:
    """Adapt or reset the collection (no other run writes it meanwhile); returns the report."""
    if args.mode == "head" and not args.reset:
        async with target.open() as services:
            undone = await start_from_stock(services)
        if undone:
            seconds = undone["seconds"]
            write_err(
                f"started from the stock model: the previous head was undone in {seconds:.0f} s"
            )
    if args.reset:
        return await reset(target)
    if args.calibrate and args.mode != "full":
        return await adapt_calibrated(target, args, query_source)
    if args.mode == "full" and args.calibrate:
        logger.warning(
            "a full fine-tune keeps the shipped reranker and the stock cutoff thresholds "
            "(applied to its own cosines: the stock vectors cannot be recovered)"
        )
    async with target.open() as services:
        return await adapt(services, args, query_source)


async def adapt_calibrated(
    target: Collection, args: AdaptOptions, query_source: QuerySource
) -> dict[str, Any]:
    """Cross-fit: for each half of the training queries, fit a head without it and collect that
    half's candidates and cosines; fit the reranker on both halves; then fit the head on every
    training query and record the reranker for it. Each step reopens the collection: queries
    are embedded by the model it holds at that point."""
    started = time.perf_counter()
    async with target.open() as services:
        chunks = await stored_chunks(services.store)
    plan = cross_fit_plan(chunks, query_source)
    if not any(plan.halves):
        logger.warning("no training queries or question-like anchors: the shipped reranker stays")
        async with target.open() as services:
            report = await adapt(services, args, query_source, chunks=chunks)
            report["calibration"] = await record_calibration(services, Calibrated(None))
        return report
    off_topic = off_topic_questions()
    collected = []
    for half, source, skip in zip(plan.halves, plan.head_sources, plan.skip_anchors, strict=True):
        async with target.open() as services:
            fitted = await adapt(services, args, source, skip_anchors=skip, chunks=chunks)
        write_err(f"cross-fit head in {fitted['seconds']:.0f} s; collecting {len(half)} queries")
        vocabulary = await asyncio.to_thread(vocabulary_model, chunks, source, skip)
        async with target.open() as services:
            collected.append(await collect(services, half, off_topic, vocabulary))
    vocabulary = await asyncio.to_thread(vocabulary_model, chunks, query_source, frozenset())
    calibrated = await asyncio.to_thread(fit_calibration, collected, plan.described, vocabulary)
    async with target.open() as services:
        report = await adapt(services, args, query_source, chunks=chunks)
        report["calibration"] = await record_calibration(services, calibrated)
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


async def adapt(
    services: AdaptServices,
    args: AdaptOptions,
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


def format_report(report: dict[str, Any]) -> str:
    """The report as `bosun adapt` prints it without ``--json``."""
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


__all__ = ["AdaptOptions", "adapt", "adapt_collection", "choose_pairs", "format_report"]
