"""`bosun adapt --reset`: back to the stock model and the shipped reranker.

With the adapted model at hand, a head is undone through ``W⁻¹`` (a minute at most here) and a
full fine-tune's passages (an earlier ``--mode full``) are re-embedded by the stock model. With
it lost (its file missing, or not the sha256 the collection records), the collection cannot be
opened and a head cannot be inverted, so every passage is re-embedded from its text by the stock
model: the one way back that needs nothing of the lost model (as long as the ingest's embedding
took). Either way the vectors and the meta change in one transaction, and the adapted files are
removed."""

from __future__ import annotations

import logging
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from psycopg import AsyncConnection, sql

from adapt.head import start_from_stock
from adapt.services import AdaptServices, Collection
from archive.ingest.reembed import reembed_collection
from archive.store.database import EmbeddingIdentity
from archive.store.embedder import ADAPTED_KEYS, MODEL_KEY, EmbedderRecord, read_embedder
from archive.store.schema import check_collection_name
from providers.minilm import BASE_MODEL_ID, default_minilm, sha256_file

logger = logging.getLogger(__name__)


async def reset(target: Collection) -> dict[str, Any]:
    """Put the ``target`` collection back on the stock model; returns what was done."""
    record = await read_embedder(target.database_uri, target.name)
    if record is not None and _lost(target.home / record.file, record):
        sys.stderr.write(
            f"the adapted model {target.home / record.file} is missing or altered: "
            "re-embedding every passage with the stock model\n"
        )
        stock = default_minilm()
        # Opened under the identity its vectors are recorded with; the re-embed replaces both.
        recorded = EmbeddingIdentity(record.model, stock.dimension)
        async with target.open(embeddings=stock, identity=recorded) as services:
            report = await _reembed_stock(services)
    elif record is None:  # stock vectors: only what was fitted beside them goes
        report = await _forget_fitted(target)
    else:
        async with target.open() as services:
            report = await start_from_stock(services) or await _reembed_stock(services)
    folder = target.home / "models" / target.name
    stale_files = ("minilm-adapted-*", "feature-reranker-*.json", "click-memory-*.npz")
    for stale in [path for pattern in stale_files for path in folder.glob(pattern)]:
        stale.unlink()
        logger.info("removed %s", stale)
    return report


async def _forget_fitted(target: Collection) -> dict[str, Any]:
    """Drop a stock-embedded collection's fitted reranker and click memory from its meta: its
    vectors are the stock model's already, so none is re-embedded."""
    started = time.perf_counter()
    table = sql.Identifier(check_collection_name(target.name), "meta")
    async with await AsyncConnection.connect(target.database_uri, autocommit=True) as conn:
        await conn.execute(
            sql.SQL("DELETE FROM {} WHERE key = ANY(%s)").format(table),
            (list(ADAPTED_KEYS),),
        )
    return {
        "collection": target.name,
        "model": BASE_MODEL_ID,
        "reembed": {"chunks": 0},
        "seconds": round(time.perf_counter() - started, 1),
    }


def _lost(path: Path, record: EmbedderRecord) -> bool:
    return not path.is_file() or sha256_file(path) != record.sha256


async def _reembed_stock(services: AdaptServices) -> dict[str, Any]:
    store = services.store
    started = time.perf_counter()
    report = await reembed_collection(
        store,
        default_minilm(),
        {MODEL_KEY: f"local:{BASE_MODEL_ID}"},
        drop=ADAPTED_KEYS,
    )
    return {
        "collection": store.schema,
        "model": BASE_MODEL_ID,
        "reembed": asdict(report),
        "seconds": round(time.perf_counter() - started, 1),
    }


__all__ = ["reset"]
