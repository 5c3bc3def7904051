"""`bosun adapt`: fit a linear head on the stock MiniLM from mined pairs.

Anchors are embedded once by the stock model; positives and hard negatives are passages, whose
stock vectors the collection already stores (or recovers exactly from a previous head's). The
head is exported as the stock graph plus one MatMul, and the collection's vectors are mapped
through it in one transaction (see :mod:`adapt.linear_head`): minutes, not hours, on 2 cores.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from adapt.linear_head import (
    AdaptUnavailable,
    HeadConfig,
    export_head,
    fit_head,
    read_head,
    save_head,
)
from adapt.pair_mining import MinedChunk, Pair, add_hard_negatives, count_sources
from adapt.services import AdaptServices
from archive.ingest.reembed import stored_vectors, transform_collection
from archive.store.database import Store
from archive.store.embedder import (
    ADAPTED_KEYS,
    CALIBRATION_KEYS,
    FILE_KEY,
    HEAD_SHA_KEY,
    KIND_KEY,
    MODEL_KEY,
    SHA_KEY,
    TRAINING_KEY,
    adapted_model_id,
    read_embedder,
)
from archive.store.schema import StoreError
from providers.linear_head import apply_head, head_file, stock_vectors
from providers.minilm import BASE_MODEL_ID, default_minilm, stock_model_path

if TYPE_CHECKING:
    from adapt.command import AdaptOptions

#: The meta an adapted model writes besides its model id (back to stock drops them all).
EMBEDDED_POSITIVES = 1500  # pairs fitted at most when positives must be embedded first


async def current_head(services: AdaptServices) -> np.ndarray | None:
    """``W`` of the head the collection's vectors went through; ``None`` for stock vectors.

    Raises StoreError for a collection re-embedded by a full fine-tune (its stock vectors are
    gone: ``bosun adapt --reset`` first)."""
    record = await read_embedder(services.database_uri, services.store.schema)
    if record is None:
        return None
    weights = await asyncio.to_thread(read_head, services.home / record.file)
    if weights is None:
        raise StoreError(
            f"collection {services.store.schema!r} holds the vectors of a fully fine-tuned model "
            "(an earlier `bosun adapt --mode full`); run `bosun adapt --reset` before fitting "
            "a head"
        )
    return weights


async def adapt_head(
    services: AdaptServices,
    pairs: list[Pair],
    chunks: list[MinedChunk],
    args: AdaptOptions,
    described: str,
) -> dict[str, Any]:
    """Fit, export and apply a head; returns what each step did."""
    started = time.perf_counter()
    store = services.store
    old = await current_head(services)
    by_text = {c.embedded: c.chunk_id for c in chunks}
    # Pairs whose positive is a stored passage cost nothing to embed; the others (a title's
    # passage without the title) are embedded once, at most EMBEDDED_POSITIVES of them.
    stored_pairs = [p for p in pairs if p.positive in by_text and p.source != "cloze"]
    other = [p for p in pairs if p.positive not in by_text and p.source != "cloze"]
    usable = stored_pairs + other[: max(0, EMBEDDED_POSITIVES - len(stored_pairs))]
    if not usable:
        raise AdaptUnavailable(f"collection {store.schema!r} gave no pairs a head can learn from")
    doc_of = {c.embedded: c.doc_id for c in chunks}
    doc_of.update({c.content: c.doc_id for c in chunks})
    usable = (
        await add_hard_negatives(store, services.embeddings, usable[: args.negatives], doc_of)
        + usable[args.negatives :]
    )
    stored = await stored_vectors(store)
    ids = list(stored)
    stock = dict(zip(ids, stock_vectors(old, np.stack([stored[i] for i in ids])), strict=True))
    model = default_minilm()
    anchors = await asyncio.to_thread(model.embed_array, [p.anchor for p in usable])
    fresh = [p.positive for p in usable if p.positive not in by_text]
    embedded = dict(zip(fresh, await asyncio.to_thread(model.embed_array, fresh), strict=True))
    positives = np.stack(
        [
            stock[by_text[p.positive]] if p.positive in by_text else embedded[p.positive]
            for p in usable
        ]
    )
    negatives = np.zeros_like(positives)
    for row, pair in enumerate(usable):
        if pair.negative in by_text:
            negatives[row] = stock[by_text[pair.negative]]
    mined_s = time.perf_counter() - started
    config = HeadConfig(steps=args.steps)
    weights, fitted = await asyncio.to_thread(fit_head, anchors, positives, negatives, config)
    target, sha = await install_model(
        services, lambda staging: export_head(weights, stock_model_path(), staging)
    )
    training = {
        "kind": "head",
        "pairs": count_sources(usable),
        "queries": described or None,
        "steps": config.steps,
    }
    meta = adapted_meta(services, "head", target, sha, training)
    meta[HEAD_SHA_KEY] = await asyncio.to_thread(save_head, weights, head_file(target))
    applied = await transform_collection(
        store, lambda v: apply_head(weights, stock_vectors(old, v)), meta, drop=CALIBRATION_KEYS
    )
    return adapt_report(store, target, sha, pairs, training, mined_s, fitted, applied, started)


async def install_model(services: AdaptServices, export: Callable[[Path], str]) -> tuple[Path, str]:
    """Export an adapted model (``export`` writes it and returns its sha256) next to the
    collection as ``minilm-adapted-<sha12>.onnx``; its path and sha256."""
    folder = services.home / "models" / services.store.schema
    staging = folder / "adapting.onnx"
    sha = await asyncio.to_thread(export, staging)
    target = folder / f"minilm-adapted-{sha[:12]}.onnx"
    staging.replace(target)
    return target, sha


def adapted_meta(
    services: AdaptServices, kind: str, target: Path, sha: str, training: dict[str, Any]
) -> dict[str, str]:
    """The collection meta recording the adapted model a collection is embedded with."""
    return {
        KIND_KEY: kind,
        MODEL_KEY: adapted_model_id(sha),
        FILE_KEY: str(target.relative_to(services.home)),
        SHA_KEY: sha,
        TRAINING_KEY: json.dumps(training, sort_keys=True),
    }


def adapt_report(
    store: Store,
    target: Path,
    sha: str,
    pairs: list[Pair],
    training: dict[str, Any],
    mined_s: float,
    trained: Any,
    reembedded: Any,
    started: float,
) -> dict[str, Any]:
    """What ``bosun adapt --json`` prints: the model, the pairs, each step's figures."""
    return {
        "collection": store.schema,
        "model": str(target),
        "sha256": sha,
        "model_bytes": target.stat().st_size,
        "pairs_mined": count_sources(pairs),
        "training": training,
        "mine_seconds": round(mined_s, 1),
        "train": asdict(trained),
        "reembed": asdict(reembedded),
        "seconds": round(time.perf_counter() - started, 1),
    }


async def reset_head(services: AdaptServices, old: np.ndarray) -> dict[str, Any]:
    """Map a headed collection's vectors back to the stock model's and forget the head."""
    started = time.perf_counter()
    report = await transform_collection(
        services.store,
        lambda v: stock_vectors(old, v),
        {MODEL_KEY: f"local:{BASE_MODEL_ID}"},
        drop=ADAPTED_KEYS,
    )
    return {
        "collection": services.store.schema,
        "model": BASE_MODEL_ID,
        "reembed": asdict(report),
        "seconds": round(time.perf_counter() - started, 1),
    }


async def start_from_stock(services: AdaptServices) -> dict[str, Any] | None:
    """Map a previous head's vectors back to the stock model's before fitting a new one. Hard
    negatives are mined by the collection's own retrieval, so a new head would otherwise depend
    on the last, and in `bosun eval --fold` runs on a head fitted on the fold now held out (one
    fold's hybrid nDCG@10: 0.432 and 0.435 from stock, 0.439 after the other fold's head).
    Returns what undoing it did (None: the collection held no head)."""
    if not await headed(services):
        return None
    head = await current_head(services)
    return None if head is None else await reset_head(services, head)


async def headed(services: AdaptServices) -> bool:
    """Whether the collection's vectors went through a head (its meta says so)."""
    async with services.store.pool.connection() as conn:
        cur = await conn.execute("SELECT value FROM meta WHERE key = %s", (KIND_KEY,))
        row = await cur.fetchone()
    return bool(row and row["value"] == "head")


__all__ = [
    "adapt_head",
    "adapt_report",
    "adapted_meta",
    "current_head",
    "headed",
    "install_model",
    "reset_head",
    "start_from_stock",
]
