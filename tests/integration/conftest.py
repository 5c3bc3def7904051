"""Real PostgreSQL for integration tests: the embedded server, or DATABASE_URL when set."""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.warm.client import stop as stop_warm
from agent.wiring import Services, open_services
from archive.store.linger import stop
from archive.store.server import release_embedded


@pytest.fixture(scope="session")
def settings() -> Iterator[Settings]:
    """A fresh BOSUN_HOME; a unique collection so a shared DATABASE_URL server stays clean.

    The home is world-traversable: run as root, pgserver runs PostgreSQL as its own user.
    """
    home = Path(tempfile.mkdtemp(prefix="bosun-test-"))
    home.chmod(0o755)
    yield Settings(
        home=home,
        database_url=os.environ.get("DATABASE_URL") or None,
        collection=f"test_{uuid.uuid4().hex[:8]}",
    )
    # Commands the tests ran may have left a warm ask process or a linger process holding an
    # embedded server (this home's, a benchmark's in a subfolder): stopped before the folder
    # goes, or PostgreSQL would run on without its data folder.
    stop_warm(home.resolve())
    for pgdata in sorted(home.rglob("pgdata")):
        stop(pgdata)
    release_embedded(home / "pgdata")  # this process's own hold (the services fixture)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
async def services(settings: Settings) -> AsyncIterator[Services]:
    async with open_services(settings) as opened:
        yield opened


@pytest.fixture(scope="module")
async def ingested(services: Services) -> Services:
    """The session's archive with the fixture fleet mail and records ingested (once a module;
    a rerun adds nothing)."""
    from archive.ingest.pipeline import ingest_documents
    from tests.integration.test_conversation_postgres import fixture_documents

    report = await ingest_documents(
        fixture_documents(), services.store, services.embeddings, services.archive, progress=False
    )
    assert not report.errors
    return services
