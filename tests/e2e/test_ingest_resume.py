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
    "topic_index": "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema()"
    " AND indexname = 'topics_embedding_hnsw'",  # a first pass drops it and builds it after
    "vessel_links": "SELECT count(*) FROM document_vessels",
    "vessel_tagged": "SELECT count(*) FROM documents WHERE vessel_name IS NOT NULL",
    "vessels_read": "SELECT count(*) FROM vessel_scanned",
}
#: The stages an ingest goes through, each measured by how much of a clean ingest it holds.
STAGES = ("documents", "vessels_read", "digests", "topics_read")
PER_STAGE = (4, 2, 2, 2)  # kill points per stage: documents, vessel tagging, digests, topics
KILLS = sum(PER_STAGE)
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


def _kill_when(
    cli: Bosun, archive: Path, ready: Callable[[dict[str, int]], bool], signum: int
) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """Start an ingest and send ``signum`` the moment the database shows ``ready``."""
    proc = cli.start("ingest", str(archive), "--json", "--no-progress")
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


class Stages:
    """The stages' counts in one statement on one open connection (cheap enough to poll)."""

    def __init__(self, cli: Bosun) -> None:
        self.conn = psycopg.connect(str(cli.settings.database_url), autocommit=True)
        self.query = "SELECT " + ", ".join(f"({COUNTS[k]}) AS {k}" for k in STAGES)
        self.schema = cli.settings.collection

    def __call__(self) -> dict[str, int]:
        try:
            self.conn.execute(f"SET search_path TO {self.schema}, public")
            row = self.conn.execute(self.query).fetchone()
        except psycopg.errors.UndefinedTable:  # a fresh collection before its first migration
            return dict.fromkeys(STAGES, 0)
        assert row is not None
        return dict(zip(STAGES, row, strict=True))

    def close(self) -> None:
        self.conn.close()


def _watch(cli: Bosun, archive: Path) -> list[dict[str, int]]:
    """A clean ingest, polled: the states the database went through while it ran."""
    stages = Stages(cli)
    proc = cli.start("ingest", str(archive), "--json", "--no-progress")
    states: list[dict[str, int]] = []
    while proc.poll() is None:
        seen = stages()
        if not states or seen != states[-1]:
            states.append(seen)
        time.sleep(0.05)
    stages.close()
    _, stderr = proc.communicate()
    assert proc.returncode == 0, stderr[-2000:]
    return states


def kill_points(states: list[dict[str, int]], expected: dict[str, int]) -> list[float]:
    """:data:`KILLS` seeded random points among the progress values a clean ingest went through
    with work still to do: :data:`PER_STAGE` of them in each stage that showed one."""
    seen = sorted({round(progress(s, expected), 4) for s in states} - {float(len(STAGES))})
    rng = random.Random(SEED)
    points: list[float] = []
    for stage, share in enumerate(PER_STAGE):
        values = [v for v in seen if stage <= v < stage + 1] or seen
        points += [rng.choice(values) for _ in range(share)]
    return sorted(points)


def test_kill_9_at_ten_random_points_then_rerun_equals_a_clean_ingest(
    settings: Settings, small_archive: Path
) -> None:
    """Ten ``kill -9``s at seeded random points drawn from the states a clean ingest went
    through (documents, vessel tagging, digests, topics), each run resuming the last; when a
    resumed run finishes first, its counts must equal a clean ingest and the kills go on in a
    fresh collection; a last rerun gives every count of a clean ingest."""
    clean = _cli(settings)
    states = _watch(clean, small_archive)
    expected = counts(clean)
    assert all(expected[k] for k in STAGES) and expected["topic_links"], expected
    targets = kill_points(states, expected)

    killed = _cli(settings)
    kills: list[float] = []
    finished = 0
    while len(kills) < KILLS:
        assert finished < 3, (targets, kills)  # a kill point is reached far more often than not
        target = targets[len(kills)]
        start = progress(counts(killed), expected)
        proc, at = _kill_at(
            killed, small_archive, lambda c, s=start, t=target: s < progress(c, expected) >= t
        )
        proc.wait(30)
        if proc.returncode == -signal.SIGKILL:
            kills.append(round(progress(at, expected), 2))
            continue
        assert proc.returncode == 0 and counts(killed) == expected  # resumed to the end
        finished += 1
        killed = _cli(settings)
    assert min(kills) < 1 and max(kills) > 2, kills  # the first stage and the derived ones
    rerun = killed.run("ingest", str(small_archive), "--json", "--no-progress", timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-2000:]
    assert counts(killed) == expected


def _kill_at(
    cli: Bosun, archive: Path, ready: Callable[[dict[str, int]], bool]
) -> tuple[subprocess.Popen[str], dict[str, int]]:
    """Start an ingest and ``kill -9`` it the moment the database shows ``ready`` (or let it
    finish when it gets there first)."""
    stages = Stages(cli)
    proc = cli.start("ingest", str(archive), "--json", "--no-progress")
    seen = stages()
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        seen = stages()
        if ready(seen):
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.05)
    proc.communicate()
    stages.close()
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
    passwd = tmp_path / "passwd"  # stands in for /etc/passwd
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    (folder / "passwd.txt").symlink_to(passwd)
    cli = _cli(settings)
    run = cli.run("ingest", str(folder), "--no-progress", timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    skipped = [line for line in run.stdout.splitlines() if line.startswith("  skipped")]
    assert len(skipped) == 4, run.stdout
    assert not any(line.startswith("  skipped forged") for line in run.stdout.splitlines())
    assert any("evil.bin\\n  skipped forged.txt" in line for line in skipped), run.stdout
    assert f"  skipped {folder / 'passwd.txt'}: a symbolic link to {passwd}, outside" in run.stdout
    assert run.stdout.startswith("ingested 1 new")
    again = json.loads(cli.run("ingest", str(folder), "--json", timeout=300).stdout)
    refused = f"a symbolic link to {passwd}, outside the folders being ingested: not followed"
    assert again["unchanged"] == 1
    assert {"path": str(folder / "passwd.txt"), "reason": refused} in again["errors"]
