"""Ingest into real PostgreSQL: idempotent re-runs, a killed run resumed, bad files skipped."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from asyncio.subprocess import DEVNULL, PIPE
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.database import Store
from archive.store.documents import PARTIAL
from archive.store.search_filters import SearchFilters
from archive.store.vessels import collection_counts, registered_vessels, vessel_documents
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig
from tools.vessels import resolve_vessel

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "archive"


async def _consistent(store: Store) -> dict[str, int]:
    """Counts, after checking that documents, chunks and BM25 statistics agree. A document a
    kill left between its slices (its hash marked PARTIAL until the last one) declares all its
    chunks but holds those stored so far: the rerun continues it."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT (SELECT count(*) FROM chunks) AS chunks,
                      (SELECT coalesce(sum(CASE WHEN d.content_hash LIKE %(partial)s
                               THEN (SELECT count(*) FROM chunks c WHERE c.doc_id = d.doc_id)
                               ELSE d.chunk_count END), 0)
                       FROM documents d) AS declared,
                      (SELECT n_chunks FROM bm25_stats) AS indexed,
                      (SELECT count(DISTINCT chunk_id) FROM bm25_postings) AS posted,
                      (SELECT count(*) FROM documents) AS documents""",
            {"partial": PARTIAL + "%"},
        )
        row = await cur.fetchone()
    assert row["chunks"] == row["declared"] == row["indexed"] == row["posted"]
    return {"documents": row["documents"], "chunks": row["chunks"]}


@pytest.fixture(scope="module")
async def mail(settings: Settings) -> Services:
    async with open_services(settings, collection=f"{settings.collection}_mail") as svc:
        report = await ingest_paths(
            [EXAMPLES / "fleet-mail"], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == []
        assert report.digests == 2  # the Nordic Star and Baltic Trader threads
        yield svc


async def test_reingest_adds_nothing(mail: Services) -> None:
    before = await _consistent(mail.store)
    report = await ingest_paths(
        [EXAMPLES / "fleet-mail"], mail.store, mail.embeddings, mail.archive, progress=False
    )
    assert (report.added, report.updated, report.chunks_added) == (0, 0, 0)
    assert report.unchanged > 0
    assert await _consistent(mail.store) == before


async def test_threads_attachments_and_vessels(mail: Services) -> None:
    counts = await collection_counts(mail.store)
    assert counts["threads"] == 2
    assert counts["vessels"] == 3
    registry = await registered_vessels(mail.store)
    match = resolve_vessel("nordik star", registry)  # misspelled on purpose
    assert [v.imo for v in match.vessels] == ["9234567"]
    docs = await vessel_documents(mail.store, [v.key for v in match.vessels])
    filters = SearchFilters(doc_ids=tuple(docs))
    result = await retrieve(
        mail.store,
        mail.embeddings,
        "jacket water temperature at start",
        filters,
        RetrievalConfig(k=20),
    )
    assert result.candidates
    assert {c["vessel_name"] for c in result.candidates} == {"Nordic Star"}
    assert result.candidates[0]["kind"] == "attachment"  # the log attached to the thread


async def test_thread_digest_answers_a_question_spanning_the_thread(mail: Services) -> None:
    question = "What cracked on Nordic Star, why, and how was it fixed?"
    result = await retrieve(
        mail.store, mail.embeddings, question, SearchFilters(), RetrievalConfig(k=5)
    )
    digests = [c for c in result.candidates if c["kind"] == "thread_digest"]
    assert digests and digests[0]["thread_id"] == "ns-2025-001@nordicstar.example"
    assert "crack" in digests[0]["text"]


async def test_imo_number_finds_vessel_first(mail: Services) -> None:
    result = await retrieve(
        mail.store, mail.embeddings, "IMO 9345678", SearchFilters(), RetrievalConfig(k=3)
    )
    assert "9345678" in result.candidates[0]["text"]
    assert "Baltic Trader" in {c["vessel_name"] for c in result.candidates}


async def test_bad_files_are_reported_and_the_rest_lands(
    settings: Settings, tmp_path: Path
) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog")
    (tmp_path / "garbage.eml").write_bytes(b"\x00\x01\x02 this is not an email \xff\xfe")
    (tmp_path / "good.eml").write_bytes(
        (EXAMPLES / "fleet-mail" / "04-cargo-damage.eml").read_bytes()
    )
    async with open_services(settings, collection=f"{settings.collection}_bad") as svc:
        report = await ingest_paths(
            [tmp_path], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.added == 1
        failed = {Path(e.path).name: e.reason for e in report.errors}
        assert set(failed) == {"broken.pdf", "garbage.eml"}
        assert all(reason for reason in failed.values())
        assert (await _consistent(svc.store))["documents"] == 1


async def test_killed_ingest_resumes_without_duplicates(settings: Settings, tmp_path: Path) -> None:
    collection = f"{settings.collection}_kill"
    env = {
        **os.environ,
        "BOSUN_HOME": str(settings.home),
        "BOSUN_COLLECTION": collection,
        "DATABASE_URL": settings.database_uri(),
    }
    lines = (EXAMPLES / "ntsb" / "reports_sample.jsonl").read_text("utf-8").splitlines()[:120]
    sample = tmp_path / "reports.jsonl"
    sample.write_text("\n".join(lines) + "\n", "utf-8")
    cmd = [sys.executable, "-m", "agent.cli", "ingest", "--no-progress", str(sample)]
    async with open_services(settings, collection=collection) as svc:
        proc = await asyncio.create_subprocess_exec(*cmd, env=env, stdout=DEVNULL, stderr=DEVNULL)
        async with asyncio.timeout(180):
            while (await collection_counts(svc.store))["documents"] < 20:
                assert proc.returncode is None, "ingest ended before it could be killed"
                await asyncio.sleep(0.2)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        partial = await _consistent(svc.store)
        assert 20 <= partial["documents"] < 120

        rerun = await asyncio.create_subprocess_exec(*cmd, env=env, stdout=PIPE, stderr=PIPE)
        out, err = await rerun.communicate()
        assert rerun.returncode == 0, err.decode()
        assert "unchanged" in out.decode()
        full = await _consistent(svc.store)
        assert full["documents"] == 120
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT count(*) AS n FROM (SELECT source_id FROM documents"
                " GROUP BY kind, source_id HAVING count(*) > 1) d"
            )
            assert (await cur.fetchone())["n"] == 0
