"""`bosun sync` against a real IMAP server (dovecot on 127.0.0.1) filled with real messages
from the usrp-users list: the first sync equals `bosun ingest` of the same files, and append,
expunge, move, flags, a UIDVALIDITY change, an unreadable message and a dropped connection
each change the archive as the mailbox changed."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from functools import partial
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.mailbox.address import parse_mailbox
from archive.mailbox.session import Session
from archive.mailbox.sync import SyncReport, sync_mailbox
from tests import dovecot

# Two real threads of three messages each (Message-ID / In-Reply-To / References).
THREADS = (
    (
        "16b5c037dd97b5fb12caf5843707f939f808b018.eml",
        "6367e1bf6c6c4d04946aa12bc034def148706980.eml",
        "d73d33501d2095d1219da2daedd98e0dd14305d3.eml",
    ),
    (
        "7fdb90562d85d34f5a68ba5970e06d51f42c965c.eml",
        "b8f0469b7d1751a2d984d4c8d0fda1a363c50979.eml",
        "cf3a864d0dabf5df42ea185dadb46e89ad74eebd.eml",
    ),
)
LONE = "0dceb2d781a6e7bcd2e2d409c12ff03722fa1a56.eml"

pytestmark = pytest.mark.skipif(
    not dovecot.available(), reason="dovecot-imapd is not installed (.ci/run installs it)"
)


@pytest.fixture
def server() -> Iterator[dovecot.Dovecot]:
    with dovecot.running() as imap:
        yield imap


@pytest.fixture
def messages(shared_data: Path) -> list[Path]:
    folder = shared_data / "email" / "usrp-users"
    return [folder / name for thread in THREADS for name in thread]


@pytest.fixture
async def fresh(settings: Settings) -> AsyncIterator[Services]:
    async with open_services(settings, collection=f"sync_{uuid.uuid4().hex[:8]}") as opened:
        yield opened


def fill(server: dovecot.Dovecot, files: list[Path], folder: str = "INBOX") -> None:
    with server.client() as client:
        if not client.folder_exists(folder):
            client.create_folder(folder)
        for path in files:
            client.append(folder, path.read_bytes())


async def sync(
    server: dovecot.Dovecot, services: Services, *folders: str, **options: object
) -> SyncReport:
    mailbox = parse_mailbox(f"imap://{dovecot.USER}@127.0.0.1:{server.port}", folders)
    connect = partial(Session, mailbox, dovecot.PASSWORD, ssl_context=None)
    return await sync_mailbox(
        mailbox, connect, services.store, services.embeddings, services.archive, **options
    )  # type: ignore[arg-type]


async def contents(services: Services) -> dict[str, object]:
    """What a collection holds, without its ids' collection-specific parts."""
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT kind, source_id, title, thread_id FROM documents ORDER BY kind, source_id"
        )
        documents = [tuple(r.values()) for r in await cur.fetchall()]
        cur = await conn.execute(
            "SELECT d.source_id, c.content FROM chunks c JOIN documents d USING (doc_id)"
            " WHERE d.kind <> 'thread_digest' ORDER BY 1, 2"
        )
        chunks = [tuple(r.values()) for r in await cur.fetchall()]
        cur = await conn.execute(
            "SELECT thread_id FROM documents WHERE kind = 'thread_digest' ORDER BY 1"
        )
        digests = [r["thread_id"] for r in await cur.fetchall()]
    return {"documents": documents, "chunks": chunks, "digests": digests}


async def source_ids(services: Services) -> set[str]:
    async with services.store.pool.connection() as conn:
        cur = await conn.execute("SELECT source_id FROM documents WHERE kind = 'email'")
        return {r["source_id"] for r in await cur.fetchall()}


async def test_first_sync_equals_ingest_of_the_same_files(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services, settings: Settings
) -> None:
    fill(server, messages)
    report = await sync(server, fresh)
    assert report.folders["INBOX"].fetched == len(messages)
    assert not report.folders["INBOX"].failed
    async with open_services(settings, collection=f"ingest_{uuid.uuid4().hex[:8]}") as other:
        await ingest_paths(messages, other.store, other.embeddings, other.archive, progress=False)
        expected = await contents(other)
    synced = await contents(fresh)
    assert synced == expected
    assert len(synced["digests"]) == len(THREADS)  # type: ignore[arg-type]

    again = await sync(server, fresh)
    assert again.folders["INBOX"].fetched == 0  # nothing new: nothing read
    fill(server, [messages[0].parent / LONE])
    newer = await sync(server, fresh)
    assert newer.folders["INBOX"].fetched == 1
    assert len(await source_ids(fresh)) == len(messages) + 1


async def test_expunged_and_deleted_flagged_messages_leave_the_archive(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services
) -> None:
    fill(server, messages)
    await sync(server, fresh)
    before = await source_ids(fresh)
    with server.client() as client:
        client.select_folder("INBOX")
        uids = client.search("ALL")
        client.delete_messages([uids[0]])  # flagged \Deleted, not yet expunged
    flagged = await sync(server, fresh)
    assert flagged.deleted == 1 and flagged.folders["INBOX"].flags_changed == 1
    after_flag = await source_ids(fresh)
    assert len(after_flag) == len(before) - 1
    with server.client() as client:
        client.select_folder("INBOX")
        client.remove_flags([uids[0]], [b"\\Deleted"])  # undeleted: archived again
    restored = await sync(server, fresh)
    assert restored.folders["INBOX"].fetched == 1 and await source_ids(fresh) == before
    with server.client() as client:
        client.select_folder("INBOX")
        client.delete_messages([uids[1]])
        client.expunge()
    expunged = await sync(server, fresh)
    assert expunged.deleted == 1 and expunged.folders["INBOX"].gone == 1
    assert len(await source_ids(fresh)) == len(before) - 1
    assert expunged.digests >= 1  # the thread that lost a message has its digest redone


async def test_a_move_between_synced_folders_keeps_the_message(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services
) -> None:
    fill(server, messages)
    with server.client() as client:
        client.create_folder("Archive")
        client.create_folder("Trash")
    await sync(server, fresh, "INBOX", "Archive")
    before = await source_ids(fresh)
    with server.client() as client:
        client.select_folder("INBOX")
        uids = client.search("ALL")
        client.move([uids[0]], "Archive")
    moved = await sync(server, fresh, "INBOX", "Archive")
    assert moved.deleted == 0 and moved.kept_moved == 1
    assert moved.folders["Archive"].fetched == 1 and moved.folders["Archive"].added == 0
    assert await source_ids(fresh) == before
    async with fresh.store.pool.connection() as conn:
        cur = await conn.execute("SELECT folder FROM mailbox_messages ORDER BY folder")
        assert [r["folder"] for r in await cur.fetchall()].count("Archive") == 1
    with server.client() as client:  # to a folder nobody syncs: gone from the archive
        client.select_folder("INBOX")
        client.move([uids[1]], "Trash")
    away = await sync(server, fresh, "INBOX", "Archive")
    assert away.deleted == 1 and len(await source_ids(fresh)) == len(before) - 1


async def test_flag_changes_are_read_without_fetching_again(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services
) -> None:
    fill(server, messages)
    await sync(server, fresh)
    with server.client() as client:
        client.select_folder("INBOX")
        client.add_flags(client.search("ALL")[:2], [b"\\Flagged"])
    flagged = await sync(server, fresh)
    folder = flagged.folders["INBOX"]
    assert (folder.flags_changed, folder.fetched, flagged.deleted) == (2, 0, 0)
    async with fresh.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM mailbox_messages WHERE '\\Flagged' = ANY(flags)"
        )
        assert (await cur.fetchone())["n"] == 2  # type: ignore[index]


async def test_a_new_uidvalidity_resyncs_the_folder_without_duplicates(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services
) -> None:
    fill(server, messages, "Ops")
    await sync(server, fresh, "Ops")
    before = await contents(fresh)
    with server.client() as client:  # the server's folder rebuilt: same mail, new UIDVALIDITY
        client.delete_folder("Ops")
    fill(server, messages[:-1], "Ops")
    resync = await sync(server, fresh, "Ops")
    assert resync.folders["Ops"].resynced
    assert resync.folders["Ops"].fetched == len(messages) - 1
    assert resync.folders["Ops"].added == 0  # already archived: nothing stored twice
    assert resync.deleted == 1  # the message the rebuilt folder lacks
    after = await contents(fresh)
    assert len(after["documents"]) < len(before["documents"])  # type: ignore[arg-type]
    assert len(set(after["documents"])) == len(after["documents"])  # type: ignore[arg-type]


async def test_an_unreadable_message_is_recorded_and_skipped_once(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services
) -> None:
    with server.client() as client:
        client.append("INBOX", b"X-Junk: 1\r\n\r\nno sender and no Message-ID\r\n")
    fill(server, messages[:2])
    first = await sync(server, fresh)
    failed = first.folders["INBOX"].failed
    assert len(failed) == 1 and "not an email message" in str(failed[0]["reason"])
    assert len(await source_ids(fresh)) == 2  # the good mail beside it is stored
    second = await sync(server, fresh)
    assert second.folders["INBOX"].fetched == 0 and not second.folders["INBOX"].failed


async def test_a_dropped_connection_resumes_from_the_committed_batch(
    server: dovecot.Dovecot, messages: list[Path], fresh: Services
) -> None:
    fill(server, messages)
    batches: list[int] = []

    def cut_after_first(folder: str, n: int) -> None:
        batches.append(n)
        if len(batches) == 1:
            server.kick()

    report = await sync(server, fresh, batch=2, on_batch=cut_after_first)
    assert report.reconnects >= 1
    assert report.folders["INBOX"].fetched == len(messages)  # each message read once
    assert len(await source_ids(fresh)) == len(messages)
