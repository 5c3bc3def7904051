"""A small archive of NTSB records and IMO casualties written from Python rows and ingested,
and one offline turn over it: what the count tests share."""

from __future__ import annotations

import csv
import json
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.wiring import Services, build_clients, open_services
from archive.ingest.pipeline import ingest_paths
from graph.builder import build_graph


@asynccontextmanager
async def records_archive(
    settings: Settings,
    folder: Path,
    collection: str,
    records: Sequence[dict[str, Any]],
    casualties: Sequence[dict[str, str]],
) -> AsyncIterator[Services]:
    """Services over ``collection`` holding ``records`` (NTSB JSONL) and ``casualties`` (the
    IMO CSV), written into ``folder`` and ingested without an error."""
    (folder / "ntsb.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    with (folder / "casualties.csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(casualties[0]))
        writer.writeheader()
        writer.writerows(casualties)
    async with open_services(settings, collection=collection) as svc:
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == [] and report.added == len(records) + len(casualties)
        yield svc


async def ask(services: Services, question: str) -> dict[str, Any]:
    """One offline turn of ``question`` in a new conversation: the graph's final state."""
    graph = build_graph(build_clients(services, offline=True), checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": uuid.uuid4().hex}}
    return await graph.ainvoke({"messages": [HumanMessage(question)]}, config)
