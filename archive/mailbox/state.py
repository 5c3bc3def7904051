"""The sync state in the collection's tables (migration 013): per folder its UIDVALIDITY, the
last UID read and the CONDSTORE mark; per UID the archived message it is and its flags."""

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass

from archive.store.database import Store

DELETED = "\\Deleted"


@dataclass(frozen=True)
class FolderState:
    uidvalidity: int
    last_uid: int
    highest_modseq: int | None


@dataclass(frozen=True)
class Row:
    """One UID read from a folder."""

    uid: int
    source_id: str | None
    flags: frozenset[str]
    error: str | None = None

    @property
    def live(self) -> bool:
        """Whether this UID keeps its message in the archive (read, and not flagged \\Deleted)."""
        return self.source_id is not None and DELETED not in self.flags


async def folder_state(store: Store, mailbox: str, folder: str) -> FolderState | None:
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT uidvalidity, last_uid, highest_modseq FROM mailbox_folders"
            " WHERE mailbox = %s AND folder = %s",
            (mailbox, folder),
        )
        row = await cur.fetchone()
    return None if row is None else FolderState(**row)


async def start_folder(store: Store, mailbox: str, folder: str, uidvalidity: int) -> None:
    """Record ``uidvalidity`` as the folder's current one, reading it from UID 1 again (rows of
    an older UIDVALIDITY stay until :func:`drop_void_rows`, so a killed resync loses nothing)."""
    async with store.pool.connection() as conn:
        await conn.execute(
            "INSERT INTO mailbox_folders (mailbox, folder, uidvalidity) VALUES (%s, %s, %s)"
            " ON CONFLICT (mailbox, folder) DO UPDATE SET uidvalidity = EXCLUDED.uidvalidity,"
            " last_uid = 0, highest_modseq = NULL, synced_at = now()",
            (mailbox, folder, uidvalidity),
        )


async def rows(store: Store, mailbox: str, folder: str, uidvalidity: int) -> dict[int, Row]:
    """The UIDs the folder held when last read."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT uid, source_id, flags, error FROM mailbox_messages"
            " WHERE mailbox = %s AND folder = %s AND uidvalidity = %s AND NOT gone",
            (mailbox, folder, uidvalidity),
        )
        return {
            r["uid"]: Row(r["uid"], r["source_id"], frozenset(r["flags"]), r["error"])
            for r in await cur.fetchall()
        }


async def record(
    store: Store,
    mailbox: str,
    folder: str,
    uidvalidity: int,
    read: Sequence[Row],
    *,
    last_uid: int | None = None,
) -> None:
    """Store ``read`` rows (and advance the folder's last UID) in one transaction: what a killed
    run committed is never read again, what it did not is read again."""
    async with store.pool.connection() as conn, conn.transaction():
        async with conn.cursor() as cur:
            await cur.executemany(
                "INSERT INTO mailbox_messages"
                " (mailbox, folder, uidvalidity, uid, source_id, flags, error)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (mailbox, folder, uidvalidity, uid) DO UPDATE SET"
                " source_id = EXCLUDED.source_id, flags = EXCLUDED.flags, error = EXCLUDED.error",
                [
                    (mailbox, folder, uidvalidity, r.uid, r.source_id, sorted(r.flags), r.error)
                    for r in read
                ],
            )
        if last_uid is not None:
            await conn.execute(
                "UPDATE mailbox_folders SET last_uid = greatest(last_uid, %s), synced_at = now()"
                " WHERE mailbox = %s AND folder = %s",
                (last_uid, mailbox, folder),
            )


async def mark_gone(
    store: Store, mailbox: str, folder: str, uidvalidity: int, uids: Iterable[int]
) -> None:
    """UIDs the folder no longer holds (expunged or moved away); :func:`settle` finishes them."""
    async with store.pool.connection() as conn:
        await conn.execute(
            "UPDATE mailbox_messages SET gone = true WHERE mailbox = %s AND folder = %s"
            " AND uidvalidity = %s AND uid = ANY(%s)",
            (mailbox, folder, uidvalidity, list(uids)),
        )


async def mark_void(store: Store, mailbox: str, folder: str, uidvalidity: int) -> None:
    """Rows of older UIDVALIDITYs, once the folder was read whole under the new one."""
    async with store.pool.connection() as conn:
        await conn.execute(
            "UPDATE mailbox_messages SET gone = true WHERE mailbox = %s AND folder = %s"
            " AND uidvalidity <> %s AND NOT gone",
            (mailbox, folder, uidvalidity),
        )


async def set_modseq(store: Store, mailbox: str, folder: str, modseq: int | None) -> None:
    async with store.pool.connection() as conn:
        await conn.execute(
            "UPDATE mailbox_folders SET highest_modseq = %s, synced_at = now()"
            " WHERE mailbox = %s AND folder = %s",
            (modseq, mailbox, folder),
        )


@dataclass(frozen=True)
class Settled:
    deleted: list[str]  # messages no synced folder holds any more
    kept: int  # messages that left a folder (or were \\Deleted there) but another one holds


async def settle(store: Store, delete: Callable[[list[str]], Awaitable[object]]) -> Settled:
    """Delete (through ``delete``) the archived messages that only gone or \\Deleted rows
    name, then drop the gone rows. Everything it reads is in the tables, so a run killed
    before or during it is finished by the next."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT m.source_id, EXISTS (SELECT 1 FROM documents d"
            "  WHERE d.source_id = m.source_id AND d.kind = 'email') AS archived,"
            " EXISTS (SELECT 1 FROM mailbox_messages l WHERE l.source_id = m.source_id"
            "  AND NOT l.gone AND NOT %s = ANY(l.flags)) AS held"
            " FROM mailbox_messages m"
            " WHERE m.source_id IS NOT NULL AND (m.gone OR %s = ANY(m.flags))",
            (DELETED, DELETED),
        )
        found = await cur.fetchall()
    doomed = sorted(r["source_id"] for r in found if r["archived"] and not r["held"])
    if doomed:
        await delete(doomed)
    async with store.pool.connection() as conn:
        await conn.execute("DELETE FROM mailbox_messages WHERE gone")
    return Settled(doomed, kept=sum(1 for r in found if r["held"]))


@contextlib.asynccontextmanager
async def sync_lock(store: Store, mailbox: str, *, wait: bool) -> AsyncIterator[bool]:
    """One sync of ``mailbox`` into this collection at a time, across processes and machines:
    yields whether the lock is held (``wait=False``: False at once when another run has it).
    The lock is the session's, on a connection kept for the run, and released with it."""
    key = f"bosun:sync:{store.schema}:{mailbox}"
    async with store.pool.connection() as conn:
        if wait:
            await conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
            held = True
        else:
            cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s)) AS ok", (key,))
            row = await cur.fetchone()
            held = bool(row and row["ok"])
        try:
            yield held
        finally:
            if held:
                await conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))
