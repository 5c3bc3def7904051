"""The warm ask process comes up with the embedded server: `bosun ingest` leaves it (and the
server) behind, the `bosun ask` that follows is answered by it, `bosun stop` stops both, and
``BOSUN_WARM_ASK=off`` leaves none. Each runs `bosun` as a user does, in a fresh home on the
embedded server (no DATABASE_URL)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from agent.warm.address import name_of
from agent.warm.process import LOG_FILE
from archive.store.linger import running_postmaster
from tests.e2e.harness import EXAMPLE_ARCHIVE, ONLINE_KEYS, ROOT, fresh_home

pytestmark = pytest.mark.e2e

QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    with fresh_home("bosun-warm-") as home:
        yield home


@pytest.fixture
def mail(tmp_path: Path) -> Path:
    """Three messages of the example fleet mail (a short ingest)."""
    folder = tmp_path / "mail"
    folder.mkdir()
    for name in ("01-crack-report.eml", "02-investigation.eml", "03-resolution.eml"):
        shutil.copy(ROOT / EXAMPLE_ARCHIVE / "fleet-mail" / name, folder)
    return folder


def _bosun(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ONLINE_KEYS and k != "DATABASE_URL"}
    env.update(BOSUN_HOME=str(home), BOSUN_SERVER_LINGER_S="300", PYTHONPATH=str(ROOT), **extra)
    return subprocess.run(
        [sys.executable, "-m", "agent.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


def _log(home: Path) -> str:
    path = home / LOG_FILE
    return path.read_text(errors="replace") if path.exists() else ""


def _listening(home: Path) -> bool:
    """Whether a warm process holds the home's socket (up, or loading)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(name_of(home.resolve()))
        except OSError:
            return False
    return True


def _gone(pid: int, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while psutil.pid_exists(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not psutil.pid_exists(pid)


def test_ingest_leaves_a_warm_process_that_answers_the_next_ask_and_stop_ends_both(
    home: Path, mail: Path
) -> None:
    ingest = _bosun(home, "ingest", str(mail), "--json")
    assert ingest.returncode == 0, ingest.stderr[-2000:]
    assert json.loads(ingest.stdout)["added"] >= 3
    assert _listening(home), f"no warm process after the ingest:\n{_log(home)[-3000:]}"
    postmaster = running_postmaster(home / "pgdata")
    assert postmaster is not None  # the server stayed up with it

    ask = _bosun(home, "ask", QUESTION)
    assert ask.returncode == 0, ask.stderr[-2000:]
    assert "[1]" in ask.stdout and "continue with --thread" in ask.stderr
    log = _log(home)
    assert log.count("answered an ask (exit status 0)") == 1, log[-3000:]  # forwarded

    stop = _bosun(home, "stop", "--json")
    assert stop.returncode == 0, stop.stderr[-2000:]
    report = json.loads(stop.stdout)
    assert isinstance(report["warm_ask_stopped"], int)
    assert isinstance(report["helper_stopped"], int)
    assert report["server_stopped"] is True and report["held_by"] == []
    assert _gone(report["warm_ask_stopped"]) and _gone(report["helper_stopped"])
    assert _gone(postmaster) and not _listening(home)


def test_a_first_ingest_into_a_home_that_does_not_exist_yet_leaves_a_warm_process(
    home: Path, mail: Path
) -> None:
    """The README's first command on a fresh machine: the default home is not there yet."""
    new = home / "not" / "yet"
    ingest = _bosun(new, "ingest", str(mail), "--json")
    try:
        assert ingest.returncode == 0, ingest.stderr[-2000:]
        assert _listening(new), f"no warm process after the ingest:\n{_log(new)[-3000:]}"
    finally:
        _bosun(new, "stop")


def test_with_the_opt_out_no_command_leaves_a_warm_process(home: Path, mail: Path) -> None:
    ingest = _bosun(home, "ingest", str(mail), "--json", BOSUN_WARM_ASK="off")
    assert ingest.returncode == 0, ingest.stderr[-2000:]
    assert not _listening(home)
    ask = _bosun(home, "ask", QUESTION, BOSUN_WARM_ASK="off")
    assert ask.returncode == 0 and "[1]" in ask.stdout, ask.stderr[-2000:]  # answered cold
    assert not _listening(home) and _log(home) == ""
    assert running_postmaster(home / "pgdata") is not None  # the server itself still lingers

    again = _bosun(home, "ingest", str(mail), "--json")  # the opt-out lifted: it leaves one
    assert again.returncode == 0, again.stderr[-2000:]
    assert _listening(home)
    stop = _bosun(home, "stop", "--json")
    assert isinstance(json.loads(stop.stdout)["warm_ask_stopped"], int)
