"""A TAIC report's title, read from PostgreSQL as its one statement when a pattern asks what
kinds of occurrence the reports were about; its findings when it asks why."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.counts import RecordQuery
from archive.store.patterns import set_statements

pytestmark = pytest.mark.integration

REPORT = """Final report RO-2015-101: Derailment of freight Train 345, Otira, 2 May 2015

The Transport Accident Investigation Commission is an independent Crown entity.

4. Findings
4.1. The wagon's worn wheel flange climbed the rail on a tight curve.
"""


@pytest.fixture(scope="module")
async def services(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Services]:
    folder: Path = tmp_path_factory.mktemp("taic_reports")
    (folder / "2015_101.txt").write_text(REPORT)
    async with open_services(settings, collection=f"{settings.collection}_kinds") as svc:
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == [] and report.added == 1
        yield svc


async def test_a_kind_pattern_reads_each_reports_title_once(services: Services) -> None:
    query = RecordQuery(kind="investigation_report", mode="rail")
    found = await set_statements(services.store, query, about="kind")
    assert found.size == 1
    assert [text for _, text in found.statements] == [
        "Final report RO-2015-101: Derailment of freight Train 345, Otira, 2 May 2015"
    ]
    findings = await set_statements(services.store, query, about="finding")
    assert all("Derailment of freight" not in text for _, text in findings.statements)
