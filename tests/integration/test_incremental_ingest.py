"""Adding and deleting documents touches only what they change: the derived stages read only the
new chunks, the touched thread and the new documents; a delete removes a document with its
chunks, postings, vectors and links, redoes its thread's digest and leaves the BM25 statistics
exact, with no global rebuild."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.pipeline import ingest_paths, refresh_derived
from archive.ingest.vessel_tagging import tagged_kinds
from archive.store.database import Store
from archive.store.documents import UnknownSource, delete_sources

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "archive"
BALTIC_TRADER_ROOT = "bt-2025-007@baltictrader.example"
NORDIC_STAR_ROOT = "ns-2025-001@nordicstar.example"
REPLY_ID = "bt-2025-009@baltictrader.example"
REPLY = (
    "From: Master Baltic Trader <master@baltictrader.example>\n"
    "To: Operations <ops@bosun-shipping.example>\n"
    "Subject: RE: Baltic Trader - wet damage to steel coils in hold 2\n"
    "Date: Sat, 08 Feb 2025 10:00:00 +0000\n"
    f"Message-ID: <{REPLY_ID}>\n"
    "In-Reply-To: <ops-2025-052@bosun-shipping.example>\n"
    "References: <bt-2025-007@baltictrader.example> <ops-2025-052@bosun-shipping.example>\n"
    "\n"
    "New seals fitted on hatch 2 by the riding crew. The ultrasonic tightness test passed\n"
    "on all panels; report attached to the voyage file. Loading started this morning.\n"
)

#: Names a ship the registry does not know yet; ``CHARTERED`` registers it later.
NOTE = "Bunker survey booked for Coral Dawn at Rotterdam next week; the surveyor will board.\n"
CHARTERED = "vessel_name,imo,vessel_type,vessel_class\nCoral Dawn,9611111,Tanker,ABS\n"


async def _rows(store: Store, query: str, *params: Any) -> list[dict[str, Any]]:
    async with store.pool.connection() as conn:
        cur = await conn.execute(query, params)  # type: ignore[arg-type]
        return [dict(r) for r in await cur.fetchall()]


async def _one(store: Store, query: str, *params: Any) -> Any:
    return next(iter((await _rows(store, query, *params))[0].values()))


async def _bm25_exact(store: Store) -> None:
    """Statistics and document frequencies equal what the postings hold."""
    row = (
        await _rows(
            store,
            "SELECT (SELECT n_chunks FROM bm25_stats) AS n, (SELECT count(*) FROM chunks) AS c,"
            " (SELECT total_len FROM bm25_stats) AS len,"
            " (SELECT coalesce(sum(bm25_len), 0) FROM chunks) AS summed",
        )
    )[0]
    assert row["n"] == row["c"] and row["len"] == row["summed"]
    wrong = await _one(
        store,
        "SELECT count(*) FROM bm25_terms t FULL JOIN ("
        " SELECT lexeme, count(*) AS df FROM bm25_postings GROUP BY lexeme) p USING (lexeme)"
        " WHERE t.df IS DISTINCT FROM p.df",
    )
    assert wrong == 0


async def _topic_counts_exact(store: Store) -> None:
    """Every topic's count equals its links (kept by the topic pass and the delete trigger)."""
    wrong = await _one(
        store,
        "SELECT count(*) FROM topics t WHERE chunk_count <>"
        " (SELECT count(*) FROM chunk_topics ct WHERE ct.topic_id = t.topic_id)",
    )
    assert wrong == 0


@pytest.fixture(scope="module")
async def grown(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator:
    """The example mailbox and 30 NTSB records ingested; then one reply in the Baltic Trader
    thread and 3 more records added. Yields the services, the first state and the report."""
    folder = tmp_path_factory.mktemp("incremental")
    shutil.copytree(EXAMPLES / "fleet-mail", folder / "fleet-mail")
    lines = (EXAMPLES / "ntsb" / "reports_sample.jsonl").read_text().splitlines()
    (folder / "a.jsonl").write_text("\n".join(lines[:30]) + "\n")
    (folder / "note.txt").write_text(NOTE)
    async with open_services(settings, collection=f"{settings.collection}_incr") as svc:
        first = await ingest_paths([folder], svc.store, svc.embeddings, svc.archive, progress=False)
        assert first.errors == [] and first.digests == 2
        before = {
            "digests": await _rows(
                svc.store,
                "SELECT thread_id, doc_id, ingested_at FROM documents"
                " WHERE kind = 'thread_digest' ORDER BY thread_id",
            ),
            "links": await _rows(
                svc.store, "SELECT chunk_id, topic_id, weight FROM chunk_topics ORDER BY 1, 2"
            ),
            "topics": await _rows(svc.store, "SELECT topic_id, name FROM topics ORDER BY 1"),
            "counts": await _counts(svc.store),
            "at": await _one(svc.store, "SELECT max(ingested_at) FROM documents"),
        }
        (folder / "fleet-mail" / "06-seals-tested.eml").write_text(REPLY)
        (folder / "b.jsonl").write_text("\n".join(lines[30:33]) + "\n")
        (folder / "chartered.csv").write_text(CHARTERED)
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        yield svc, before, report


async def _counts(store: Store) -> dict[str, int]:
    queries = {
        "documents": "SELECT count(*) FROM documents",
        "chunks": "SELECT count(*) FROM chunks",
        "postings": "SELECT count(*) FROM bm25_postings",
        "vessel_links": "SELECT count(*) FROM document_vessels",
        "linked_topics": "SELECT count(*) FROM topics WHERE chunk_count > 0",
        "topic_links": "SELECT count(*) FROM chunk_topics",
    }
    return {name: int(await _one(store, q)) for name, q in queries.items()}


async def test_adding_documents_reads_only_what_is_new(grown: tuple) -> None:
    svc, before, report = grown
    assert (report.added, report.updated, report.digests) == (5, 0, 1)
    # the topic pass read the new chunks only (the reply, the records, the redone digest)
    assert report.read["topic_chunks"] == report.chunks_added
    # the vessel tagger read the new reply, and of the documents read before only the one that
    # names the newly registered ship (found through the postings), not every untagged one;
    # the thread's new digest is read as the digests are written
    assert report.read["vessel_documents"] == 2
    tagged = await _one(
        svc.store,
        "SELECT string_agg(v.name, ',') FROM document_vessels dv JOIN vessels v USING"
        " (vessel_key) JOIN documents d USING (doc_id) WHERE d.source_id = 'note.txt'",
    )
    assert tagged == "Coral Dawn"
    unread = await _one(
        svc.store,
        "SELECT count(*) FROM documents d WHERE kind = ANY(%s)"
        " AND NOT EXISTS (SELECT 1 FROM vessel_scanned s WHERE s.doc_id = d.doc_id)"
        " AND NOT EXISTS (SELECT 1 FROM document_vessels v WHERE v.doc_id = d.doc_id)",
        tagged_kinds(),
    )
    assert unread == 0
    digests = await _rows(
        svc.store,
        "SELECT thread_id, doc_id, ingested_at FROM documents"
        " WHERE kind = 'thread_digest' ORDER BY thread_id",
    )
    untouched = [d for d in digests if d["thread_id"] == NORDIC_STAR_ROOT]
    assert untouched == [d for d in before["digests"] if d["thread_id"] == NORDIC_STAR_ROOT]
    redone = next(d for d in digests if d["thread_id"] == BALTIC_TRADER_ROOT)
    assert redone["ingested_at"] > before["at"]
    # topics of the chunks already read are as they were; the ontology only grew
    links = await _rows(
        svc.store, "SELECT chunk_id, topic_id, weight FROM chunk_topics ORDER BY 1, 2"
    )
    old_chunks = {r["chunk_id"] for r in await _rows(svc.store, "SELECT chunk_id FROM chunks")}
    kept = [r for r in before["links"] if r["chunk_id"] in old_chunks]
    assert [r for r in links if r in kept] == kept
    names = {r["topic_id"]: r["name"] for r in await _rows(svc.store, "SELECT * FROM topics")}
    assert all(names.get(t["topic_id"]) == t["name"] for t in before["topics"])
    assert await _one(svc.store, "SELECT count(*) FROM topic_pending") == 0
    assert await _one(svc.store, "SELECT count(*) FROM digest_pending") == 0
    await _bm25_exact(svc.store)
    await _topic_counts_exact(svc.store)  # names it had were raised by the new links


async def test_delete_removes_documents_and_redoes_their_thread_digest(grown: tuple) -> None:
    svc, before, _ = grown
    record = (
        await _rows(
            svc.store,
            "SELECT source_id FROM documents WHERE kind = 'ntsb_report'"
            " ORDER BY ingested_at DESC, source_id LIMIT 1",
        )
    )[0]["source_id"]
    doomed = await _rows(
        svc.store,
        "SELECT doc_id FROM documents WHERE source_id = ANY(%s)",
        [REPLY_ID, record],
    )
    assert len(doomed) == 2
    with pytest.raises(UnknownSource, match="NO-SUCH-ID"):
        await delete_sources(svc.store, [record, "NO-SUCH-ID"])
    assert await _one(svc.store, "SELECT count(*) FROM documents WHERE source_id = %s", record)

    deleted = await delete_sources(svc.store, [REPLY_ID, record])
    assert deleted.documents == 2 and deleted.chunks >= 2
    derived = await refresh_derived(svc.store, svc.embeddings, svc.archive)
    assert derived.digests == 1  # the Baltic Trader thread, back to its two messages
    ids = [d["doc_id"] for d in doomed]
    for table in ("documents", "chunks", "document_vessels", "vessel_scanned"):
        left = await _one(
            svc.store,
            f"SELECT count(*) FROM {table} WHERE doc_id = ANY(%s)",
            ids,  # noqa: S608
        )
        assert left == 0, table
    orphans = await _one(
        svc.store,
        "SELECT count(*) FROM bm25_postings p WHERE NOT EXISTS"
        " (SELECT 1 FROM chunks c WHERE c.chunk_id = p.chunk_id)",
    )
    assert orphans == 0
    messages = await _one(
        svc.store,
        "SELECT metadata->>'message_count' FROM documents"
        " WHERE kind = 'thread_digest' AND thread_id = %s",
        BALTIC_TRADER_ROOT,
    )
    assert messages == "2"
    await _bm25_exact(svc.store)
    # the mailbox is back to what the first ingest stored, less nothing but the 3 new records
    counts = await _counts(svc.store)
    assert counts["documents"] == before["counts"]["documents"] + 3  # 2 records, the fleet list
    assert await _one(svc.store, "SELECT count(*) FROM topics WHERE chunk_count < 0") == 0
    await _topic_counts_exact(svc.store)
