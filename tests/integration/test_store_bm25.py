"""Okapi BM25 inside PostgreSQL against a hand-computed example; statistics follow deletes."""

from __future__ import annotations

import math

import pytest

from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.model import Chunk, Section, SourceDocument, short_id
from archive.store.candidates import bm25_search
from archive.store.documents import delete_document, write_document
from archive.store.search_filters import SearchFilters

pytestmark = pytest.mark.integration

TEXTS = {"one": "alpha beta", "two": "alpha gamma gamma", "three": "delta"}


def _doc(name: str, text: str) -> tuple[SourceDocument, list[Chunk]]:
    doc = SourceDocument(
        kind="text",
        source_id=name,
        title="zulu",
        sections=[Section("body", text)],
        original=text.encode(),
        archive_name=f"{name}.txt",
    )
    return doc, [Chunk(short_id(doc.doc_id, "0", text), 0, "body", text)]


def _bm25(tf: int, df: int, n: int, length: int, avgdl: float) -> float:
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * length / avgdl))


async def test_bm25_matches_hand_computation(settings: Settings) -> None:
    async with open_services(settings, collection=f"{settings.collection}_bm25") as svc:
        docs = {name: _doc(name, text) for name, text in TEXTS.items()}
        for doc, chunks in docs.values():
            vectors = svc.embeddings.embed_documents([c.text for c in chunks])
            await write_document(svc.store, doc, chunks, vectors, f"text/{doc.doc_id}/x")
        ids = {name: chunks[0].chunk_id for name, (_, chunks) in docs.items()}

        # Lengths count the title term "zulu": 3, 4 and 2 terms, so avgdl = 3.
        hits = dict(await bm25_search(svc.store, "gamma", SearchFilters()))
        assert list(hits) == [ids["two"]]
        assert hits[ids["two"]] == pytest.approx(_bm25(2, 1, 3, 4, 3.0), rel=1e-9)

        # Query terms are ORed: "alpha delta" scores all three chunks.
        hits = dict(await bm25_search(svc.store, "alpha or delta", SearchFilters()))
        assert set(hits) == set(ids.values())
        assert hits[ids["three"]] == pytest.approx(_bm25(1, 1, 3, 2, 3.0), rel=1e-9)
        assert hits[ids["one"]] == pytest.approx(_bm25(1, 2, 3, 3, 3.0), rel=1e-9)

        # Deleting a document updates N, avgdl and df in the same transaction.
        assert await delete_document(svc.store, docs["three"][0].doc_id)
        hits = dict(await bm25_search(svc.store, "alpha delta", SearchFilters()))
        assert set(hits) == {ids["one"], ids["two"]}
        assert hits[ids["one"]] == pytest.approx(_bm25(1, 2, 2, 3, 3.5), rel=1e-9)
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute("SELECT n_chunks, total_len FROM bm25_stats")
            assert await cur.fetchone() == {"n_chunks": 2, "total_len": 7}
            cur = await conn.execute("SELECT count(*) AS n FROM bm25_terms WHERE lexeme = 'delta'")
            assert (await cur.fetchone())["n"] == 0


async def test_identifiers_are_exact_tokens(settings: Settings) -> None:
    async with open_services(settings, collection=f"{settings.collection}_ids") as svc:
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT array_agg(t.lexeme ORDER BY t.lexeme) AS terms FROM "
                "unnest(to_tsvector('english', 'ERA22LA175 N3718F IMO 9234567')) t"
            )
            terms = (await cur.fetchone())["terms"]
        assert {"era22la175", "n3718f", "9234567"} <= set(terms)


async def test_chunks_are_immutable(settings: Settings) -> None:
    async with open_services(settings, collection=f"{settings.collection}_imm") as svc:
        doc, chunks = _doc("solo", "epsilon")
        vectors = svc.embeddings.embed_documents(["epsilon"])
        await write_document(svc.store, doc, chunks, vectors, "text/x/y")
        async with svc.store.pool.connection() as conn:
            with pytest.raises(Exception, match="immutable"):
                await conn.execute("UPDATE chunks SET content = 'other'")
