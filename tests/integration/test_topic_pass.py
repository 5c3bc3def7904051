"""The pipelined topic pass: names shared by batches in flight are embedded and inserted once,
every topic's count equals its links, a rerun after the pass reads nothing, and the names'
vector index is there after every pass (built once at the end of a first one)."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.ingest.topics import build_topics
from archive.ingest.workers import in_process

pytestmark = pytest.mark.integration

FLEET_MAIL = Path(__file__).resolve().parents[2] / "examples" / "archive" / "fleet-mail"


@pytest.fixture(scope="module")
async def ingested(settings: Settings) -> AsyncIterator[Services]:
    async with open_services(settings, collection=f"{settings.collection}_tpass") as svc:
        report = await ingest_paths([FLEET_MAIL], svc.store, svc.embeddings, svc.archive)
        assert report.errors == [] and report.topics > 10
        yield svc


async def _snapshot(svc: Services) -> dict[str, list[tuple]]:
    async with svc.store.pool.connection() as conn:
        topics = await conn.execute("SELECT name, chunk_count FROM topics ORDER BY name")
        links = await conn.execute(
            "SELECT ct.chunk_id, t.name, ct.weight FROM chunk_topics ct JOIN topics t"
            " USING (topic_id) ORDER BY 1, 2"
        )
        linked = await conn.execute(
            "SELECT t.name, count(ct.chunk_id) FROM topics t LEFT JOIN chunk_topics ct"
            " USING (topic_id) GROUP BY t.name ORDER BY t.name"
        )
        return {
            "topics": [tuple(r.values()) for r in await topics.fetchall()],
            "links": [tuple(r.values()) for r in await links.fetchall()],
            "linked": [tuple(r.values()) for r in await linked.fetchall()],
        }


async def _indexed(svc: Services) -> bool:
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT count(*) AS n FROM pg_indexes"
            " WHERE schemaname = current_schema() AND indexname = 'topics_embedding_hnsw'"
        )
        row = await cur.fetchone()
        return bool(row and row["n"])


async def test_small_batches_embed_each_name_once_and_count_exactly(ingested: Services) -> None:
    svc = ingested
    first = await _snapshot(svc)
    assert first["topics"] == first["linked"]  # counts written by the pass equal the links
    async with svc.store.pool.connection() as conn:
        await conn.execute("TRUNCATE topics, chunk_topics, topic_scanned")
        await conn.execute("INSERT INTO topic_pending SELECT chunk_id FROM chunks")
    embedded: Counter[str] = Counter()
    model = in_process(svc.embeddings)

    async def counting(texts: list[str]) -> Sequence[Sequence[float]]:
        embedded.update(texts)
        return await model(texts)

    # 3 chunks a batch: many batches in flight at once name the same topics
    stats = await build_topics(svc.store, svc.embeddings, batch=3, embed=counting)
    again = await _snapshot(svc)
    assert again["topics"] == again["linked"]
    assert stats.new_topics == len(again["topics"]) == len(embedded)
    assert set(embedded.values()) == {1}
    assert stats.links == len(again["links"])
    shared = [name for name, count in again["topics"] if count > 1]
    assert shared  # some names are linked from several batches
    rerun = await build_topics(svc.store, svc.embeddings, embed=counting)
    assert (rerun.chunks, rerun.new_topics) == (0, 0)
    assert await _indexed(svc)


async def test_a_pass_builds_the_index_a_stopped_pass_dropped(ingested: Services) -> None:
    svc = ingested
    async with svc.store.pool.connection() as conn:
        await conn.execute("DROP INDEX topics_embedding_hnsw")  # as a pass killed mid-way leaves it
    assert not await _indexed(svc)
    nothing = await build_topics(svc.store, svc.embeddings)
    assert nothing.chunks == 0 and await _indexed(svc)
    async with svc.store.pool.connection() as conn, conn.transaction():
        await conn.execute("SET LOCAL enable_seqscan = off")  # a few dozen rows: scanned else
        cur = await conn.execute(
            "EXPLAIN SELECT name FROM topics ORDER BY embedding <=> %s::vector LIMIT 5",
            (str([0.05] * 384),),
        )
        plan = " ".join(str(r) for r in await cur.fetchall())
    assert "topics_embedding_hnsw" in plan
