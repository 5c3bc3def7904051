"""Search over the shipped NTSB sample: exact identifiers win where cosine cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.ingest.pipeline import ingest_paths
from agent.services import Services, open_services
from agent.settings import Settings
from agent.store.filters import SearchFilters
from tools.hybrid import RetrievalOptions, retrieve

pytestmark = pytest.mark.integration

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "archive" / "ntsb"


@pytest.fixture(scope="module")
async def ntsb(settings: Settings) -> Services:
    async with open_services(settings, collection=f"{settings.collection}_ntsb") as svc:
        report = await ingest_paths([SAMPLE], svc.store, svc.embeddings, svc.archive,
                                    progress=False)  # fmt: skip
        assert report.errors == [] and report.added == 308
        yield svc


@pytest.mark.parametrize("report_no", ["ANC12FA083", "ERA25LA084", "CEN13LA322"])
async def test_report_number_ranks_first(ntsb: Services, report_no: str) -> None:
    result = await retrieve(ntsb.store, ntsb.embeddings, report_no, SearchFilters(),
                            RetrievalOptions(k=5))  # fmt: skip
    assert result.candidates[0].passage.report_no == report_no
    assert result.candidates[0].bm25 > 0


async def test_report_filter_keeps_only_that_report(ntsb: Services) -> None:
    filters = SearchFilters(report_no="ERA25LA084")
    for options in (RetrievalOptions(k=50), RetrievalOptions(lexical=False, k=50),
                    RetrievalOptions(dense=False, k=50)):  # fmt: skip
        result = await retrieve(ntsb.store, ntsb.embeddings, "fuel planning", filters, options)
        assert result.candidates
        assert {c.passage.report_no for c in result.candidates} == {"ERA25LA084"}
    sections = {c.passage.section for c in result.candidates}
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
    options = RetrievalOptions(lexical=False, k=10, similarity_floor=-1.0)
    result = await retrieve(ntsb.store, ntsb.embeddings, "engine failure", filters, options)
    assert len(result.candidates) == 10
    assert {c.passage.doc_id for c in result.candidates} <= set(doc_ids)
