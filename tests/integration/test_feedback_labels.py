"""Feedback as labels on real PostgreSQL: the passages a turn showed (with their places), the
citations its user opened, the originals downloaded, thumbs; kept per collection and per user,
and deleted with the thread."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from adapt.feedback import read_shown, turn_labels
from agent.server.runtime import RuntimeHolder
from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_documents
from tests.integration.server_harness import ask, serve
from tests.integration.test_conversation_postgres import fixture_documents

pytestmark = pytest.mark.integration

QUESTION = "Why did the purifier on Kestrel Dawn overheat?"
KEYS = {"key-a": "alice", "key-b": "bob"}
ALICE = {"Authorization": "Bearer key-a"}
BOB = {"Authorization": "Bearer key-b"}


@pytest.fixture(scope="module")
async def other(ingested: Services, settings: Settings) -> AsyncIterator[Settings]:
    """A second collection in the same database holding the same documents."""
    second = dataclasses.replace(settings, collection=f"{settings.collection}_b")
    async with open_services(second) as services:
        report = await ingest_documents(
            fixture_documents(),
            services.store,
            services.embeddings,
            services.archive,
            progress=False,
        )
        assert not report.errors
    yield second


def rows(settings: Settings, query: str, *args: Any) -> list[dict[str, Any]]:
    with psycopg.connect(settings.database_uri(), row_factory=dict_row) as conn:
        return conn.execute(query, args).fetchall()  # type: ignore[arg-type]


def shown(settings: Settings, message_id: str) -> list[dict[str, Any]]:
    return rows(
        settings,
        "SELECT * FROM bosun_shown WHERE message_id = %s ORDER BY position",
        message_id,
    )


async def test_a_turn_stores_what_it_showed_and_what_its_user_opened_and_downloaded(
    ingested: Services, settings: Settings
) -> None:
    async with serve(settings, api_keys=KEYS) as client:
        final = (await ask(client, QUESTION, key="key-a"))[-1][1]
        cited = final["citations"]
        stored = shown(settings, final["message_id"])
        assert [r["chunk_id"] for r in stored] == [c["chunk_id"] for c in cited]
        assert [r["position"] for r in stored] == [c["n"] for c in cited]
        assert {r["user_id"] for r in stored} == {"alice"}
        assert {r["collection"] for r in stored} == {settings.collection}
        assert {r["question"] for r in stored} == {QUESTION}
        assert all(r["rank"] is None or r["rank"] >= 1 for r in stored)
        assert not any(r["opened_at"] or r["downloaded_at"] for r in stored)

        first = cited[0]
        # Bob opening the same passage labels nothing of Alice's.
        assert (await client.get(f"/api/citations/{first['chunk_id']}", headers=BOB)).is_success
        assert not any(r["opened_at"] for r in shown(settings, final["message_id"]))
        detail = await client.get(f"/api/citations/{first['chunk_id']}", headers=ALICE)
        assert detail.status_code == 200
        assert (await client.get(detail.json()["download_url"])).status_code == 200
        stamped = {r["chunk_id"]: r for r in shown(settings, final["message_id"])}
        assert stamped[first["chunk_id"]]["opened_at"] is not None
        assert stamped[first["chunk_id"]]["downloaded_at"] is not None
        assert all(r["opened_at"] is None for c, r in stamped.items() if c != first["chunk_id"])

        thumbs = {
            "thread_id": final_thread(stored),
            "message_id": final["message_id"],
            "score": 1,
            "comment": "the right report",
        }
        assert (await client.post("/api/feedback", json=thumbs, headers=ALICE)).status_code == 201


async def test_labels_stay_in_their_collection_and_go_with_their_thread(
    ingested: Services, settings: Settings, other: Settings
) -> None:
    async with serve(other, api_keys=KEYS) as client:
        in_other = (await ask(client, QUESTION, key="key-a"))[-1][1]
    async with serve(settings, api_keys=KEYS) as client:
        here = (await ask(client, QUESTION, key="key-a"))[-1][1]
        chunk = here["citations"][0]["chunk_id"]
        assert chunk in {c["chunk_id"] for c in in_other["citations"]}  # same documents
        assert (await client.get(f"/api/citations/{chunk}", headers=ALICE)).is_success
        thread = final_thread(shown(settings, here["message_id"]))
        thumbs = {"thread_id": thread, "message_id": here["message_id"], "score": -1}
        assert (await client.post("/api/feedback", json=thumbs, headers=ALICE)).is_success

        # The open in this collection stamped this collection's turn, not the other's.
        assert {r["collection"] for r in shown(settings, in_other["message_id"])} == {
            other.collection
        }
        assert not any(r["opened_at"] for r in shown(settings, in_other["message_id"]))
        assert any(r["opened_at"] for r in shown(settings, here["message_id"]))

        # `bosun adapt --collection C` reads C's labels and no other collection's.
        mine = read_shown(settings.database_uri(), settings.collection)
        theirs = read_shown(settings.database_uri(), other.collection)
        assert here["message_id"] in {r.turn for r in mine}
        assert in_other["message_id"] not in {r.turn for r in mine}
        assert {r.turn for r in theirs} == {in_other["message_id"]}
        this_turn = [r for r in mine if r.turn == here["message_id"]]
        # Thumbed down after the open: no positive, the passages left alone rejected.
        rejected = frozenset(r.chunk_id for r in this_turn if r.chunk_id != chunk)
        expected = [(frozenset(), rejected)] if rejected else []
        assert [(lb.positives, lb.negatives) for lb in turn_labels(this_turn)] == expected
        assert (await client.delete(f"/api/threads/{thread}", headers=ALICE)).status_code == 204
    assert shown(settings, here["message_id"]) == []
    assert rows(settings, "SELECT id FROM bosun_feedback WHERE thread_id = %s", thread) == []
    assert shown(settings, in_other["message_id"])  # another thread's labels stay


def final_thread(stored: list[dict[str, Any]]) -> str:
    threads = {r["thread_id"] for r in stored}
    assert len(threads) == 1
    return threads.pop()


async def test_a_reload_serves_a_fresh_runtime_and_closes_the_old_one_after_its_requests(
    ingested: Services, settings: Settings
) -> None:
    """What the adapt schedule calls once a model passed its check: new requests get a runtime
    opened on the collection as it is now; the old one still answers the requests holding it."""
    holder = RuntimeHolder(settings)
    try:
        first = await holder.get()
        await holder.reload()
        second = await holder.get()
        assert second is not first and second.services is not first.services
        async with first.pool.connection() as conn:  # within the grace period
            assert await (await conn.execute("SELECT 1 AS one")).fetchone() == {"one": 1}
    finally:
        await holder.close()
    assert first.pool.closed and second.pool.closed
