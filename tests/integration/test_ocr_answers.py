"""A scanned copy of a real NTSB final report (images only, no text layer) answers "what was
the probable cause of <id>?" offline, citing the page the probable cause is on."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from archive.ingest import ocr
from archive.ingest.pipeline import ingest_paths
from graph.builder import build_graph
from tests.scans import scanned_pdf, tesseract_installed

pytestmark = pytest.mark.skipif(
    not tesseract_installed(), reason="tesseract-ocr is not installed (.ci/run installs it)"
)
REPORT = "CEN25LA067"  # six pages; the probable cause is on page 2


async def test_a_scanned_report_answers_its_probable_cause_with_the_page(
    settings: Settings, shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BOSUN_OCR", raising=False)
    ocr.enabled.cache_clear()
    original = (shared_data / "ntsb" / "final_reports" / "pdf" / f"{REPORT}.pdf").read_bytes()
    scan = tmp_path / f"{REPORT}.pdf"
    scan.write_bytes(scanned_pdf(original, pages=2))
    async with open_services(settings, collection=f"ocr_{uuid.uuid4().hex[:8]}") as svc:
        report = await ingest_paths([scan], svc.store, svc.embeddings, svc.archive, progress=False)
        assert report.errors == [] and report.added == 1
        graph = build_graph(build_clients(svc, offline=True), checkpointer=InMemorySaver())
        state = await graph.ainvoke(
            {"messages": [HumanMessage(f"What was the probable cause of the {REPORT} accident?")]},
            {"configurable": {"thread_id": uuid.uuid4().hex}},
        )
    answer = str(state["messages"][-1].content)
    assert not state["cutoff"], answer
    assert "maintain" in answer.lower(), answer  # "The failure to maintain ... control"
    pages = {c["page"] for c in state["citations"] if c["source_id"] == REPORT}
    assert 2 in pages, state["citations"]
    assert state["diagnostics"]["citation_check"]["invalid"] == 0
