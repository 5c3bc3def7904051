"""Document-level BM25 (migration 015, archive/store/document_bm25.py): a document is scored on
its chunks' terms summed, against the other documents; the triggers keep the document tables in
step with inserts and deletes, and the migration backfills a collection stored before it."""

from __future__ import annotations

import math
from typing import Any

import pytest
from psycopg import AsyncConnection

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.model import Chunk, Section, SourceDocument, short_id
from archive.store.candidates import bm25_search, lexical_candidates
from archive.store.document_bm25 import held_words
from archive.store.documents import delete_document, write_document
from archive.store.search_filters import SearchFilters
from tests.fakes.clients import FakeReranker
from tools.backend import StoreBackend
from tools.hybrid import Retrieval, retrieve
from tools.pipeline import Pipeline, run_pipeline
from tools.retrieval_config import RetrievalConfig

pytestmark = pytest.mark.integration

NONE = SearchFilters()
FILLER = "the vessel reported routine weather and a calm passage along the coast"
# (name, chunk texts): "spread" holds both query terms, one in each of its two long chunks;
# "single" holds one of them in one short chunk; the rest hold neither, or one.
DOCUMENTS = {
    "spread": [f"hydraulic {FILLER}", f"{FILLER} leak"],
    "single": ["hydraulic pump"],
    "other": [f"{FILLER} engine", f"leak {FILLER} {FILLER}"],
    "third": [f"rudder inspection {FILLER} {FILLER}", f"anchor chain {FILLER} {FILLER}"],
}
TABLES = {
    "postings": "SELECT lexeme, doc_id, tf FROM bm25_doc_postings ORDER BY 1, 2",
    "terms": "SELECT lexeme, df FROM bm25_doc_terms ORDER BY 1",
    "lens": "SELECT doc_id, len, chunks FROM bm25_doc_lens ORDER BY 1",
    "stats": "SELECT n_docs, total_len FROM bm25_doc_stats",
}


def _doc(name: str, texts: list[str]) -> tuple[SourceDocument, list[Chunk]]:
    doc = SourceDocument(
        kind="text",
        source_id=name,
        title="zulu",
        sections=[Section("body", " ".join(texts))],
        original=" ".join(texts).encode(),
        archive_name=f"{name}.txt",
    )
    chunks = [Chunk(short_id(doc.doc_id, str(i), t), i, "body", t) for i, t in enumerate(texts)]
    return doc, chunks


async def _store(
    svc: Services, names: list[str], documents: dict[str, list[str]] = DOCUMENTS
) -> dict[str, str]:
    """Write the named documents; their doc ids."""
    ids = {}
    for name in names:
        doc, chunks = _doc(name, documents[name])
        vectors = svc.embeddings.embed_documents([c.text for c in chunks])
        await write_document(svc.store, doc, chunks, vectors, f"text/{doc.doc_id}/x")
        ids[name] = doc.doc_id
    return ids


async def _tables(svc: Services) -> dict[str, list[Any]]:
    async with svc.store.pool.connection() as conn:
        return {
            name: [tuple(r.values()) for r in await (await conn.execute(query)).fetchall()]
            for name, query in TABLES.items()
        }


async def _rebuilt(svc: Services) -> dict[str, list[Any]]:
    """The document tables as the backfill builds them from the chunk postings."""
    async with svc.store.pool.connection() as conn:
        await conn.execute("SELECT bm25_doc_rebuild()")
    return await _tables(svc)


async def _terms(conn: AsyncConnection[Any], text: str) -> dict[str, int]:
    cur = await conn.execute("SELECT lexeme, tf FROM bm25_terms_of(%s, %s)", ("zulu", text))
    return {r["lexeme"]: r["tf"] for r in await cur.fetchall()}


def _bm25(tf: int, df: int, n: int, length: int, avgdl: float) -> float:
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * length / avgdl))


async def test_terms_spread_over_two_chunks_outrank_one_term_in_one(settings: Settings) -> None:
    async with open_services(settings, collection=f"{settings.collection}_docbm25") as svc:
        ids = await _store(svc, list(DOCUMENTS))
        query = "hydraulic leak"
        # By chunks, the short "single" chunk is the best match.
        chunks = await bm25_search(svc.store, query, NONE, limit=10)
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT doc_id FROM chunks WHERE chunk_id = %s", (chunks[0][0],)
            )
            assert (await cur.fetchone())["doc_id"] == ids["single"]
            bags = {
                name: [await _terms(conn, t) for t in texts] for name, texts in DOCUMENTS.items()
            }

        rows = await lexical_candidates(svc.store, query, NONE, limit=10)
        docs = list(dict.fromkeys(r["doc_id"] for r in rows))
        assert docs[0] == ids["spread"]
        assert sorted(docs) == sorted(ids[n] for n in DOCUMENTS if n != "third")
        # A document's chunks come together, its best first, each with its own BM25 beside its
        # document's.
        assert [r["doc_id"] for r in rows] == sorted((r["doc_id"] for r in rows), key=docs.index)
        spread = {c.chunk_id for c in _doc("spread", DOCUMENTS["spread"])[1]}
        assert [r["chunk_id"] for r in rows[:2]] == [c for c, _ in chunks if c in spread]
        assert [r["bm25"] for r in rows] == pytest.approx(
            [dict(chunks)[r["chunk_id"]] for r in rows]
        )
        assert rows[0]["bm25"] < chunks[0][1]

        # The document score, by hand: term counts and lengths summed over a document's chunks,
        # N, df and the mean length over documents.
        lengths = {name: sum(sum(b.values()) for b in bags[name]) for name in DOCUMENTS}
        avgdl = sum(lengths.values()) / len(DOCUMENTS)

        def score(name: str) -> float:
            total = 0.0
            for term in ("hydraul", "leak"):
                tf = sum(b.get(term, 0) for b in bags[name])
                df = sum(1 for n in DOCUMENTS if any(term in b for b in bags[n]))
                total += _bm25(tf, df, len(DOCUMENTS), lengths[name], avgdl) if tf else 0.0
            return total

        by_id = {ids[name]: name for name in DOCUMENTS}
        for row in rows:
            assert row["doc_bm25"] == pytest.approx(score(by_id[row["doc_id"]]), rel=1e-9)
        assert [r["doc_bm25"] for r in rows] == sorted((r["doc_bm25"] for r in rows), reverse=True)

        # BM25 alone ranks so; the hybrid's lexical pool is the chunk top k, fused by the
        # passages' own BM25.
        alone = await retrieve(
            svc.store, svc.embeddings, query, NONE, RetrievalConfig(dense=False, k=10)
        )
        assert [c["chunk_id"] for c in alone.candidates] == [r["chunk_id"] for r in rows]
        assert [c["score"] for c in alone.candidates] == [r["doc_bm25"] for r in rows]
        hybrid = await retrieve(svc.store, svc.embeddings, query, NONE, RetrievalConfig(k=10))
        assert {c["chunk_id"] for c in hybrid.candidates} >= {c for c, _ in chunks}
        assert all("doc_bm25" not in c for c in hybrid.candidates)

        # The triggers kept the document tables as the backfill would build them.
        stored = await _tables(svc)
        assert stored["stats"] == [(4, sum(lengths.values()))]
        assert stored == await _rebuilt(svc)


async def test_deletes_keep_the_document_tables_in_step(settings: Settings) -> None:
    async with open_services(settings, collection=f"{settings.collection}_docdel") as svc:
        ids = await _store(svc, list(DOCUMENTS))
        assert await delete_document(svc.store, ids["spread"])
        stored = await _tables(svc)
        assert stored == await _rebuilt(svc)
        assert stored["stats"][0][0] == 3
        assert all(doc != ids["spread"] for _, doc, _ in stored["postings"])
        # "hydraulic" is left in one document only.
        assert ("hydraul", 1) in stored["terms"]
        rows = await lexical_candidates(svc.store, "hydraulic leak", NONE, limit=10)
        assert {r["doc_id"] for r in rows} == {ids["other"], ids["single"]}


async def test_the_migration_backfills_a_collection_stored_before_it(settings: Settings) -> None:
    collection = f"{settings.collection}_docmig"
    async with open_services(settings, collection=collection) as svc:
        ids = await _store(svc, list(DOCUMENTS))
        expected = await _tables(svc)
        # The collection as it was before migration 015: no document tables, no triggers.
        async with svc.store.pool.connection() as conn:
            await conn.execute(
                "DROP TRIGGER chunks_bm25_doc_index ON chunks;"
                " DROP TRIGGER chunks_bm25_doc_unindex ON chunks;"
                " DROP FUNCTION bm25_doc_after_insert, bm25_doc_after_delete, bm25_doc_rebuild;"
                " DROP TABLE bm25_doc_postings, bm25_doc_terms, bm25_doc_lens, bm25_doc_stats;"
                " DELETE FROM schema_migrations WHERE version = 15"
            )
    # Opened again, the collection is migrated and its document tables are backfilled.
    async with open_services(settings, collection=collection) as svc:
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute("SELECT max(version) AS v FROM schema_migrations")
            assert (await cur.fetchone())["v"] >= 15
        assert await _tables(svc) == expected
        assert expected["stats"][0][0] == len(DOCUMENTS)
        rows = await lexical_candidates(svc.store, "hydraulic leak", NONE, limit=10)
        assert rows[0]["doc_id"] == ids["spread"]
        # The triggers are back: a document deleted and stored again is uncounted and counted.
        assert await delete_document(svc.store, ids["single"])
        assert (await _tables(svc))["stats"][0][0] == len(DOCUMENTS) - 1
        await _store(svc, ["single"])
        assert await _tables(svc) == expected


class RecordingBackend(StoreBackend):
    """The store's backend, keeping the text each retrieval searched."""

    searched: list[str]

    async def retrieve(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> Retrieval:
        self.searched = [*getattr(self, "searched", []), query]
        return await super().retrieve(query, filters, options)


async def test_a_model_name_gets_other_forms_only_where_the_collection_lacks_it(
    settings: Settings,
) -> None:
    # The archive writes "PA-28" and "R44" only.
    models = {**DOCUMENTS, "piper": ["the PA-28 lost engine power", "the R44 landed in a field"]}
    async with open_services(settings, collection=f"{settings.collection}_docforms") as svc:
        ids = await _store(svc, list(models), models)
        assert await held_words(svc.store, ["PA28", "PA-28", "R44", "R-44", "the"]) == {
            "PA-28",
            "R44",
        }
        backend = RecordingBackend(svc.store, svc.embeddings)
        pipeline = Pipeline(backend, FakeReranker())
        config = RetrievalConfig(dense=False, rerank=False, k=10)
        # "PA28" is absent as written: its other forms find the record.
        ranking = await run_pipeline(pipeline, "PA28 engine power", NONE, config)
        assert backend.searched[-1] == "PA28 engine power PA-28"
        assert ranking.kept[0]["doc_id"] == ids["piper"]
        # "R44" is present as written: searched as written, nothing appended.
        ranking = await run_pipeline(pipeline, "R44 field landing", NONE, config)
        assert backend.searched[-1] == "R44 field landing"
        assert ranking.kept[0]["doc_id"] == ids["piper"]
