"""Concurrent turns through the turn runner on one PostgreSQL, a smaller plan of
benchmarks/concurrent_turns.py: half on one thread, half each on its own thread (every other one
filtered to a vessel), all at once, on a pool smaller than the number of turns."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from agent.settings import Settings
from agent.turns import open_runner
from agent.wiring import open_services
from archive.ingest.pipeline import ingest_documents
from benchmarks.concurrent_turns import plan, run_concurrently
from tests.integration.test_conversation_postgres import fixture_documents

pytestmark = pytest.mark.integration

QUESTIONS = [
    "Why did the purifier on Kestrel Dawn overheat?",
    "How was the purifier repaired?",
    "What caused the purifier alarm?",
]
VESSELS = ["Kestrel Dawn", "Osprey Line"]
FLEET_QUESTIONS = ["Were there any purifier problems?", "Which sensor was replaced?"]


@pytest.fixture(scope="module")
async def collection(settings: Settings) -> AsyncIterator[Settings]:
    own = replace(settings, collection=f"concurrent_{uuid.uuid4().hex[:8]}")
    async with open_services(own) as services:
        report = await ingest_documents(
            fixture_documents(),
            services.store,
            services.embeddings,
            services.archive,
            progress=False,
        )
        assert not report.errors
    yield own


async def test_concurrent_turns_lose_nothing_and_leak_nothing(collection: Settings) -> None:
    asks = plan(6, 6, QUESTIONS, VESSELS, FLEET_QUESTIONS)
    # Two pooled connections for twelve turns: each turn's bookkeeping rides on its lock's
    # connection, and turns beyond the pool wait in line (a second connection per turn
    # deadlocked a full pool until its 30 s timeout).
    async with open_runner(collection, connections=2) as runner:
        report = await run_concurrently(runner, asks, VESSELS)
    assert report.problems == []
    assert (report.errors, report.lost, report.filter_leaks, report.citation_leaks) == (0, 0, 0, 0)
    assert all(o.turn is not None and o.turn.answer.text for o in report.outcomes)
    filtered = [o for o in report.outcomes if o.ask.vessel]
    assert filtered and all(o.turn and o.turn.state.get("filters") for o in filtered)
