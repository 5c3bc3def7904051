"""`bosun stop` stops a home's embedded PostgreSQL server and its linger process, as a user runs
it; a linger process killed with SIGTERM stops the server itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from archive.store.linger import STATE_FILE, running_postmaster
from tests.e2e.harness import fresh_home

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def home() -> Iterator[Path]:
    with fresh_home("bosun-stop-") as home:
        yield home


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(BOSUN_HOME=str(home), BOSUN_SERVER_LINGER_S="300", PYTHONPATH=str(ROOT))
    env["BOSUN_WARM_ASK"] = (
        "off"  # the server alone (with the warm process: test_warm_beside_server)
    )
    return env


def _bosun(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args],
        env=_env(home),
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
    )


def _gone(pid: int, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not psutil.pid_exists(pid)


def _started(home: Path) -> tuple[int, int]:
    """Run `bosun status` (the server then lingers); the server's and the linger's ids."""
    done = _bosun(home, "status")
    assert done.returncode == 0, done.stderr[-2000:]
    postmaster = running_postmaster(home / "pgdata")
    assert postmaster is not None, "the server did not outlive the command"
    linger = int(json.loads((home / "pgdata" / STATE_FILE).read_text())["pid"])
    assert psutil.pid_exists(linger)
    return postmaster, linger


def test_bosun_stop_stops_the_server_and_its_helper(home: Path) -> None:
    postmaster, linger = _started(home)
    done = _bosun(home, "stop", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report == {
        "warm_ask_stopped": None,
        "helper_stopped": linger,
        "server_stopped": True,
        "held_by": [],
    }
    assert _gone(postmaster) and _gone(linger)
    assert running_postmaster(home / "pgdata") is None

    again = _bosun(home, "stop")  # nothing left: said so, not an error
    assert again.returncode == 0 and "no embedded server was running" in again.stdout


def test_a_linger_killed_with_sigterm_stops_the_server(home: Path) -> None:
    postmaster, linger = _started(home)
    os.kill(linger, signal.SIGTERM)
    assert _gone(linger), "the linger process ignored SIGTERM"
    assert _gone(postmaster), "killing the helper left PostgreSQL running"


def test_after_a_sigkilled_linger_bosun_stop_stops_the_orphaned_server(home: Path) -> None:
    postmaster, linger = _started(home)
    os.kill(linger, signal.SIGKILL)
    assert _gone(linger)
    time.sleep(1)
    assert running_postmaster(home / "pgdata") == postmaster  # nothing could stop it
    done = _bosun(home, "stop")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "stopped the embedded PostgreSQL server" in done.stdout
    assert _gone(postmaster)


def test_a_server_in_use_is_left_to_its_user(home: Path) -> None:
    postmaster, _ = _started(home)
    chat = subprocess.Popen(  # holds the server while it waits for a line
        [sys.executable, "-m", "agent.cli", "chat"],
        env=_env(home),
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert chat.stdout is not None
        assert "Bosun chat on thread" in chat.stdout.readline()
        done = _bosun(home, "stop")
        assert done.returncode == 1
        assert f"still in use by process {chat.pid}" in done.stdout
        assert running_postmaster(home / "pgdata") == postmaster
    finally:
        chat.kill()
        chat.wait(20)
    done = _bosun(home, "stop")  # the chat is gone (killed: its id is forgotten as dead)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert _gone(postmaster)
