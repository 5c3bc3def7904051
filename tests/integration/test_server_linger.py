"""The embedded server outlives a command by BOSUN_SERVER_LINGER_S, held by one linger process."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from archive.store.linger import STATE_FILE, release

ROOT = Path(__file__).resolve().parents[2]
USE_SERVER = "from agent.settings import Settings; Settings.from_env().database_uri()"


@pytest.fixture
def home() -> Iterator[Path]:
    """A world-traversable home of its own (pgserver runs PostgreSQL as its own user)."""
    home = Path(tempfile.mkdtemp(prefix="bosun-linger-"))
    home.chmod(0o755)
    yield home
    release(home / "pgdata")
    _wait_stopped(home / "pgdata", 20)


def _use_server(home: Path, linger_s: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(BOSUN_HOME=str(home), BOSUN_SERVER_LINGER_S=linger_s, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", USE_SERVER], env=env, check=True, timeout=120)


def _postmaster(pgdata: Path) -> int | None:
    pid_file = pgdata / "postmaster.pid"
    if not pid_file.exists():
        return None
    pid = int(pid_file.read_text().split()[0])
    return pid if psutil.pid_exists(pid) else None


def _wait_stopped(pgdata: Path, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _postmaster(pgdata) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    return _postmaster(pgdata) is None


def test_the_server_outlives_a_command_and_one_linger_serves_the_next(home: Path) -> None:
    pgdata = home / "pgdata"
    _use_server(home, "60")
    postmaster = _postmaster(pgdata)
    assert postmaster is not None, "the server stopped with the command"
    first = json.loads((pgdata / STATE_FILE).read_text())
    assert psutil.pid_exists(first["pid"])

    _use_server(home, "60")  # reuses the running server; the same linger, a later deadline
    second = json.loads((pgdata / STATE_FILE).read_text())
    assert _postmaster(pgdata) == postmaster
    assert second["pid"] == first["pid"]
    assert second["until"] > first["until"]

    assert release(pgdata) == first["pid"]
    assert _wait_stopped(pgdata, 20), "the linger process did not stop the server"
    with contextlib.suppress(psutil.NoSuchProcess):
        psutil.Process(first["pid"]).wait(20)  # the linger process is gone as well


def test_without_linger_the_last_command_stops_the_server(home: Path) -> None:
    _use_server(home, "0")
    assert _wait_stopped(home / "pgdata", 20)
    assert not (home / "pgdata" / STATE_FILE).exists()


def test_the_linger_ends_by_itself(home: Path) -> None:
    _use_server(home, "1")
    assert _wait_stopped(home / "pgdata", 30)
