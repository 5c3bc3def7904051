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
from agent.wiring import Services, open_services


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
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
async def services(settings: Settings) -> AsyncIterator[Services]:
    async with open_services(settings) as opened:
        yield opened
