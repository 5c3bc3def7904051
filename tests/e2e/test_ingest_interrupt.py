"""A large text file streams into the store in committed slices: small mails read after it are
not held back (stored while it is still being written), Ctrl-C (SIGINT) stops the run mid-file
with a partial, resumable state (also while the embedding provider stalls), and a rerun
finishes it with no duplicate passage."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg
import pytest

from agent.settings import Settings
from tests.e2e.harness import ROOT, Bosun, offline_env
from tests.fakes.http_providers import FakeRequest, cohere_embed_v1, fake_provider_server

pytestmark = pytest.mark.e2e

#: Far above one slice (64 passages) and a few seconds of embedding: ~380 passages.
BIG_CHARS = 320_000
#: A generous bound: a run that keeps embedding after Ctrl-C takes minutes on this file.
PROMPT_S = 30
#: Embedding requests the stalling provider answers before it stalls (4 passages each: a few
#: slices of the big file are committed first).
STALL_AFTER = 40
#: A hang guard: without a prompt exit the run waits for the provider's one-hour timeout.
HANG_S = 120


def big_text() -> str:
    """Real prose (the example NTSB narratives), repeated with a counter to ``BIG_CHARS``."""
    lines = (ROOT / "examples/archive/ntsb/reports_sample.jsonl").read_text().splitlines()
    narratives = [json.loads(line)["narrative"] for line in lines]
    parts: list[str] = []
    size = n = 0
    while size < BIG_CHARS:
        text = f"Entry {n}. {narratives[n % len(narratives)]}"
        parts.append(text)
        size += len(text) + 2
        n += 1
    return "\n\n".join(parts)


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "a_big_log.txt").write_text(big_text())
    for n in range(3):
        (tmp_path / f"m{n}.eml").write_text(
            f"From: chief@fleet.example\nSubject: small {n}\nMessage-ID: <small-{n}@x>\n\n"
            f"The small mail number {n} about the bilge alarm.\n"
        )
    yield tmp_path
    shutil.rmtree(tmp_path, ignore_errors=True)


def _big(cli: Bosun) -> dict[str, int]:
    """The big file's stored passages, the count it declares, and duplicate passages."""
    with psycopg.connect(str(cli.settings.database_url), autocommit=True) as conn:
        conn.execute(f"SET search_path TO {cli.settings.collection}, public")
        try:
            row = conn.execute(
                "SELECT (SELECT count(*) FROM chunks c JOIN documents d USING (doc_id)"
                "        WHERE d.source_id = 'a_big_log.txt') AS stored,"
                " (SELECT coalesce(max(chunk_count), 0) FROM documents"
                "        WHERE source_id = 'a_big_log.txt') AS declared,"
                " (SELECT count(*) - count(DISTINCT chunk_id) FROM chunks) AS duplicates,"
                " (SELECT count(*) FROM documents WHERE kind = 'email') AS mails"
            ).fetchone()
        except (psycopg.errors.UndefinedTable, psycopg.errors.InvalidSchemaName):
            return {"stored": 0, "declared": 0, "duplicates": 0, "mails": 0}
    assert row is not None
    return dict(zip(("stored", "declared", "duplicates", "mails"), row, strict=True))


def test_ctrl_c_mid_file_stops_promptly_and_a_rerun_finishes_it(
    settings: Settings, folder: Path
) -> None:
    cli = replace(settings, collection=f"interrupt_{uuid.uuid4().hex[:8]}")
    bosun = Bosun(cli, offline_env(cli))
    proc = bosun.start("ingest", str(folder), "--json", "--no-progress")
    deadline = time.monotonic() + 600
    seen: dict[str, int] = {}
    while proc.poll() is None and time.monotonic() < deadline:
        seen = _big(bosun)
        # Committed slices, the file not finished, the mails read after it already stored.
        if 0 < seen["stored"] < seen["declared"] and seen["mails"] == 3:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"no partly stored state of the big file was ever seen: {seen}")
    proc.send_signal(signal.SIGINT)
    signalled = time.monotonic()
    stdout, stderr = proc.communicate(timeout=300)
    assert time.monotonic() - signalled < PROMPT_S, "Ctrl-C did not stop the embedding"
    assert proc.returncode == 130, stderr[-2000:]
    assert "Traceback" not in stderr
    assert json.loads(stdout)["interrupted"] is True
    left = _big(bosun)
    assert 0 < left["stored"] < left["declared"] and left["duplicates"] == 0, left

    rerun = bosun.run("ingest", str(folder), "--json", "--no-progress", timeout=900)
    summary = rerun.json()
    assert summary["errors"] == [] and not summary["interrupted"]
    done = _big(bosun)
    assert done["stored"] == done["declared"] > left["stored"], done
    assert done["duplicates"] == 0 and done["mails"] == 3
    assert summary["chunks_added"] >= done["declared"] - left["stored"]


def test_ctrl_c_ends_the_run_while_the_embedding_provider_stalls(
    settings: Settings, folder: Path
) -> None:
    """An embedding request that never comes back (a stalled provider, its timeout an hour
    away) does not keep an interrupted run alive: the report comes and the process ends, the
    slices committed before stay, and a rerun once the provider answers again finishes."""
    answered, stalled, release = [0], [0], threading.Event()

    def embed(request: FakeRequest) -> tuple[int, Any]:
        if answered[0] >= STALL_AFTER and not release.is_set():
            stalled[0] += 1
            release.wait()  # the request hangs as long as the provider stalls
        answered[0] += 1
        return cohere_embed_v1(request)

    with fake_provider_server(routes=[("POST", r"/v1/embed", embed)]) as provider:
        cli = replace(settings, collection=f"stall_{uuid.uuid4().hex[:8]}")
        env = {
            **offline_env(cli),
            "BOSUN_EMBEDDINGS": "cohere",
            "COHERE_API_KEY": "fake-cohere-key-1234",
            "BOSUN_COHERE_BASE_URL": provider.url,
            "BOSUN_COHERE_EMBEDDING_MODEL": "embed-english-v3.0",
            "BOSUN_PROVIDER_TIMEOUT_S": "3600",
        }
        bosun = Bosun(cli, env)
        try:
            proc = bosun.start("ingest", str(folder), "--json", "--no-progress")
            deadline = time.monotonic() + 600
            while proc.poll() is None and time.monotonic() < deadline:
                if stalled[0] and _big(bosun)["stored"]:
                    break
                time.sleep(0.05)
            else:
                pytest.fail(f"the provider never stalled after a stored slice: {_big(bosun)}")
            proc.send_signal(signal.SIGINT)
            try:
                stdout, stderr = proc.communicate(timeout=HANG_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                pytest.fail("Ctrl-C did not end the run while an embedding request hung")
            assert proc.returncode == 130, stderr[-2000:]
            assert "Traceback" not in stderr
            assert json.loads(stdout)["interrupted"] is True
            left = _big(bosun)
            assert 0 < left["stored"] < left["declared"] and left["duplicates"] == 0, left
        finally:
            release.set()
        rerun = bosun.run("ingest", str(folder), "--json", "--no-progress", timeout=900)
        assert not rerun.json()["interrupted"], rerun.stderr[-2000:]
        done = _big(bosun)
        assert done["stored"] == done["declared"] > left["stored"], done
        assert done["duplicates"] == 0 and done["mails"] == 3
