"""Aircraft registrations over the shared NTSB records: an N-number finds its report first, as a
search term and as a filter."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.search_filters import SearchFilters
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

pytestmark = [pytest.mark.integration, pytest.mark.shared_data]

#: The registration of the issue's example (CEN12CA185, line 1,323 of the records).
ISSUE_EXAMPLE = "N3424Y"


@pytest.fixture(scope="module")
async def records(
    settings: Settings, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Services, list[dict[str, str]]]]:
    """The first 200 records and the issue's example, ingested into their own collection."""
    lines = (shared_data / "ntsb" / "reports_2010_2016.jsonl").read_text("utf-8").splitlines()
    sample = lines[:200] + [line for line in lines if f'"{ISSUE_EXAMPLE}"' in line]
    path = tmp_path_factory.mktemp("ntsb") / "sample.jsonl"
    path.write_text("\n".join(sample) + "\n", encoding="utf-8")
    async with open_services(settings, collection=f"{settings.collection}_reg") as svc:
        report = await ingest_paths([path], svc.store, svc.embeddings, svc.archive, progress=False)
        assert report.errors == [] and report.added == len(sample)
        yield svc, [json.loads(line) for line in sample]


def _unique_registrations(rows: list[dict[str, str]]) -> list[tuple[str, str]]:
    """(registration, report number) of aircraft that appear once in the sample, every 20th."""
    counts = Counter(r["registration"] for r in rows)
    unique = [(r["registration"], r["ntsb_no"]) for r in rows if counts[r["registration"]] == 1]
    return [*unique[::20], (ISSUE_EXAMPLE, "CEN12CA185")]


async def test_registrations_rank_their_report_first(
    records: tuple[Services, list[dict[str, str]]],
) -> None:
    svc, rows = records
    wanted = _unique_registrations(rows)
    assert len(wanted) >= 10
    for registration, report_no in wanted:
        result = await retrieve(
            svc.store, svc.embeddings, registration, SearchFilters(), RetrievalConfig(k=5)
        )
        top = result.candidates[0]
        assert (top["report_no"], top["bm25"] > 0) == (report_no, True), registration
        # Lower case, as people type it, finds it too (one lexeme, not split at the digits).
        lower = await retrieve(
            svc.store, svc.embeddings, registration.lower(), SearchFilters(), RetrievalConfig(k=1)
        )
        assert lower.candidates[0]["report_no"] == report_no, registration


async def test_registration_filter_keeps_only_its_report(
    records: tuple[Services, list[dict[str, str]]],
) -> None:
    svc, _ = records
    result = await retrieve(
        svc.store,
        svc.embeddings,
        "the pilot lost control of the airplane",
        SearchFilters(registration=ISSUE_EXAMPLE),
        RetrievalConfig(k=10),
    )
    assert result.candidates
    assert {c["report_no"] for c in result.candidates} == {"CEN12CA185"}


async def test_make_and_model_are_exact_terms(
    records: tuple[Services, list[dict[str, str]]],
) -> None:
    svc, rows = records
    models = Counter((r["make"], r["model"]) for r in rows)
    make, model = next(pair for pair, n in models.items() if n == 1 and len(pair[1]) >= 4)
    report_no = next(r["ntsb_no"] for r in rows if (r["make"], r["model"]) == (make, model))
    result = await retrieve(
        svc.store, svc.embeddings, f"{make} {model}", SearchFilters(), RetrievalConfig(k=5)
    )
    assert result.candidates[0]["report_no"] == report_no, (make, model)
