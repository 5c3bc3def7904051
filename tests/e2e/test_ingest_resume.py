"""Ingest that finishes what it started, as a user sees it: `kill -9` at several points and a
rerun give every count of a clean ingest; Ctrl-C stops promptly with a summary of what was
stored; the embedded server is stopped by the last process even after a killed one."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import psutil
import psycopg
import pytest

from agent.settings import Settings
from tests.e2e.harness import ROOT, Bosun, offline_env

pytestmark = pytest.mark.e2e

COUNTS = {
    "documents": "SELECT count(*) FROM documents WHERE kind <> 'thread_digest'",
    "digests": "SELECT count(*) FROM documents WHERE kind = 'thread_digest'",
    "chunks": "SELECT count(*) FROM chunks",
    "vectors": "SELECT count(*) FROM chunks WHERE embedding IS NOT NULL",
    "postings": "SELECT count(*) FROM bm25_postings",
    "topics": "SELECT count(*) FROM topics",
    "topic_links": "SELECT count(*) FROM chunk_topics",
    "topics_read": "SELECT count(*) FROM topic_scanned",
    "vessel_links": "SELECT count(*) FROM document_vessels",
    "vessel_tagged": "SELECT count(*) FROM documents WHERE vessel_name IS NOT NULL",
    "vessels_read": "SELECT count(*) FROM vessel_scanned",
}
#: The stages an ingest goes through, each measured by how much of a clean ingest it holds.
STAGES = ("documents", "vessels_read", "digests", "topics_read")
KILLS = 10
SEED = 20261201


@pytest.fixture(scope="module")
def small_archive() -> Iterator[Path]:
    """The example mailbox and fleet list with 60 NTSB records: a few hundred chunks."""
    folder = Path(tempfile.mkdtemp(prefix="bosun-resume-"))
    shutil.copytree(ROOT / "examples/archive/fleet-mail", folder / "fleet-mail")
    (folder / "ntsb").mkdir()
    lines = (ROOT / "examples/archive/ntsb/reports_sample.jsonl").read_text().splitlines()
    (folder / "ntsb" / "reports.jsonl").write_text("\n".join(lines[:60]) + "\n")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _cli(settings: Settings) -> Bosun:
    fresh = replace(settings, collection=f"resume_{uuid.uuid4().hex[:8]}")
    return Bosun(fresh, offline_env(fresh))


def counts(cli: Bosun) -> dict[str, int]:
    with psycopg.connect(str(cli.settings.database_url), autocommit=True) as conn:
        conn.execute(f"SET search_path TO {cli.settings.collection}, public")
        out = {}
        for name, query in COUNTS.items():
            try:
                out[name] = conn.execute(query).fetchone()[0]  # type: ignore[index]
            except psycopg.errors.UndefinedTable:
                conn.rollback()
                out[name] = 0
        return out


def _start(cli: Bosun, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*cli.command, *args],
        env=cli.env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def _kill_when(
    cli: Bosun, archive: Path, ready: Callable[[dict[str, int]], bool], signum: int
) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """Start an ingest and send ``signum`` the moment the database shows ``ready``."""
    proc = _start(cli, "ingest", str(archive), "--json", "--no-progress")
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        seen = counts(cli)
        if ready(seen):
            proc.send_signal(signum)
            return proc, seen
        time.sleep(0.05)
    pytest.fail(f"the ingest ended before the kill point: {proc.communicate()[1][-2000:]}")


def progress(seen: dict[str, int], expected: dict[str, int]) -> float:
    """How far an ingest is, from 0 to len(STAGES): each stage's share of a clean ingest."""
    return sum(min(seen[k] / expected[k], 1.0) for k in STAGES if expected[k])


def test_kill_9_at_ten_random_points_then_rerun_equals_a_clean_ingest(
    settings: Settings, small_archive: Path
) -> None:
    """Ten ``kill -9``s at seeded random points spread over every stage (documents, vessel
    tagging, digests, topics), each run resuming the last; one rerun then gives every count of
    a clean ingest."""
    clean = _cli(settings)
    run = clean.run("ingest", str(small_archive), "--json", "--no-progress", timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    expected = counts(clean)
    assert all(expected[k] for k in STAGES) and expected["topic_links"], expected

    killed = _cli(settings)
    rng = random.Random(SEED)
    targets = sorted(rng.uniform(0.02, len(STAGES) - 0.02) for _ in range(KILLS))
    kills: list[float] = []
    for target in targets:
        start = progress(counts(killed), expected)
        proc, seen = _kill_at(
            killed, small_archive, lambda c, s=start, t=target: s < progress(c, expected) >= t
        )
        proc.wait(30)
        if proc.returncode == -signal.SIGKILL:
            kills.append(round(progress(seen, expected), 2))
    assert len(kills) >= KILLS - 2, (targets, kills)  # a run may finish between two polls
    assert any(k < 1 for k in kills) and any(k > 3 for k in kills), kills  # first and last stage
    rerun = killed.run("ingest", str(small_archive), "--json", "--no-progress", timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert counts(killed) == expected


def _kill_at(
    cli: Bosun, archive: Path, ready: Callable[[dict[str, int]], bool]
) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """Start an ingest and ``kill -9`` it the moment the database shows ``ready`` (or let it
    finish when it gets there first)."""
    proc = _start(cli, "ingest", str(archive), "--json", "--no-progress")
    seen = counts(cli)
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        seen = counts(cli)
        if ready(seen):
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.05)
    return proc, seen


def test_ctrl_c_stops_promptly_with_a_summary_of_what_was_stored(
    settings: Settings, small_archive: Path
) -> None:
    cli = _cli(settings)
    proc, _ = _kill_when(cli, small_archive, lambda c: c["chunks"] > 0, signal.SIGINT)
    signalled = time.monotonic()
    stdout, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - signalled < 20, "Ctrl-C did not stop the ingest promptly"
    assert proc.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr
    summary = json.loads(stdout)
    assert summary["interrupted"] is True
    stored = counts(cli)
    assert summary["added"] == stored["documents"] > 0
    assert summary["thread_digests"] == stored["digests"]


def test_the_last_process_stops_the_embedded_server_after_a_killed_one() -> None:
    home = Path(tempfile.mkdtemp(prefix="bosun-holders-"))
    home.chmod(0o755)
    env = {k: v for k, v in offline_env(Settings(home=home)).items() if k != "DATABASE_URL"}
    env["BOSUN_HOME"] = str(home)
    cli = Bosun(Settings(home=home), env)
    try:
        # `bosun chat` holds the server while it waits for a line; kill it there.
        chat = subprocess.Popen(
            [*cli.command, "chat"],
            env=env,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert chat.stdout is not None
        assert "Bosun chat on thread" in chat.stdout.readline()
        chat.kill()
        chat.wait(10)
        status = cli.run("status", "--json", timeout=300)
        assert status.returncode == 0, status.stderr[-2000:]
        postmaster = home / "pgdata" / "postmaster.pid"
        deadline = time.monotonic() + 20
        while postmaster.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not postmaster.exists(), "the embedded server was left running"
    finally:
        _stop_server(home / "pgdata")
        shutil.rmtree(home, ignore_errors=True)


def _stop_server(pgdata: Path) -> None:
    pid_file = pgdata / "postmaster.pid"
    if pid_file.exists():
        pid = int(pid_file.read_text().split()[0])
        if psutil.pid_exists(pid):
            os.kill(pid, signal.SIGTERM)


def test_unreadable_entries_are_reported_one_escaped_line_each(
    settings: Settings, tmp_path: Path
) -> None:
    folder = tmp_path / "mixed"
    (folder / "loop").mkdir(parents=True)
    (folder / "good.txt").write_text("Ballast pump overhauled in Rotterdam.\n")
    (folder / "evil.bin\n  skipped forged.txt: looks fine").write_bytes(b"\x00")
    (folder / "dangling.txt").symlink_to(tmp_path / "nowhere")
    (folder / "loop" / "back").symlink_to(folder)
    run = _cli(settings).run("ingest", str(folder), "--no-progress", timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    skipped = [line for line in run.stdout.splitlines() if line.startswith("  skipped")]
    assert len(skipped) == 3, run.stdout
    assert not any(line.startswith("  skipped forged") for line in run.stdout.splitlines())
    assert any("evil.bin\\n  skipped forged.txt" in line for line in skipped), run.stdout
    assert run.stdout.startswith("ingested 1 new")
