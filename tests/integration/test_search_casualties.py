"""IMO casualty records from the shared data: an IMO number finds that vessel's casualty first."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.search_filters import SearchFilters
from archive.store.vessels import registered_vessels, vessel_documents
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig
from tools.vessels import UnknownVessel, resolve_vessel

pytestmark = [pytest.mark.integration, pytest.mark.shared_data]


async def test_imo_number_ranks_its_casualty_first(
    settings: Settings, shared_data: Path, tmp_path: Path
) -> None:
    source = shared_data / "maritime" / "imo_casualties.csv"
    with source.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        rows = [r for r in reader if "(IMO " in r["ShipsInvolved"]][:150]
        header = reader.fieldnames
    subset = tmp_path / "casualties.csv"
    with subset.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)

    async with open_services(settings, collection=f"{settings.collection}_imo") as svc:
        report = await ingest_paths(
            [subset], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == [] and report.added == len(rows)
        registry = await registered_vessels(svc.store)
        singles = [v for v in registry if v.imo]
        for vessel in random.Random(7).sample(singles, 5):
            result = await retrieve(
                svc.store,
                svc.embeddings,
                f"IMO {vessel.imo}",
                SearchFilters(),
                RetrievalConfig(k=5),
            )
            top = result.candidates[0]
            assert vessel.imo in top["text"], (vessel, top["source_id"])
            assert top["kind"] == "casualty"

        # A misspelled name resolves visibly to the registered vessel; nonsense is rejected.
        vessel = singles[0]
        typo = vessel.name[:-1] + ("X" if vessel.name[-1] != "X" else "Y")
        match = resolve_vessel(typo.lower(), registry)
        assert vessel.name in {v.name for v in match.vessels}
        docs = await vessel_documents(svc.store, [v.key for v in match.vessels])
        result = await retrieve(
            svc.store,
            svc.embeddings,
            "casualty",
            SearchFilters(doc_ids=tuple(docs)),
            RetrievalConfig(k=10),
        )
        assert result.candidates
        assert {c["doc_id"] for c in result.candidates} <= set(docs)
        with pytest.raises(UnknownVessel, match="no vessel named"):
            resolve_vessel("Queen of the Gobi Desert", registry)
