"""The pruned BM25 top k (bounded reads of impact-ordered postings) against the exact one, before
and after documents are added and deleted."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store import lexical
from archive.store.documents import delete_document
from archive.store.lexical import bm25_search
from archive.store.search_filters import SearchFilters

pytestmark = pytest.mark.integration

SAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "archive" / "ntsb" / "reports_sample.jsonl"
)


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
    """Long questions (each record's probable cause) and short ones (its first words)."""
    records = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    causes = [r["probable_cause"] for r in records if r.get("probable_cause")][:40]
    return causes + [" ".join(c.split()[:3]) for c in causes[:20]] + ["engine", "pilot fuel"]


async def _ranked(svc: Services, mode: str, question: str, limit: int) -> list[tuple[str, float]]:
    svc.store.bm25 = mode
    return await bm25_search(svc.store, question, SearchFilters(), limit=limit)


async def _same_as_exact(svc: Services, questions: list[str], limit: int = 20) -> None:
    """Lists too short to be cut: the pruned statement must return exactly BM25_TOP."""
    for question in questions:
        exact = await _ranked(svc, "exact", question, limit)
        for mode in ("pruned", "auto"):
            pruned = await _ranked(svc, mode, question, limit)
            assert [c for c, _ in pruned] == [c for c, _ in exact], (mode, question)
            assert [s for _, s in pruned] == pytest.approx([s for _, s in exact], rel=1e-9)


async def _cut_lists_recall(svc: Services, questions: list[str], limit: int = 10) -> float:
    """Lists cut at 30 postings: every score returned is the exact one; the recall is returned."""
    recalls = []
    for question in questions:
        every = dict(await _ranked(svc, "exact", question, 100_000))
        exact = [c for c, _ in await _ranked(svc, "exact", question, limit)]
        pruned = await _ranked(svc, "pruned", question, limit)
        for chunk_id, score in pruned:
            assert score == pytest.approx(every[chunk_id], rel=1e-9), question
        recalls.append(len(set(exact) & {c for c, _ in pruned}) / max(1, len(exact)))
    return sum(recalls) / len(recalls)


async def _state(svc: Services) -> dict[str, Any]:
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT (SELECT ref_avgdl FROM bm25_stats) AS ref,"
            " (SELECT count(*) FROM bm25_postings p WHERE p.impact IS DISTINCT FROM"
            "   bm25_impact(p.tf, p.len, (SELECT ref_avgdl FROM bm25_stats))) AS impacts_wrong,"
            " (SELECT count(*) FROM bm25_terms t WHERE t.df <> (SELECT count(*)"
            "   FROM bm25_postings p WHERE p.lexeme = t.lexeme)) AS df_wrong,"
            " (SELECT json_object_agg(lexeme || ' ' || chunk_id, impact) FROM"
            "   (SELECT * FROM bm25_postings ORDER BY lexeme, chunk_id LIMIT 500) p) AS impacts"
        )
        return dict(await cur.fetchone() or {})


async def test_pruned_top_k_equals_exact_and_follows_additions(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    first, second = tmp_path / "a" / "first.jsonl", tmp_path / "b" / "second.jsonl"
    for path, part in ((first, lines[:150]), (second, lines[150:])):
        path.parent.mkdir()
        path.write_text("\n".join(part) + "\n", encoding="utf-8")
    questions = _questions()
    embeddings = HashEmbeddings()
    async with open_services(
        settings, collection=f"{settings.collection}_pruned", embeddings=embeddings
    ) as svc:
        await ingest_paths([first], svc.store, embeddings, svc.archive, progress=False)
        await _same_as_exact(svc, questions)
        await _same_as_exact(svc, questions[:10], limit=100)
        with monkeypatch.context() as patch:
            patch.setattr(lexical, "DEPTH", 30)
            patch.setattr(lexical, "RESCORE", 40)
            assert await _cut_lists_recall(svc, questions) >= 0.9
        before = await _state(svc)
        assert before["impacts_wrong"] == 0 and before["df_wrong"] == 0

        # Adding documents writes their own postings and raises term bounds; nothing global is
        # rewritten: the reference length and every earlier posting's impact stay as they were.
        report = await ingest_paths([second], svc.store, embeddings, svc.archive, progress=False)
        assert report.added == len(lines) - 150
        after = await _state(svc)
        assert after["ref"] == before["ref"]
        assert after["impacts_wrong"] == 0 and after["df_wrong"] == 0
        old = before["impacts"]
        assert {k: after["impacts"].get(k, v) for k, v in old.items()} == old
        await _same_as_exact(svc, questions)
        with monkeypatch.context() as patch:
            patch.setattr(lexical, "DEPTH", 30)
            patch.setattr(lexical, "RESCORE", 40)
            assert await _cut_lists_recall(svc, questions) >= 0.9

        # Deleting a document takes its postings and statistics with it.
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute("SELECT doc_id FROM documents ORDER BY doc_id LIMIT 40")
            doomed = [row["doc_id"] for row in await cur.fetchall()]
        for doc_id in doomed:
            assert await delete_document(svc.store, doc_id)
        await _same_as_exact(svc, questions)


async def test_filtered_pruned_search_equals_exact(settings: Settings, tmp_path: Path) -> None:
    embeddings = HashEmbeddings()
    async with open_services(
        settings, collection=f"{settings.collection}_pruned_f", embeddings=embeddings
    ) as svc:
        await ingest_paths([SAMPLE], svc.store, embeddings, svc.archive, progress=False)
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute("SELECT doc_id FROM documents ORDER BY doc_id LIMIT 60")
            some = tuple(row["doc_id"] for row in await cur.fetchall())
        for filters in (SearchFilters(doc_ids=some), SearchFilters(kinds=("ntsb_report",))):
            for question in _questions()[:15]:
                svc.store.bm25 = "exact"
                exact = await bm25_search(svc.store, question, filters, limit=10)
                svc.store.bm25 = "pruned"
                pruned = await bm25_search(svc.store, question, filters, limit=10)
                assert [c for c, _ in pruned] == [c for c, _ in exact], question
