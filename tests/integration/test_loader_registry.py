"""A new document kind is one module and one registration: the toy ``deck_log`` kind
(tests/fakes/deck_log.py) is found, loaded, summarised, stored, archived, vessel-tagged and
searchable by kind through the real ingest pipeline and PostgreSQL; a link out of the ingested
folder never reaches the store or the archive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.loaders import REGISTRY
from archive.ingest.pipeline import ingest_paths
from archive.store.candidates import bm25_search
from archive.store.search_filters import SearchFilters

pytestmark = pytest.mark.integration

TOY = "tests.fakes.deck_log"
FLEET = "vessel_name,imo,vessel_type,vessel_class\nNordic Star,9234567,Bulk carrier,DNV\n"
NORDIC = (
    "DECK LOG Nordic Star\n"
    "0400 Sounded the ballast tanks, all as expected.\n"
    "0800 Pilot embarked off the breakwater; Nordic Star proceeding to berth 7.\n"
)
BALTIC = "DECK LOG Baltic Trader\n1200 Hatch covers checked for tightness before loading.\n"
SECRET = "root:x:0:0:root:/root:/bin/bash\n"


async def _rows(store: Any, query: str, *params: Any) -> list[dict[str, Any]]:
    async with store.pool.connection() as conn:
        cur = await conn.execute(query, params)
        return [dict(r) for r in await cur.fetchall()]


async def test_a_toy_kind_is_ingested_end_to_end_from_one_module(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "fleet.csv").write_text(FLEET)
    (folder / "nordic.log").write_text(NORDIC)
    (folder / "watch-baltic").write_text(BALTIC)  # no suffix: claimed by its first line
    outside = tmp_path / "passwd"  # stands in for /etc/passwd
    outside.write_text(SECRET)
    (folder / "passwd.log").symlink_to(outside)
    REGISTRY.register(TOY)
    try:
        async with open_services(settings, collection=f"{settings.collection}_toy") as svc:
            report = await ingest_paths(
                [folder], svc.store, svc.embeddings, svc.archive, progress=False
            )
            assert [(Path(e.path).name, e.reason) for e in report.errors] == [
                (
                    "passwd.log",
                    f"a symbolic link to {outside}, outside the folders being ingested:"
                    " not followed",
                )
            ]
            assert report.added == 3
            docs = await _rows(
                svc.store,
                "SELECT doc_id, kind, source_id, summary, embedding_mode, archive_path"
                " FROM documents WHERE kind = 'deck_log' ORDER BY source_id",
            )
            assert [(d["source_id"], d["embedding_mode"]) for d in docs] == [
                ("nordic.log", "full"),
                ("watch-baltic", "full"),
            ]
            assert docs[0]["summary"] == (
                "Deck log of Nordic Star, 2 entries, opening: "
                "0400 Sounded the ballast tanks, all as expected."
            )
            # archived under the kind's folder, byte for byte
            assert all(d["archive_path"].startswith("deck_log/") for d in docs)
            assert svc.archive.resolve(docs[0]["archive_path"]).read_text() == NORDIC
            # tagged with the vessel its text names (the kind declares vessel_mentions)
            tagged = await _rows(
                svc.store,
                "SELECT d.source_id, dv.vessel_key FROM document_vessels dv"
                " JOIN documents d USING (doc_id) WHERE d.kind = 'deck_log'",
            )
            assert tagged == [{"source_id": "nordic.log", "vessel_key": "9234567"}]
            # searchable, and filterable by the new kind
            found = await bm25_search(
                svc.store, "hatch covers tightness", SearchFilters(kinds=("deck_log",))
            )
            chunk_docs = await _rows(
                svc.store,
                "SELECT DISTINCT source_id FROM chunks WHERE chunk_id = ANY(%s)",
                [c for c, _ in found],
            )
            assert [r["source_id"] for r in chunk_docs] == ["watch-baltic"]
            # nothing of the linked file reached the store or the archive
            leaked = await _rows(
                svc.store, "SELECT count(*) AS n FROM chunks WHERE content LIKE '%%root:x:0%%'"
            )
            assert leaked == [{"n": 0}]
            archived = await _rows(svc.store, "SELECT archive_path FROM documents")
            assert not any(
                SECRET in svc.archive.resolve(r["archive_path"]).read_text(errors="replace")
                for r in archived
            )
    finally:
        REGISTRY.unregister(TOY)
