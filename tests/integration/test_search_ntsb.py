"""Search over the shipped NTSB sample: exact identifiers win where cosine cannot."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.candidates import bm25_search
from archive.store.passages import fetch_vectors
from archive.store.search_filters import SearchFilters
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

pytestmark = pytest.mark.integration

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "archive" / "ntsb"


@pytest.fixture(scope="module")
async def ntsb(settings: Settings) -> Services:
    async with open_services(settings, collection=f"{settings.collection}_ntsb") as svc:
        report = await ingest_paths(
            [SAMPLE], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == [] and report.added == 308
        yield svc


@pytest.mark.parametrize("report_no", ["ANC12FA083", "ERA25LA084", "CEN13LA322"])
async def test_report_number_ranks_first(ntsb: Services, report_no: str) -> None:
    result = await retrieve(
        ntsb.store, ntsb.embeddings, report_no, SearchFilters(), RetrievalConfig(k=5)
    )
    assert result.candidates[0]["report_no"] == report_no
    assert result.candidates[0]["bm25"] > 0


async def test_report_filter_keeps_only_that_report(ntsb: Services) -> None:
    filters = SearchFilters(report_no="ERA25LA084")
    for options in (
        RetrievalConfig(k=50),
        RetrievalConfig(lexical=False, k=50),
        RetrievalConfig(dense=False, k=50),
    ):
        result = await retrieve(ntsb.store, ntsb.embeddings, "fuel planning", filters, options)
        assert result.candidates
        assert {c["report_no"] for c in result.candidates} == {"ERA25LA084"}
    sections = {c["section"] for c in result.candidates}
    assert {"Analysis", "Probable Cause and Findings"} <= sections


async def test_filtered_vector_search_still_returns_k_rows(ntsb: Services) -> None:
    """A selective filter under HNSW: the iterative scan keeps filling the page."""
    filters = SearchFilters(kinds=("ntsb_report",), date_from=None)
    async with ntsb.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT doc_id FROM documents WHERE kind = 'ntsb_report' ORDER BY doc_id LIMIT 12"
        )
        doc_ids = tuple(r["doc_id"] for r in await cur.fetchall())
    filters = SearchFilters(doc_ids=doc_ids)
    options = RetrievalConfig(lexical=False, k=10, similarity_floor=-1.0)
    result = await retrieve(ntsb.store, ntsb.embeddings, "engine failure", filters, options)
    assert len(result.candidates) == 10
    assert {c["doc_id"] for c in result.candidates} <= set(doc_ids)


async def test_every_session_searches_with_the_configured_ef_search(
    ntsb: Services, settings: Settings
) -> None:
    """``BOSUN_HNSW_EF_SEARCH`` reaches the SQL arms' sessions and the LangChain vector store."""
    wider = replace(settings, hnsw_ef_search=37)
    async with open_services(wider, collection=ntsb.store.schema) as svc:
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute("SHOW hnsw.ef_search")
            row = await cur.fetchone()
        assert row is not None and row["hnsw.ef_search"] == "37"
        vectors = await svc.store.vector_store()
        assert "hnsw.ef_search = 37" in vectors.index_query_options.to_parameter()


async def _on_every_session(services: Services, statement: str) -> None:
    """Run ``statement`` on every session of the store's pool (held at once, so none repeats)."""
    pool = services.store.pool
    sessions = [await pool.getconn() for _ in range(pool.max_size)]
    try:
        for conn in sessions:
            await conn.execute(statement)
    finally:
        for conn in sessions:
            await pool.putconn(conn)


async def test_a_selective_filter_is_searched_exactly_when_the_index_would_give_up(
    ntsb: Services,
) -> None:
    """A filter matching few rows gets its exact top k even where the planner would order them
    through HNSW and the iterative scan gives up early: on a million chunks it did (returning
    4.6 of 10 rows); here sorts are discouraged and ``hnsw.max_scan_tuples`` is 1 on every
    pooled session to the same effect."""
    async with ntsb.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT doc_id FROM documents WHERE kind = 'ntsb_report' ORDER BY doc_id DESC LIMIT 15"
        )
        doc_ids = tuple(r["doc_id"] for r in await cur.fetchall())
        cur = await conn.execute(
            "SELECT chunk_id FROM chunks WHERE doc_id = ANY(%s)", (list(doc_ids),)
        )
        allowed = [r["chunk_id"] for r in await cur.fetchall()]
    query = "engine failure"
    stored = await fetch_vectors(ntsb.store, allowed)
    q = np.asarray(ntsb.embeddings.embed_query(query), dtype=np.float64)
    cosine = {c: v @ q / (np.linalg.norm(v) * np.linalg.norm(q)) for c, v in stored.items()}
    expected = sorted(cosine, key=lambda c: -cosine[c])[:10]
    options = RetrievalConfig(lexical=False, k=10, similarity_floor=-1.0)
    await _on_every_session(ntsb, "SET hnsw.max_scan_tuples = 1; SET enable_sort = off")
    try:
        result = await retrieve(
            ntsb.store, ntsb.embeddings, query, SearchFilters(doc_ids=doc_ids), options
        )
    finally:
        await _on_every_session(ntsb, "RESET hnsw.max_scan_tuples; RESET enable_sort")
    assert [c["chunk_id"] for c in result.candidates] == expected


async def test_hybrid_scores_every_candidate_on_both_arms(ntsb: Services) -> None:
    """Dense-only candidates get their exact BM25, lexical-only ones their exact cosine."""
    query = "engine power loss during cruise flight over mountains"
    result = await retrieve(
        ntsb.store, ntsb.embeddings, query, SearchFilters(), RetrievalConfig(k=100, arm_rows=20)
    )
    every_bm25 = dict(await bm25_search(ntsb.store, query, SearchFilters(), limit=100_000))
    lexical_top = set(list(every_bm25)[:20])
    ids = [c["chunk_id"] for c in result.candidates]
    assert lexical_top <= set(ids) and len(ids) > 20  # the dense arm added candidates
    stored = await fetch_vectors(ntsb.store, ids)
    q = np.asarray(ntsb.embeddings.embed_query(query), dtype=np.float64)
    for candidate in result.candidates:
        v = stored[candidate["chunk_id"]].astype(np.float64)
        assert candidate["cosine"] == pytest.approx(
            v @ q / (np.linalg.norm(v) * np.linalg.norm(q)), abs=1e-5
        )
        assert candidate["bm25"] == pytest.approx(every_bm25.get(candidate["chunk_id"], 0.0))


async def test_the_chunks_table_is_a_langchain_vector_store(ntsb: Services) -> None:
    """LangChain code can use the archive through PGVectorStore, filter columns included."""
    vectors = await ntsb.store.vector_store()
    hits = await vectors.asimilarity_search(
        "fuel planning", k=3, filter={"report_no": {"$eq": "ERA25LA084"}}
    )
    assert len(hits) == 3
    assert {doc.metadata["report_no"] for doc in hits} == {"ERA25LA084"}
    assert all(doc.id and len(doc.id) == 12 for doc in hits)
    retriever = vectors.as_retriever(search_kwargs={"k": 2})
    assert len(await retriever.ainvoke("engine failure after takeoff")) == 2
