"""Retrieval quality layers on real PostgreSQL over the example mailbox: thread digests that
compete in retrieval, the topic ontology and its strict -> loosened -> dropped filter, and
pseudo-relevance feedback over the BM25 postings."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.digests import build_thread_digests
from archive.ingest.pipeline import ingest_paths
from archive.ingest.topics import build_topics
from archive.store.search_filters import SearchFilters
from tools.expansion import PRFConfig, PseudoRelevanceExpander
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig
from tools.topics import TopicFilterConfig, match_topics, retrieve_with_topics, topic_chunks

pytestmark = pytest.mark.integration

FLEET_MAIL = Path(__file__).resolve().parents[2] / "examples" / "archive" / "fleet-mail"
NORDIC_STAR_ROOT = "ns-2025-001@nordicstar.example"
BALTIC_TRADER_ROOT = "bt-2025-007@baltictrader.example"


async def _digest_threads(svc: Services) -> list[str]:
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT thread_id FROM documents WHERE kind = 'thread_digest' ORDER BY thread_id"
        )
        return [r["thread_id"] for r in await cur.fetchall()]


async def _ingest_with_layers(svc: Services, folder: Path) -> list[str]:
    """Ingest ``folder`` (enriched, with its thread digests and topics); the digests' threads."""
    report = await ingest_paths([folder], svc.store, svc.embeddings, svc.archive, progress=False)
    assert report.errors == []
    assert report.digests == len(await _digest_threads(svc))
    assert report.topics > 0
    assert (await build_topics(svc.store, svc.embeddings)).chunks == 0  # ingest read them all
    return await _digest_threads(svc)


@pytest.fixture(scope="module")
async def layered(settings: Settings) -> AsyncIterator[tuple[Services, list[str]]]:
    async with open_services(settings, collection=f"{settings.collection}_layers") as svc:
        threads = await _ingest_with_layers(svc, FLEET_MAIL)
        yield svc, threads


# --- thread digests -----------------------------------------------------------------------


async def test_one_digest_per_multi_message_thread(layered: tuple[Services, list[str]]) -> None:
    svc, threads = layered
    assert threads == sorted([BALTIC_TRADER_ROOT, NORDIC_STAR_ROOT])
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT thread_id, embedding_mode, summary, metadata->>'messages' AS messages"
            " FROM documents WHERE kind = 'thread_digest' ORDER BY thread_id"
        )
        rows = await cur.fetchall()
    nordic = next(r for r in rows if r["thread_id"] == NORDIC_STAR_ROOT)
    assert nordic["embedding_mode"] == "full"
    assert nordic["messages"].split() == [
        NORDIC_STAR_ROOT,
        "tech-2025-014@bosun-shipping.example",
        "sup-2025-031@bosun-shipping.example",
    ]
    assert "Resolution:" in nordic["summary"]


async def test_unchanged_threads_get_no_new_digest(layered: tuple[Services, list[str]]) -> None:
    svc, _ = layered
    assert await build_thread_digests(svc.store) == []


async def test_the_digest_answers_a_question_spanning_the_thread(
    layered: tuple[Services, list[str]],
) -> None:
    svc, _ = layered
    retrieval = await retrieve(
        svc.store,
        svc.embeddings,
        "how was the cylinder liner crack on Nordic Star resolved?",
        SearchFilters(),
        RetrievalConfig(k=5),
    )
    top = [(c["kind"], c["thread_id"]) for c in retrieval.candidates]
    assert ("thread_digest", NORDIC_STAR_ROOT) in top
    digest = next(c for c in retrieval.candidates if c["kind"] == "thread_digest")
    assert digest["summary"].startswith('Email thread "Nordic Star - crack found')


async def test_a_changed_thread_gets_its_digest_regenerated(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "mail"
    shutil.copytree(FLEET_MAIL, folder)
    async with open_services(settings, collection=f"{settings.collection}_layers_change") as svc:
        await _ingest_with_layers(svc, folder)
        (folder / "06-seals-tested.eml").write_text(
            "From: Master Baltic Trader <master@baltictrader.example>\n"
            "To: Operations <ops@bosun-shipping.example>\n"
            "Subject: RE: Baltic Trader - wet damage to steel coils in hold 2\n"
            "Date: Sat, 08 Feb 2025 10:00:00 +0000\n"
            "Message-ID: <bt-2025-009@baltictrader.example>\n"
            "In-Reply-To: <ops-2025-052@bosun-shipping.example>\n"
            "References: <bt-2025-007@baltictrader.example> <ops-2025-052@bosun-shipping.example>\n"
            "\n"
            "New seals fitted on hatch 2 by the riding crew. The ultrasonic tightness test passed\n"
            "on all panels; report attached to the voyage file. Loading started this morning.\n"
        )
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.digests == 1  # only the changed thread
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT d.metadata->>'message_count' AS n, string_agg(c.content, ' ') AS text"
                " FROM documents d JOIN chunks c USING (doc_id)"
                " WHERE d.kind = 'thread_digest' AND d.thread_id = %s GROUP BY d.doc_id",
                (BALTIC_TRADER_ROOT,),
            )
            row = await cur.fetchone()
        assert row["n"] == "3"
        assert "ultrasonic tightness test passed" in row["text"]
        assert await build_thread_digests(svc.store) == []  # nothing left to regenerate


# --- topics -------------------------------------------------------------------------------


async def test_topics_are_pooled_once_and_linked_to_chunks(
    layered: tuple[Services, list[str]],
) -> None:
    svc, _ = layered
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT (SELECT count(*) FROM topics) AS topics,
                      (SELECT count(*) FROM chunk_topics) AS links,
                      (SELECT coalesce(sum(chunk_count), 0) FROM topics) AS counted,
                      (SELECT array_agg(chunk_count) FROM topics
                        WHERE name = 'scavenge space drain') AS drain"""
        )
        row = await cur.fetchone()
    assert row["topics"] > 10 and row["links"] == row["counted"]
    # one row for the phrase, linked to both chunks holding it (the first email, its digest)
    assert row["drain"] == [2]
    again = await build_topics(svc.store, svc.embeddings)
    assert (again.chunks, again.new_topics) == (0, 0)  # every chunk was read already


async def test_topic_match_finds_the_ontology_terms_near_the_query(
    layered: tuple[Services, list[str]],
) -> None:
    svc, _ = layered
    vector = await svc.embeddings.aembed_query("cracked cylinder liner")
    topics = await match_topics(svc.store, vector, top_k=5, threshold=0.3)
    assert topics and any("liner" in t.name for t in topics)
    assert [t.similarity for t in topics] == sorted((t.similarity for t in topics), reverse=True)


async def test_strict_topic_filter_restricts_to_linked_chunks(
    layered: tuple[Services, list[str]],
) -> None:
    svc, _ = layered
    config = TopicFilterConfig(top_k=5, threshold=0.4, min_results=1)
    result = await retrieve_with_topics(
        svc.store,
        svc.embeddings,
        "cylinder liner crack",
        SearchFilters(),
        RetrievalConfig(k=10),
        config,
    )
    assert result.decision == "strict"
    first = result.decisions[0]
    assert first["stage"] == "topics" and first["topics"] and first["hits"] >= 1
    assert first["scope"] == "chunk"
    assert len(result.retrieval.candidates) <= first["chunks"]
    linked = set(await topic_chunks(svc.store, [t.topic_id for t in result.topics]))
    assert {c["chunk_id"] for c in result.retrieval.candidates} <= linked
    # document scope: every chunk of the documents holding a linked chunk
    whole = await retrieve_with_topics(
        svc.store,
        svc.embeddings,
        "cylinder liner crack",
        SearchFilters(),
        RetrievalConfig(k=10),
        replace(config, scope="document"),
    )
    assert whole.decisions[0]["scope"] == "document"
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT doc_id FROM chunks WHERE chunk_id = ANY(%s)", (sorted(linked),)
        )
        documents = {r["doc_id"] for r in await cur.fetchall()}
    assert {c["doc_id"] for c in whole.retrieval.candidates} <= documents


async def test_too_few_hits_loosen_then_drop_the_topic_filter_keeping_structural_filters(
    layered: tuple[Services, list[str]],
) -> None:
    svc, _ = layered
    emails = SearchFilters(kinds=("email",))
    # nothing is this close: the strict attempt has no topic, the loosened one pools many
    loosened = await retrieve_with_topics(
        svc.store,
        svc.embeddings,
        "cylinder liner crack",
        emails,
        RetrievalConfig(k=10),
        TopicFilterConfig(threshold=0.99, loose_top_k=50, loose_threshold=0.0, min_results=1),
    )
    assert [d["decision"] for d in loosened.decisions] == ["no_topics", "loosened"]
    # more hits required than the pooled topics can give: dropped, the kind filter still applies
    dropped = await retrieve_with_topics(
        svc.store,
        svc.embeddings,
        "cylinder liner crack",
        emails,
        RetrievalConfig(k=50),
        TopicFilterConfig(
            top_k=1, threshold=0.3, loose_top_k=2, loose_threshold=0.2, min_results=50
        ),
    )
    assert [d["decision"] for d in dropped.decisions][-1] == "dropped"
    assert [d["decision"] for d in dropped.decisions][:2] == ["strict", "loosened"]
    assert dropped.decisions[0]["hits"] < 50 and dropped.decisions[1]["hits"] < 50
    assert dropped.retrieval.candidates
    assert {c["kind"] for c in dropped.retrieval.candidates} == {"email"}
    # a structural filter that matches nothing is never widened
    nothing = await retrieve_with_topics(
        svc.store,
        svc.embeddings,
        "cylinder liner crack",
        replace(emails, thread_id="no-such-thread"),
        RetrievalConfig(k=10),
    )
    assert nothing.decision == "dropped" and nothing.retrieval.candidates == []


# --- query expansion ----------------------------------------------------------------------


async def test_feedback_expansion_adds_terms_of_the_top_passages(
    layered: tuple[Services, list[str]],
) -> None:
    svc, _ = layered
    expander = PseudoRelevanceExpander(
        svc.store, PRFConfig(feedback=3, terms=4, min_df=1, max_df_share=0.5)
    )
    expansion = await expander.expand("cylinder crack")
    assert expansion.method == "prf" and expansion.text.startswith("cylinder crack ")
    assert 0 < len(expansion.terms) <= 4
    assert "cylinder" not in expansion.terms and "crack" not in expansion.terms
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute("SELECT string_agg(lower(content), ' ') AS text FROM chunks")
        corpus = (await cur.fetchone())["text"]
    assert all(term in corpus for term in expansion.terms)  # surface words of the archive
    assert await expander("zzzz qqqq") == "zzzz qqqq"  # no feedback: the query unchanged
