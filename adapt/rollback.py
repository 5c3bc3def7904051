"""Keep the model a collection had when the one `bosun adapt` fitted scores worse.

Before fitting, :func:`take` records what the collection is embedded with: the head its vectors
went through (``None``: the stock model), the model keys of its meta, and the files of its models
folder (the adapted model, its head, the reranker fitted for it). :func:`restore` maps the
vectors back through the new head's inverse and the old head (exact up to float rounding: both
heads are invertible), writes the old meta in the same transaction, and puts the old files back
and the new ones away. Both run under the collection's write lock (`bosun adapt` holds it).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from adapt.head import current_head
from adapt.services import Collection
from archive.ingest.reembed import transform_collection
from archive.store.embedder import MODEL_KEYS
from providers.linear_head import apply_head, stock_vectors

logger = logging.getLogger(__name__)


#: The meta keys that say which model (and reranker) a collection is embedded with.
@dataclass(frozen=True)
class Snapshot:
    """What a collection was embedded with before `bosun adapt` fitted a new model."""

    head: np.ndarray | None  # W its vectors went through (None: the stock model's vectors)
    meta: dict[str, str]  # its model keys
    files: dict[str, bytes]  # its models folder, by file name


def models_folder(target: Collection) -> Path:
    return target.home / "models" / target.name


async def take(target: Collection) -> Snapshot:
    """The model ``target`` is embedded with now."""
    async with target.open() as services:
        head = await current_head(services)
        async with services.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT key, value FROM meta WHERE key = ANY(%s)", (list(MODEL_KEYS),)
            )
            meta = {r["key"]: r["value"] for r in await cur.fetchall()}
    files = await asyncio.to_thread(_read_folder, models_folder(target))
    return Snapshot(head, meta, files)


def _read_folder(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


async def restore(target: Collection, snapshot: Snapshot) -> dict[str, int]:
    """Put ``target`` back on the model of ``snapshot``; returns the vectors mapped back."""
    folder = models_folder(target)
    await asyncio.to_thread(_write_folder, folder, snapshot.files)
    async with target.open() as services:
        new = await current_head(services)
        old = snapshot.head

        def back(vectors: np.ndarray) -> np.ndarray:
            stock = stock_vectors(new, vectors)
            return stock if old is None else apply_head(old, stock)

        dropped = tuple(k for k in MODEL_KEYS if k not in snapshot.meta)
        report = await transform_collection(services.store, back, snapshot.meta, drop=dropped)
    await asyncio.to_thread(_remove_others, folder, set(snapshot.files))
    logger.info(
        "collection %s: the fitted model scored worse; the previous one is back", target.name
    )
    return {"chunks": report.chunks, "topics": report.topics}


def _write_folder(folder: Path, files: dict[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        staging = folder / f".{name}.restoring"
        staging.write_bytes(data)
        staging.replace(folder / name)


def _remove_others(folder: Path, keep: set[str]) -> None:
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if path.is_file() and path.name not in keep:
            path.unlink()
            logger.info("removed the rejected %s", path)


__all__ = ["MODEL_KEYS", "Snapshot", "restore", "take"]
