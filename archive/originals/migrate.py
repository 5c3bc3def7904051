"""`bosun archive migrate`: copy a collection's local originals into object storage, then switch
the collection over.

Each original keeps its archive path (the key under the prefix), so the citations stored in
conversations keep resolving. Copies are checked: the storage verifies each upload's Content-MD5,
and a HEAD afterwards must show the file's size and sha256. An object already there with the
right size and sha256 is not copied again, so a run that stopped resumes where it was. The
collection records its new store only when every original is there, in the transaction that
holds the collection's ingest lock exclusively: no ingest adds a document the copy missed, and
one that waited for the lock finds the collection moved and stops (archive.store.locks).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from archive.originals.base import OriginalsConfigError
from archive.originals.binding import record_location, recorded_location
from archive.originals.local import LocalOriginals
from archive.originals.s3 import SHA_META, S3Originals
from archive.store.database import Store
from archive.store.locks import ingest_stage, write_lock_sql

logger = logging.getLogger(__name__)

Outcome = Literal["copied", "present", "missing"]
#: Copies in flight at once.
PARALLEL = 8


class MigrationError(RuntimeError):
    """A copy that the storage does not hold as written (size or sha256 differ)."""


@dataclass
class MigrationReport:
    """What a run copied, found copied already, and could not find locally."""

    target: str
    originals: int = 0  # distinct archive paths the collection cites
    copied: int = 0
    present: int = 0  # already in the storage, verified (an earlier run's)
    bytes_copied: int = 0
    missing: list[str] = field(default_factory=list)  # cited, but not in the local folder
    switched: bool = False  # the collection now reads its originals from ``target``
    already: bool = False  # it did before this run


async def migrate_originals(
    store: Store,
    source: LocalOriginals,
    target: S3Originals,
    *,
    on_copy: Callable[[str, Outcome], None] | None = None,
) -> MigrationReport:
    """Copy every original the collection cites from ``source`` to ``target``, verify each, and
    switch the collection to ``target`` when none is missing."""
    report = MigrationReport(target.location)
    async with store.pool.connection() as conn:
        recorded = await recorded_location(conn)
    if recorded == target.location:
        report.already = report.switched = True
        return report
    if recorded is not None:
        raise OriginalsConfigError(
            f"collection {store.schema!r} keeps its originals in {recorded}, not the local folder"
        )
    done = set(await _cited(store))  # most of the copying, while ingest may go on
    await _copy_all(sorted(done), source, target, report, on_copy)
    if report.missing:
        return report
    async with ingest_stage(store, exclusive=True):  # no ingest or delete meanwhile
        todo = sorted(set(await _cited(store)) - done)
        await _copy_all(todo, source, target, report, on_copy)
        done.update(todo)
        report.originals = len(done)
        if report.missing:
            return report
        async with store.pool.connection() as conn, conn.transaction():
            await conn.execute(*write_lock_sql(store))
            await record_location(conn, target.location)
        store.originals_url = target.location
    report.switched = True
    return report


async def _cited(store: Store) -> list[str]:
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT DISTINCT archive_path FROM documents")
        return [row["archive_path"] for row in await cur.fetchall()]


async def _copy_all(
    paths: Sequence[str],
    source: LocalOriginals,
    target: S3Originals,
    report: MigrationReport,
    on_copy: Callable[[str, Outcome], None] | None,
) -> None:
    gate = asyncio.Semaphore(PARALLEL)

    async def one(path: str) -> None:
        async with gate:
            outcome, size = await asyncio.to_thread(copy_one, path, source, target)
        if outcome == "missing":
            report.missing.append(path)
        elif outcome == "present":
            report.present += 1
        else:
            report.copied += 1
            report.bytes_copied += size
        if on_copy:
            on_copy(path, outcome)

    await asyncio.gather(*(one(p) for p in paths))
    report.missing.sort()


def copy_one(path: str, source: LocalOriginals, target: S3Originals) -> tuple[Outcome, int]:
    """Copy one original unless the storage holds it already; verify what it holds."""
    if not source.exists(path):
        logger.warning("original %s is not in %s: not copied", path, source.location)
        return "missing", 0
    data = source.resolve(path).read_bytes()
    sha256 = hashlib.sha256(data).hexdigest()
    if _holds(target, path, len(data), sha256):
        return "present", len(data)
    target.upload(path, data)
    if not _holds(target, path, len(data), sha256):
        raise MigrationError(
            f"{target.location}/{path} does not hold the {len(data)} bytes just written "
            f"(sha256 {sha256[:12]}...); nothing was switched, run the migration again"
        )
    return "copied", len(data)


def _holds(target: S3Originals, path: str, size: int, sha256: str) -> bool:
    head = target.head(path)
    return (
        head is not None
        and head.get("ContentLength") == size
        and (head.get("Metadata") or {}).get(SHA_META) == sha256
    )
