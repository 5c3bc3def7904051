"""`bosun adapt`: fit a linear head on the local embedder from pairs mined from a collection, export
it as int8 ONNX next to the collection, map the collection's vectors through it, fit the reranker
for it and record the model's hash in the collection.

Mining is :mod:`adapt.pair_mining`, the head :mod:`adapt.head`, the reranker
:mod:`adapt.calibration`; this module chooses the pairs, runs the steps in order and reports.
Training queries (a BEIR split's, given to the CLI as ``--queries``) add (query, relevant
passage) pairs for the evaluation collections, without the queries of the ``--hold-out`` fold
so that ``bosun eval --fold`` scores queries the model never saw. The CLI
(:mod:`agent.adapt_command`) parses the arguments and opens the collection; this module does the
rest.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adapt.calibration import Calibrated, collect, fit_calibration, record_calibration
from adapt.head import adapt_head, start_from_stock
from adapt.linear_head import AdaptUnavailable
from adapt.pair_mining import MinedChunk, Pair, mine_chunks, stored_chunks
from adapt.queries import (
    QuerySource,
    cross_fit_plan,
    off_topic_questions,
    query_pairs,
    vocabulary_model,
)
from adapt.reset import reset
from adapt.services import AdaptServices, Collection
from archive.store.locks import rewriting
from providers.linear_head import head_file

logger = logging.getLogger(__name__)

#: Training queries needed to fit a reranker for the new model (fewer: a head only, and the
#: shipped reranker stays). A listwise ranker and a vocabulary fitted on a few dozen
#: questions, cross-fitted on halves of a dozen, replaced the shipped reranker's order with
#: one learnt from too little; below this the fitting also skips the two cross-fit heads.
CALIBRATE_FROM = 100


@dataclass(frozen=True)
class AdaptOptions:
    """What `bosun adapt` was asked to do (the CLI's flags)."""

    steps: int = 300  # the head's training steps
    negatives: int = 400  # pairs given a hard negative by hybrid retrieval
    calibrate: bool = True  # fit the reranker for the new model (False: keep the shipped one)
    reset: bool = False  # back to the stock model and the shipped reranker instead
    mine: bool = True  # also pairs mined from the collection (False: labels only, an ablation)


async def adapt_collection(
    target: Collection, options: AdaptOptions, query_source: QuerySource
) -> dict[str, Any]:
    """Run ``bosun adapt`` on ``target`` with the training queries ``query_source``, holding the
    collection's write lock throughout; returns the report (``--json`` prints it)."""
    collection = target.name
    waiting = f"waiting for the runs writing collection {collection!r} (ingest, delete, adapt)"
    async with rewriting(target.database_uri, collection, on_wait=lambda: write_err(waiting)):
        return await adapt_unlocked(target, options, query_source)


async def adapt_unlocked(
    target: Collection, args: AdaptOptions, query_source: QuerySource
) -> dict[str, Any]:
    """Adapt or reset the collection (the caller holds its write lock); returns the report."""
    if not args.reset:
        async with target.open() as services:
            undone = await start_from_stock(services)
        if undone:
            seconds = undone["seconds"]
            write_err(
                f"started from the stock model: the previous head was undone in {seconds:.0f} s"
            )
    if args.reset:
        return await reset(target)
    if args.calibrate:
        return await adapt_calibrated(target, args, query_source)
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
    planned = sum(len(half) for half in plan.halves)
    if planned < CALIBRATE_FROM:
        logger.warning(
            "%d training queries (< %d): the shipped reranker stays", planned, CALIBRATE_FROM
        )
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
    """Mine (leaving out ``skip_anchors``), fit a head, export, map the vectors, record;
    returns what each step did. ``chunks`` are the collection's passages if already read (a
    head changes only their vectors)."""
    store = services.store
    chunks = await stored_chunks(store) if chunks is None else chunks
    mined = mine_chunks(chunks) if args.mine else []
    pairs = [p for p in mined if p.anchor not in skip_anchors]
    queries, relevant, described = query_source
    pairs += query_pairs(chunks, queries, relevant)
    if not pairs:
        raise AdaptUnavailable(f"collection {store.schema!r} holds nothing to mine pairs from")
    report = await adapt_head(services, choose_pairs(pairs, len(pairs)), chunks, args, described)
    model = Path(report["model"])
    _remove_old_models(model.parent, keep=model)
    return report


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


def _check_lines(check: dict[str, Any], name: str, chosen: str) -> list[str]:
    """A click memory's, vocabulary's or residual's check: over all its questions, then what
    decided (those not already first, and the guard on those that were)."""
    lines = [
        f"  {check['folds']}-fold check     {check['metric']} {check['before']:.4f} without a "
        f"click {name}, {check['after']:.4f} with one fitted without the question "
        f"({check['better']} higher, {check['worse']} lower; {chosen})"
    ]
    moved, first = check.get("movable"), check.get("first")
    if moved and first:
        scores = (
            f" {moved['before']:.4f} -> {moved['after']:.4f} ({moved['better']} higher, "
            f"{moved['worse']} lower)"
            if moved["questions"]
            else ""
        )
        lines.append(
            f"    not yet first  {moved['questions']} questions{scores}; the {first['questions']} "
            f"already first {first['change']:+.4f} (at most -{first['margin']:g})"
        )
    return lines


def format_report(report: dict[str, Any]) -> str:
    """The report as `bosun adapt` prints it without ``--json``."""
    lines = [_format_model(report)] if "train" in report or "reembed" in report else []
    if "calibration" in report:
        lines.append(_format_calibration(report["calibration"]))
    if "labels" in report:
        lines.append(
            f"  feedback         {report['labels']['questions']} questions with an opened citation"
        )
    check = report.get("check") or {}
    if check.get("before") is not None:
        chosen = (
            f"lift {check['lift']:g} places from cosine {check['threshold']:g}"
            if check["lift"]
            else "no lift chosen"
        )
        lines += _check_lines(check, "memory", chosen)
    vocabulary = report.get("vocabulary_check") or {}
    if vocabulary.get("before") is not None:
        chosen = (
            f"weight {vocabulary['weight']:g}, {vocabulary['pairs']} question-document pairs"
            if vocabulary["weight"] is not None
            else "no blend chosen"
        )
        lines += _check_lines(vocabulary, "vocabulary", chosen)
    residual = report.get("residual_check") or {}
    if residual.get("before") is not None:
        chosen = (
            f"penalty {residual['penalty']:g}, {residual['pairs']} weighted pairs"
            if residual["penalty"] is not None
            else "no correction chosen"
        )
        lines += _check_lines(residual, "residual", chosen)
    if report.get("installed") is False:
        lines.append(report["reason"])
    elif "memory" in report:
        parts = report.get("parts") or ["memory"]
        verb = "is" if len(parts) == 1 else "are"
        lines.append(f"  installed        the click {' and '.join(parts)} {verb} now served")
    if report.get("memory_reason"):
        lines.append(f"  click memory     {report['memory_reason']}")
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


__all__ = [
    "CALIBRATE_FROM",
    "AdaptOptions",
    "adapt",
    "adapt_collection",
    "adapt_unlocked",
    "choose_pairs",
    "format_report",
]
