"""A warm `bosun ask`: after a cold ask the home's warm process answers the next asks with the
same output, refuses (and makes way for) another environment, reopens its graph on a changed
archive, and `bosun stop` ends it. (DATABASE_URL is set here: only an ask leaves one.)"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.e2e.harness import EXAMPLE_ARCHIVE, ROOT, Bosun

pytestmark = pytest.mark.e2e

QUESTION = "What was the probable cause of the ERA25LA084 accident?"


def _log(home: Path) -> str:
    path = home / "warm-ask.log"
    return path.read_text(errors="replace") if path.exists() else ""


def _wait_for(home: Path, text: str, count: int = 1, seconds: float = 180.0) -> None:
    deadline = time.monotonic() + seconds
    while _log(home).count(text) < count:
        assert time.monotonic() < deadline, f"no {text!r} in the warm log:\n{_log(home)[-3000:]}"
        time.sleep(0.2)


def test_the_warm_process_answers_the_next_asks_as_a_cold_ask_would(bosun: Bosun) -> None:
    home = bosun.settings.home
    warm = Bosun(bosun.settings, {**bosun.env, "BOSUN_SERVER_LINGER_S": "300"})
    try:
        cold = warm.run("ask", QUESTION)
        assert cold.returncode == 0, cold.stderr[-2000:]
        assert "[1]" in cold.stdout
        _wait_for(home, "answering asks")

        again = warm.run("ask", QUESTION)
        assert again.returncode == 0, again.stderr[-2000:]
        assert again.stdout == cold.stdout  # the same answer, sources and all
        assert "continue with --thread" in again.stderr
        _wait_for(home, "answered an ask (exit status 0)", count=1, seconds=5)

        usage = warm.run("ask")  # no question: the usage error comes back as it is
        assert usage.returncode == 2 and "question" in usage.stderr
        assert _log(home).count("answered an ask") == 2

        other = Bosun(bosun.settings, {**warm.env, "BOSUN_CHAT_TOOLS": "off"})
        moved = other.run("ask", QUESTION)  # another environment: refused, answered cold
        assert moved.returncode == 0, moved.stderr[-2000:]
        assert moved.stdout == cold.stdout
        assert "refused a question (another environment)" in _log(home)
        _wait_for(home, "answering asks", count=2)  # the cold ask started one for its own

        # (status 1 and held_by: the session's own server, which this test process holds)
        stopped = json.loads(other.run("stop", "--json").stdout)
        assert isinstance(stopped["warm_ask_stopped"], int)
        assert json.loads(other.run("stop", "--json").stdout)["warm_ask_stopped"] is None
    finally:
        warm.run("stop")


def test_after_an_ingest_the_next_ask_is_answered_warm_with_the_new_documents(
    bosun: Bosun, tmp_path: Path
) -> None:
    """The warm process's caches (vessel registry, greeting examples) never outlive a change
    of the archive: it reopens the graph (its models stay loaded) before the first ask after
    an ingest, which it answers with the new documents."""
    mail = ROOT / EXAMPLE_ARCHIVE / "fleet-mail"
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    shutil.copy(mail / "01-crack-report.eml", first)
    shutil.copy(mail / "05-hatch-repair.eml", second)
    env = {
        **bosun.env,
        "BOSUN_SERVER_LINGER_S": "300",
        "BOSUN_COLLECTION": f"{bosun.settings.collection}_warm",
    }
    warm = Bosun(bosun.settings, env)
    home = bosun.settings.home
    try:
        assert warm.run("ingest", str(first), "--json").json()["added"] >= 1
        started = _log(home).count("answering asks")
        assert warm.run("ask", "What cracked?").returncode == 0
        _wait_for(home, "answering asks", count=started + 1)
        reopened = _log(home).count("reopened: the archive or its models changed")

        assert warm.run("ingest", str(second), "--json").json()["added"] >= 1
        answered = _log(home).count("answered an ask")
        after = warm.run("ask", "What was repaired on the hatch?")
        assert after.returncode == 0, after.stderr[-2000:]
        assert _log(home).count("answered an ask") == answered + 1  # by the warm process
        assert _log(home).count("reopened: the archive or its models changed") == reopened + 1
        assert "hatch" in after.stdout.lower()
    finally:
        warm.run("stop")
