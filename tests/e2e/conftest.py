"""The shipped example archive, ingested once per session by the real `bosun` command.

Every process of the session (the CLI calls, `langgraph dev`, the embedded graph of the tests)
shares one PostgreSQL server: ``DATABASE_URL`` when it is set, otherwise the embedded server of a
fresh BOSUN_HOME, started here and handed to the child processes as ``DATABASE_URL``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from agent.settings import Settings
from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, require_chromium, serve
from tests.e2e.harness import EXAMPLE_ARCHIVE, Bosun, offline_env


@pytest.fixture(scope="session")
def settings() -> Iterator[Settings]:
    """A fresh, world-traversable BOSUN_HOME (pgserver runs PostgreSQL as its own user under
    root) and a unique collection, so a shared DATABASE_URL server stays clean."""
    home = Path(tempfile.mkdtemp(prefix="bosun-e2e-"))
    home.chmod(0o755)
    opened = Settings(
        home=home,
        database_url=os.environ.get("DATABASE_URL") or None,
        collection=f"e2e_{uuid.uuid4().hex[:8]}",
    )
    # Start the embedded server (when there is no DATABASE_URL) in this process, which outlives
    # every child: they all connect to it rather than each starting and stopping one.
    yield Settings(home=home, database_url=opened.database_uri(), collection=opened.collection)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def bosun(settings: Settings) -> Bosun:
    """`bosun ingest examples/archive` once (30-60 s of embedding); the CLI on that archive."""
    cli = Bosun(settings, offline_env(settings))
    ingest = cli.run("ingest", EXAMPLE_ARCHIVE, "--json", timeout=900)
    summary = ingest.json()
    assert summary["errors"] == [] and summary["added"] > 300, summary
    cli.ingested.update(summary, wall_s=round(ingest.seconds, 1))
    return cli


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, one per page-test module."""
    require_chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(bosun: Bosun, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`bosun serve` on the session's archive, one per page-test module: its base URL."""
    with serve(bosun, tmp_path_factory.mktemp("serve") / "server.log") as url:
        yield url
