"""The BM25 top k read from compacted blocks against the exact SQL one: after compaction, with
chunks stored (the delta) and deleted (the dead) since, and after compacting again."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from langchain_core.embeddings import Embeddings
from psycopg import AsyncConnection, sql

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store import candidates, lexical_blocks
from archive.store.candidates import bm25_search, lexical_candidates
from archive.store.documents import delete_document
from archive.store.lexical_blocks import block_search, compact
from archive.store.search_filters import SearchFilters

pytestmark = pytest.mark.integration

SAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "archive" / "ntsb" / "reports_sample.jsonl"
)
NONE = SearchFilters()
BLOCK = 4  # postings per block: many blocks per term, so reading stops early


class HashEmbeddings(Embeddings):
    """Cheap deterministic 384-dim vectors: BM25 does not read them."""

    model_id = "test:hash-384"
    dimension = 384

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
        v = np.random.default_rng(seed).normal(size=384)
        return (v / np.linalg.norm(v)).tolist()


def _questions() -> list[str]:
    """Long questions (probable causes), short ones, one term, common terms only, identifiers,
    and one with no term BM25 sees."""
    records = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    causes = [r["probable_cause"] for r in records if r.get("probable_cause")][:30]
    ids = [f"{r['ntsb_no']} {r.get('registration') or ''}" for r in records[::40]]
    return [
        *causes,
        *(" ".join(c.split()[:3]) for c in causes[:15]),
        *ids,
        "engine",
        "pilot",
        "the airplane pilot engine landing flight",
        "the of and",
    ]


async def _same(svc: Services, questions: list[str], limit: int, mode: str = "blocks") -> None:
    for question in questions:
        svc.store.bm25 = "exact"
        exact = await bm25_search(svc.store, question, NONE, limit=limit)
        svc.store.bm25 = mode
        blocks = await bm25_search(svc.store, question, NONE, limit=limit)
        assert [c for c, _ in blocks] == [c for c, _ in exact], question
        assert [s for _, s in blocks] == pytest.approx([s for _, s in exact], rel=1e-9), question


async def _same_documents(svc: Services, questions: list[str], filters: SearchFilters) -> None:
    """The lexical arm's documents, passages and scores are the same in exact and blocks mode
    (and its chunk top k, the hybrid's pool), with documents of several chunks among them."""
    several = 0
    for question in questions:
        ranked, pooled = {}, {}
        for mode in ("exact", "blocks"):
            svc.store.bm25 = mode
            rows = await lexical_candidates(svc.store, question, filters, limit=20, vector=None)
            ranked[mode] = [
                (p["doc_id"], p["chunk_id"], round(p["bm25"], 9), round(p["doc_bm25"], 9))
                for p in rows
            ]
            rows = await lexical_candidates(
                svc.store, question, filters, limit=20, by_document=False
            )
            pooled[mode] = [(p["chunk_id"], round(p["bm25"], 9)) for p in rows]
        assert ranked["blocks"] == ranked["exact"], question
        assert pooled["blocks"] == pooled["exact"], question
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT count(*) AS n FROM bm25_doc_lens WHERE doc_id = ANY(%s) AND chunks > 1",
                ([doc for doc, *_ in ranked["exact"]],),
            )
            several += (await cur.fetchone())["n"]
    assert several > 0


def _halves(tmp_path: Path) -> tuple[Path, Path]:
    """The sample's first 200 reports and the rest, as two files in two folders."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    first, second = tmp_path / "a" / "first.jsonl", tmp_path / "b" / "second.jsonl"
    for path, part in ((first, lines[:200]), (second, lines[200:])):
        path.parent.mkdir()
        path.write_text("\n".join(part) + "\n", encoding="utf-8")
    return first, second


async def _delete_first(svc: Services, count: int) -> None:
    """Delete the first ``count`` documents by id (``bosun delete``'s path)."""
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute("SELECT doc_id FROM documents ORDER BY doc_id LIMIT %s", (count,))
        doomed = [row["doc_id"] for row in await cur.fetchall()]
    for doc_id in doomed:
        assert await delete_document(svc.store, doc_id)


async def _reads(
    svc: Services, questions: list[str], caplog: pytest.LogCaptureFixture
) -> list[tuple[Any, ...]]:
    """The block reader's counts (terms, blocks read, from the database, candidates, lookups)
    for each of ``questions``, checked against exact SQL."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger=lexical_blocks.__name__):
        await _same(svc, questions, 10)
    reads = [r.args for r in caplog.records if "blocks read" in r.getMessage()]
    assert reads and all(isinstance(a, tuple) for a in reads)
    return reads  # type: ignore[return-value]


async def _segment(svc: Services) -> dict[str, int]:
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT (SELECT chunks FROM bm25_segment) AS chunks,"
            " (SELECT count(DISTINCT chunk_id) FROM bm25_delta) AS delta,"
            " (SELECT count(*) FROM bm25_dead) AS dead,"
            " (SELECT count(*) FROM bm25_blocks) AS blocks"
        )
        row = await cur.fetchone()
        assert row is not None
        return dict(row)


async def test_blocks_top_k_equals_exact_through_delta_dead_and_compaction(
    settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = _halves(tmp_path)
    questions = _questions()
    embeddings = HashEmbeddings()
    async with open_services(
        settings, collection=f"{settings.collection}_blocks", embeddings=embeddings
    ) as svc:
        await ingest_paths([first], svc.store, embeddings, svc.archive, progress=False)
        assert (await _segment(svc))["chunks"] == 0  # small: ingest does not compact
        await _same(svc, questions[:5], 10)  # no segment yet: blocks mode ranks in SQL
        async with svc.store.pool.connection() as conn:
            compacted = await compact(conn, BLOCK)
        assert compacted == (await _segment(svc))["chunks"] > 0
        first_pass = await _reads(svc, questions, caplog)
        assert any(a[4] > 0 for a in first_pass)  # some candidates were completed by lookups
        assert any(a[2] > 0 for a in first_pass)  # blocks came from the database
        # Asked again, every block comes from the process's cache, with the same top k.
        assert all(a[2] == 0 and a[1] > 0 for a in await _reads(svc, questions, caplog))
        await _same(svc, questions, 100)
        await _same(svc, questions[-4:], 100_000)  # k past every match: the whole lists

        # New chunks land in the delta, scored by SQL with the global statistics.
        await ingest_paths([second], svc.store, embeddings, svc.archive, progress=False)
        state = await _segment(svc)
        assert state["delta"] > 0 and state["dead"] == 0 and state["chunks"] == compacted
        await _same(svc, questions, 20)

        # Deleted chunks, compacted ones among them, leave the top k before it is taken.
        await _delete_first(svc, 60)
        state = await _segment(svc)
        assert state["dead"] > 0
        await _same(svc, questions, 20)

        # The lexical arm ranks the same documents, as the same best passages, with the same
        # chunk and document scores either way; documents of several chunks among them.
        await _same_documents(svc, questions[:20], NONE)

        async with svc.store.pool.connection() as conn:
            await compact(conn, BLOCK)
        state = await _segment(svc)
        assert state["delta"] == 0 and state["dead"] == 0
        await _same(svc, questions, 20)


async def test_searches_read_the_live_segment_while_the_next_is_built(
    settings: Settings, tmp_path: Path
) -> None:
    """A compaction builds beside the live segment: searches neither wait for it nor see a half
    state (the old segment and its delta until the swap commits, the new one after)."""
    first, second = _halves(tmp_path)
    questions = _questions()[:12]
    embeddings = HashEmbeddings()
    async with open_services(  # a search waiting on a lock fails after 30 s instead
        settings,
        collection=f"{settings.collection}_swap",
        embeddings=embeddings,
        statement_timeout_s=30,
    ) as svc:
        await ingest_paths([first], svc.store, embeddings, svc.archive, progress=False)
        async with svc.store.pool.connection() as conn:
            old = await compact(conn, BLOCK)
        await ingest_paths([second], svc.store, embeddings, svc.archive, progress=False)
        schema = sql.SQL("SET search_path TO {}, public").format(sql.Identifier(svc.store.schema))
        async with await AsyncConnection.connect(settings.database_uri(), autocommit=True) as own:
            await own.execute(schema)
            async with own.transaction():
                cur = await own.execute("SELECT bm25_compact_build(%s)", (BLOCK,))
                built = (await cur.fetchone())[0]  # type: ignore[index]
                state = await _segment(svc)
                assert state["chunks"] == old < built and state["delta"] > 0
                await _same(svc, questions, 10)
                await own.execute("SELECT bm25_compact_swap(%s)", (BLOCK,))
            state = await _segment(svc)
            assert state["chunks"] == built and state["delta"] == 0 and state["blocks"] > 0
            await _same(svc, questions, 10)

            # Deletions are tracked on the swapped-in numbering.
            await _delete_first(svc, 20)
            assert (await _segment(svc))["dead"] > 0
            await _same(svc, questions, 10)

            # A swap is refused outside the build's transaction: chunks stored in between
            # would be in no block once the delta is emptied.
            await own.execute("SELECT bm25_compact_build(%s)", (BLOCK,))
            with pytest.raises(psycopg.errors.RaiseException, match="transaction of bm25_compact"):
                await own.execute("SELECT bm25_compact_swap(%s)", (BLOCK,))
        await _same(svc, questions, 10)


async def test_without_a_cache_every_block_is_read_from_the_database(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    embeddings = HashEmbeddings()
    async with open_services(
        replace(settings, bm25_cache_mb=0),
        collection=f"{settings.collection}_nocache",
        embeddings=embeddings,
    ) as svc:
        await ingest_paths([SAMPLE], svc.store, embeddings, svc.archive, progress=False)
        async with svc.store.pool.connection() as conn:
            await compact(conn, BLOCK)
        for _ in range(2):
            reads = await _reads(svc, _questions()[:10], caplog)
            assert all(a[2] == a[1] > 0 for a in reads)  # read: all of them, every time
        assert len(svc.store.block_cache) == 0


async def test_ingest_compacts_once_enough_changed(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    parts = {"a": lines[:250], "b": lines[250:252], "c": lines[252:]}
    for name, part in parts.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.jsonl").write_text("\n".join(part) + "\n", encoding="utf-8")
    monkeypatch.setattr(lexical_blocks, "MIN_CHUNKS", 100)
    embeddings = HashEmbeddings()
    async with open_services(
        settings, collection=f"{settings.collection}_compacts", embeddings=embeddings
    ) as svc:
        report = await ingest_paths([tmp_path / "a"], svc.store, embeddings, svc.archive)
        first = await _segment(svc)
        assert report.read["bm25_compacted"] == first["chunks"] >= 100
        # A few more chunks (under a tenth): the delta takes them, nothing is rebuilt.
        report = await ingest_paths([tmp_path / "b"], svc.store, embeddings, svc.archive)
        state = await _segment(svc)
        assert report.read["bm25_compacted"] == 0 and state["chunks"] == first["chunks"]
        assert 0 < state["delta"] < 0.1 * state["chunks"]
        # Past a tenth of the collection, the segment is rebuilt with every chunk.
        report = await ingest_paths([tmp_path / "c"], svc.store, embeddings, svc.archive)
        state = await _segment(svc)
        assert report.read["bm25_compacted"] == state["chunks"] > first["chunks"]
        assert state["delta"] == 0
        await _same(svc, _questions()[:8], 10, mode="auto")  # a segment of MIN_CHUNKS: blocks


@pytest.mark.parametrize("wide", [False, True], ids=["few-rows-sql", "widened-blocks"])
async def test_filtered_search_in_blocks_mode_equals_exact(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, wide: bool
) -> None:
    """Filters matching few chunks rank in SQL; wider ones (here: every filter, the threshold
    set to 0) from a widened unfiltered top k, kept where the filter holds: the same top k."""
    if wide:
        monkeypatch.setattr(candidates, "EXACT_BELOW", 0)
    widths: list[int] = []

    async def spy(*args: Any, **kwargs: Any) -> list[tuple[str, float]] | None:
        widths.append(kwargs["limit"])
        return await block_search(*args, **kwargs)

    monkeypatch.setattr(candidates, "block_search", spy)
    embeddings = HashEmbeddings()
    async with open_services(
        settings, collection=f"{settings.collection}_blocks_f{int(wide)}", embeddings=embeddings
    ) as svc:
        await ingest_paths([SAMPLE], svc.store, embeddings, svc.archive, progress=False)
        async with svc.store.pool.connection() as conn:
            await compact(conn, BLOCK)
            cur = await conn.execute("SELECT doc_id FROM documents ORDER BY doc_id LIMIT 60")
            some = tuple(row["doc_id"] for row in await cur.fetchall())
        for filters in (SearchFilters(doc_ids=some), SearchFilters(kinds=("ntsb_report",))):
            for question in _questions()[:10]:
                svc.store.bm25 = "exact"
                exact = await bm25_search(svc.store, question, filters, limit=10)
                svc.store.bm25 = "blocks"
                blocks = await bm25_search(svc.store, question, filters, limit=10)
                assert [c for c, _ in blocks] == [c for c, _ in exact], question
                assert [s for _, s in blocks] == pytest.approx([s for _, s in exact], rel=1e-9)
            await _same_documents(svc, _questions()[:10], filters)
    if wide:  # the blocks ranked, widening past 4 x k where a filter kept too few
        assert 40 in widths and 160 in widths
    else:
        assert widths == []
