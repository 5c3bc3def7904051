"""`bosun sync`: bring the archive in line with a live IMAP mailbox, reading only what changed.

Per folder: a UIDVALIDITY unlike the recorded one voids every recorded UID and the folder is
read again (messages are keyed by Message-ID, so nothing is stored twice); UIDs above the last
one read are fetched in batches and ingested exactly as `bosun ingest` ingests .eml files, each
batch committed with its state; UIDs gone from the folder, and messages flagged \\Deleted, are
dropped; flags changed since the CONDSTORE mark (or all flags, without CONDSTORE) are read.
A message no synced folder holds any more is deleted (`bosun delete` semantics, its thread's
digest redone); one moved between synced folders stays. A dropped connection reconnects and
resumes from the committed state; a kill does the same on the next run.
"""

import asyncio
import logging
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.embeddings import Embeddings

from archive.ingest.loaders.email import message_source_id
from archive.ingest.pipeline import IngestReport, ingest_paths, refresh_derived
from archive.ingest.progress import stage_bar
from archive.mailbox import state
from archive.mailbox.address import Mailbox, MailboxError
from archive.mailbox.session import CONNECTION_ERRORS, Session
from archive.originals import Originals, release
from archive.store.database import Store
from archive.store.documents import delete_sources
from archive.store.locks import ingest_stage

logger = logging.getLogger(__name__)

BATCH = 100  # messages fetched, ingested and committed together
RECONNECTS = 3  # dropped connections survived in one run (backoff 1, 2, 4 s)

Connect = Callable[[], Session]


@dataclass(frozen=True)
class _Target:
    """Where a sync writes, and how it reports."""

    mailbox: str
    store: Store
    embeddings: Embeddings
    archive: Originals
    batch: int
    progress: bool
    on_batch: Callable[[str, int], None] | None


@dataclass
class FolderReport:
    fetched: int = 0  # messages read from the server this run
    added: int = 0  # new documents stored (messages and attachments)
    updated: int = 0
    unchanged: int = 0  # already archived (another folder, a move, a resync)
    gone: int = 0  # UIDs expunged or moved away
    flags_changed: int = 0
    resynced: bool = False  # the folder's UIDVALIDITY changed
    failed: list[dict[str, object]] = field(default_factory=list)  # uid, reason


@dataclass
class SyncReport:
    mailbox: str
    folders: dict[str, FolderReport] = field(default_factory=dict)
    deleted: int = 0  # messages deleted from the archive (no synced folder holds them)
    kept_moved: int = 0  # messages that left one folder but another synced folder holds
    digests: int = 0  # thread digests redone after deletions
    reconnects: int = 0
    interrupted: bool = False
    seconds: float = 0.0


async def sync_mailbox(
    mailbox: Mailbox,
    connect: Connect,
    store: Store,
    embeddings: Embeddings,
    archive: Originals,
    *,
    batch: int = BATCH,
    progress: bool = False,
    on_batch: Callable[[str, int], None] | None = None,
) -> SyncReport:
    """Sync every folder of ``mailbox`` into the collection; ``connect`` opens a logged-in
    session (called again after a dropped connection). ``on_batch(folder, n)``: after each
    committed batch. Cancelled (Ctrl-C), it returns what was committed with ``interrupted``."""
    report = SyncReport(mailbox=mailbox.key)
    started = time.perf_counter()
    target = _Target(mailbox.key, store, embeddings, archive, batch, progress, on_batch)
    try:
        await _sync_folders(mailbox, connect, target, report)
    except asyncio.CancelledError:
        report.interrupted = True
        logger.warning("sync of %s interrupted; the next sync resumes", mailbox.key)
    if not report.interrupted:
        await _settle(target, report)
    report.seconds = time.perf_counter() - started
    return report


async def _sync_folders(
    mailbox: Mailbox, connect: Connect, target: _Target, report: SyncReport
) -> None:
    session = await asyncio.to_thread(connect)
    try:
        missing = set(mailbox.folders) - set(await asyncio.to_thread(session.folders))
        if missing:
            raise MailboxError(f"{mailbox.key} has no folder {', '.join(sorted(missing))}")
        for folder in mailbox.folders:
            folder_report = report.folders.setdefault(folder, FolderReport())
            while True:
                try:
                    await _FolderSync(session, target, folder, folder_report).run()
                    break
                except CONNECTION_ERRORS as err:
                    if report.reconnects >= RECONNECTS:
                        raise MailboxError(f"{mailbox.key}: connection lost ({err})") from err
                    report.reconnects += 1
                    delay = 2 ** (report.reconnects - 1)
                    logger.warning(
                        "%s: connection lost (%s); resuming in %d s", mailbox.key, err, delay
                    )
                    await asyncio.to_thread(session.close)
                    await asyncio.sleep(delay)
                    session = await asyncio.to_thread(connect)
    finally:
        await asyncio.to_thread(session.close)


class _FolderSync:
    """One pass over one folder, resumable at every committed batch."""

    def __init__(self, session: Session, target: _Target, folder: str, report: FolderReport):
        self.session, self.target, self.folder, self.report = session, target, folder, report
        self.store, self.mailbox = target.store, target.mailbox

    async def run(self) -> None:
        """Sync the folder: gone UIDs marked, changed flags read, new UIDs fetched."""
        view = await asyncio.to_thread(self.session.select, self.folder)
        recorded = await state.folder_state(self.store, self.mailbox, self.folder)
        if recorded is None or recorded.uidvalidity != view.uidvalidity:
            self.report.resynced = recorded is not None
            await state.start_folder(self.store, self.mailbox, self.folder, view.uidvalidity)
            recorded = state.FolderState(view.uidvalidity, 0, None)
        self.uidvalidity = view.uidvalidity
        known = await state.rows(self.store, self.mailbox, self.folder, self.uidvalidity)
        current = await asyncio.to_thread(self.session.uids)
        vanished = set(known) - set(current)
        if vanished:
            await state.mark_gone(self.store, self.mailbox, self.folder, self.uidvalidity, vanished)
            self.report.gone += len(vanished)
        held = {uid: row for uid, row in known.items() if uid not in vanished}
        await self._read_flags(held, recorded.highest_modseq)
        await self._fetch([uid for uid in current if uid > recorded.last_uid], advance=True)
        await state.set_modseq(self.store, self.mailbox, self.folder, view.highest_modseq)
        await state.mark_void(self.store, self.mailbox, self.folder, self.uidvalidity)

    async def _read_flags(self, held: dict[int, state.Row], modseq: int | None) -> None:
        """Record changed flags; a message no longer \\Deleted is read again (its document was
        deleted when it was flagged)."""
        flags = await asyncio.to_thread(self.session.flags, sorted(held), modseq)
        changed = [
            state.Row(uid, held[uid].source_id, frozenset(f), held[uid].error)
            for uid, f in flags.items()
            if uid in held and frozenset(f) != held[uid].flags
        ]
        if not changed:
            return
        self.report.flags_changed += len(changed)
        await state.record(self.store, self.mailbox, self.folder, self.uidvalidity, changed)
        restored = [r.uid for r in changed if state.DELETED in held[r.uid].flags - r.flags]
        await self._fetch(restored, advance=False)

    async def _fetch(self, uids: list[int], *, advance: bool) -> None:
        if not uids:
            return
        target = self.target
        bar = stage_bar(f"sync {self.folder}", len(uids), unit="msg", enabled=target.progress)
        with bar:
            for start in range(0, len(uids), target.batch):
                chunk = uids[start : start + target.batch]
                messages = await asyncio.to_thread(self.session.messages, chunk)
                read = await self._ingest(messages)
                last = max(chunk) if advance else None
                await state.record(
                    self.store, self.mailbox, self.folder, self.uidvalidity, read, last_uid=last
                )
                self.report.fetched += len(messages)
                bar.update(len(chunk))
                if target.on_batch is not None:
                    target.on_batch(self.folder, len(chunk))

    async def _ingest(self, messages: dict[int, tuple[bytes, set[str]]]) -> list[state.Row]:
        """Ingest one batch through `bosun ingest`'s own path (the messages as .eml files in a
        scratch folder, their originals copied to the archive); one row per UID."""
        rows: list[state.Row] = []
        with tempfile.TemporaryDirectory(prefix="bosun-sync-") as scratch:
            files: dict[Path, int] = {}
            for uid, (raw, flags) in messages.items():
                if state.DELETED in flags:  # awaiting expunge: not archived (read if undeleted)
                    rows.append(state.Row(uid, None, frozenset(flags)))
                    continue
                path = Path(scratch) / f"{uid}.eml"
                path.write_bytes(raw)
                files[path] = uid
            t = self.target
            ingested = await ingest_paths(
                sorted(files), t.store, t.embeddings, t.archive, progress=False
            )
            if ingested.interrupted:
                raise asyncio.CancelledError
            self._count(ingested)
            failed = {Path(e.path).name: e.reason for e in ingested.errors}
            for path, uid in files.items():
                raw, flags = messages[uid]
                reason = failed.get(path.name)
                if reason is not None:
                    self.report.failed.append({"uid": uid, "reason": reason})
                    logger.warning(
                        "%s %s UID %d skipped: %s", self.mailbox, self.folder, uid, reason
                    )
                source = None if reason else message_source_id(raw)
                rows.append(state.Row(uid, source, frozenset(flags), reason))
        return rows

    def _count(self, ingested: IngestReport) -> None:
        self.report.added += ingested.added
        self.report.updated += ingested.updated
        self.report.unchanged += ingested.unchanged


async def _settle(target: _Target, report: SyncReport) -> None:
    """Delete what no synced folder holds any more, then redo the derived data (digests of the
    threads that lost or gained a message, topics of new chunks)."""

    async def delete(source_ids: list[str]) -> None:
        async with ingest_stage(target.store, exclusive=False):
            deleted = await delete_sources(target.store, source_ids)
        await asyncio.to_thread(release, target.archive, deleted.originals)

    settled = await state.settle(target.store, delete)
    report.deleted, report.kept_moved = len(settled.deleted), settled.kept
    if settled.deleted:
        derived = await refresh_derived(target.store, target.embeddings, target.archive)
        report.digests = derived.digests
