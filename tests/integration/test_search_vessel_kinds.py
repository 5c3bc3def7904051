"""Vessel families and classification societies over 300 real IMO casualty records: the same
filter on every run whatever the spelling, and it finds exactly the records of that family."""

from __future__ import annotations

import csv
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.loaders.casualties import casualty_document
from archive.ingest.pipeline import ingest_paths
from archive.store.search_filters import SearchFilters
from archive.store.vessels import classify_stored_vessels, registered_vessels
from tools.filters import resolve, to_search_filters
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

pytestmark = [pytest.mark.integration, pytest.mark.shared_data]

#: Bulk carriers are spelt five ways in this sample: "Bulk Dry (general, ore) Carrier",
#: "Bulk Carrier", "BULK CARRIER", "Ore carrier", "Open-Hatch Bulk Carrier".
BULK_SPELLINGS = ("bulk", "ore carrier")


@pytest.fixture(scope="module")
async def casualties(
    settings: Settings, shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Services, list[dict[str, str]]]]:
    """Every 36th row of the casualty table (300 rows from 1990 to 2020), ingested."""
    source = shared_data / "maritime" / "imo_casualties.csv"
    with source.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)[::36][:300]
        header = reader.fieldnames
    assert header is not None
    path = tmp_path_factory.mktemp("imo") / "casualties.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    async with open_services(settings, collection=f"{settings.collection}_kinds") as svc:
        report = await ingest_paths([path], svc.store, svc.embeddings, svc.archive, progress=False)
        assert report.errors == [] and report.added == len(rows)
        yield svc, rows


async def _filtered_sources(svc: Services, filters: SearchFilters) -> set[str]:
    where, params = filters.where("c")
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT c.source_id FROM chunks c WHERE " + where.as_string(conn), params
        )
        return {r["source_id"] for r in await cur.fetchall()}


async def _vessel_documents(keys: list[str]) -> list[str]:
    raise AssertionError("no vessel named")


async def test_bulk_carriers_whatever_the_spelling(
    casualties: tuple[Services, list[dict[str, str]]],
) -> None:
    svc, rows = casualties
    registry = await registered_vessels(svc.store)
    expected = {
        r["Reference"]
        for r in rows
        if any(s in r["ShipType1"].lower() for s in BULK_SPELLINGS) and casualty_document(r).vessels
    }
    assert len(expected) >= 45
    spellings = {r["ShipType1"] for r in rows if r["Reference"] in expected}
    assert {"Bulk Carrier", "BULK CARRIER", "Bulk Dry (general, ore) Carrier"} <= spellings

    resolutions = [
        resolve(text, {}, registry).filters
        for text in ("Groundings of bulk carriers", "GROUNDINGS OF BULK CARRIERS") * 3
    ]
    assert all(f == {"vessel_families": ["bulk carrier"]} for f in resolutions), resolutions
    filters = await to_search_filters(resolutions[0], _vessel_documents)
    assert await _filtered_sources(svc, filters) == expected

    result = await retrieve(
        svc.store,
        svc.embeddings,
        "Groundings of bulk carriers",
        filters,
        RetrievalConfig(k=10),
    )
    assert len(result.candidates) == 10
    assert {c["source_id"] for c in result.candidates} <= expected
    grounded = [c for c in result.candidates if "ground" in c["text"].lower()]
    assert len(grounded) >= 3


async def test_classification_societies_filter(
    casualties: tuple[Services, list[dict[str, str]]],
) -> None:
    svc, rows = casualties
    registry = await registered_vessels(svc.store)
    for question, spelled in (
        ("fires on ships classed by Lloyd's Register", "Lloyd's Register (LR)"),
        ("casualties of ABS classed vessels", "American Bureau of Shipping (ABS)"),
        ("ClassNK ships that sank", "Nippon Kaiji Kyokai (NKK)"),
    ):
        resolution = resolve(question, {}, registry)
        assert set(resolution.filters) == {"class_society"}, (question, resolution.filters)
        expected = {
            r["Reference"]
            for r in rows
            if r["ClassificationSociety1"] == spelled and casualty_document(r).vessels
        }
        assert expected
        found = await _filtered_sources(
            svc, await to_search_filters(resolution.filters, _vessel_documents)
        )
        assert found == expected, question


async def _kinds(svc: Services) -> list[tuple[str, str, str, str]]:
    """(table, id, family, society) of every vessel, document and chunk row."""
    rows: list[tuple[str, str, str, str]] = []
    async with svc.store.pool.connection() as conn:
        for table, key in (
            ("vessels", "vessel_key"),
            ("documents", "doc_id"),
            ("chunks", "chunk_id"),
        ):
            cur = await conn.execute(
                f"SELECT {key} AS id, vessel_family, class_society FROM {table}"
            )
            rows += [
                (table, r["id"], r["vessel_family"] or "", r["class_society"] or "")
                for r in await cur.fetchall()
            ]
    return sorted(rows)


async def test_rows_stored_before_the_family_columns_are_filled_in(
    casualties: tuple[Services, list[dict[str, str]]],
) -> None:
    svc, _ = casualties
    before = await _kinds(svc)
    assert sum(1 for r in before if r[2] == "bulk carrier") > 50
    async with svc.store.pool.connection() as conn:
        for table in ("vessels", "documents", "chunks"):
            await conn.execute(f"UPDATE {table} SET vessel_family = NULL, class_society = NULL")
    assert await classify_stored_vessels(svc.store) > 0
    assert await _kinds(svc) == before
    await classify_stored_vessels(svc.store)  # again: nothing left to change
    assert await _kinds(svc) == before
