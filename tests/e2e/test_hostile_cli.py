"""A sample of the hostile corpus through `bosun ask` and `bosun search` as processes: no
traceback, nothing of an attack in what the chat model (a fake Gemini on 127.0.0.1) receives,
every cited file inside the archive, invalid UTF-8 on the command line handled."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import ROOT, Bosun, Run
from tests.fakes.http_providers import FakeProviderServer, fake_provider_server
from tests.fakes.providers_routes import add_provider_routes, requests_to
from tests.hostile import corpus, survivors

pytestmark = pytest.mark.e2e

#: One entry of each disguise and attack kind keeps the run short (each command is a process).
KINDS = (
    "override/plain",
    "override/cyrillic",
    "override/leet",
    "override/spaced",
    "override/zero_width",
    "delimiter",
    "forged_citation",
    "outside_archive",
    "huge",
)


def sample() -> list[dict[str, Any]]:
    picked: dict[str, dict[str, Any]] = {}
    for entry in corpus():
        picked.setdefault(entry["kind"], entry)
    return [picked[kind] for kind in KINDS]


@pytest.fixture(scope="module")
def gemini() -> Iterator[FakeProviderServer]:
    with fake_provider_server() as server:
        add_provider_routes(server)
        yield server


def _no_traceback(run: Run) -> None:
    assert "Traceback" not in run.stderr, run.stderr[-3000:]


def _inside(archive: Path, relative: str) -> bool:
    path = (archive / relative).resolve()
    return path.is_relative_to(archive.resolve()) and path.is_file()


def test_hostile_questions_through_bosun_ask(bosun: Bosun, gemini: FakeProviderServer) -> None:
    env = {
        **bosun.env,
        "GOOGLE_API_KEY": "fake-google-key-1234",
        "BOSUN_GOOGLE_BASE_URL": gemini.url,
    }
    cli = replace(bosun, env=env)
    entries = sample()
    with ThreadPoolExecutor(max_workers=3) as pool:
        # --score-cutoff 0: every question reaches the chat model (search first would otherwise
        # stop the off-topic ones before any model call, and the test would prove nothing).
        ask = ("--json", "--score-cutoff", "0")
        runs = list(pool.map(lambda e: cli.run("ask", e["input"], *ask), entries))
    received = [
        json.dumps(r.body)
        for r in requests_to(gemini, r":(?:generateContent|streamGenerateContent)$")
    ]
    assert received, "the fake chat model was never called: the test would prove nothing"
    archive = bosun.settings.archive_dir
    for entry, run in zip(entries, runs, strict=True):
        _no_traceback(run)
        out = run.json()
        assert "PWNED" not in json.dumps(out["sanitization"]).upper(), entry["id"]
        assert all(_inside(archive, c["archive_path"]) for c in out["citations"]), entry["id"]
        for body in received:
            assert not [s for s in survivors(entry, body) if s.isalpha()], entry["id"]


def test_hostile_queries_through_bosun_search(bosun: Bosun) -> None:
    entries = sample()
    with ThreadPoolExecutor(max_workers=3) as pool:
        runs = list(pool.map(lambda e: bosun.run("search", e["input"], "--json"), entries))
    for entry, run in zip(entries, runs, strict=True):
        _no_traceback(run)
        if run.returncode == 2:  # nothing left to search once the attack is removed
            assert run.stderr.strip().startswith("bosun: the query is empty"), entry["id"]
            continue
        results = run.json()["results"]
        assert all(r["source_id"] and r["chunk_id"] for r in results), entry["id"]


def test_invalid_utf8_on_the_command_line(bosun: Bosun) -> None:
    query = b"cylinder liner crack \xff\xfe".decode("utf-8", "surrogateescape")
    search = bosun.run("search", query, "--json")
    _no_traceback(search)
    assert search.json()["results"]
    ask = bosun.run("ask", query, "--json")
    _no_traceback(ask)
    assert ask.json()["answer"]


def test_invalid_utf8_typed_into_bosun_chat(bosun: Bosun) -> None:
    done = subprocess.run(
        [*bosun.command, "chat"],
        input=b"cylinder liner crack \xff\xfe\nexit\n",
        capture_output=True,
        env=bosun.env,
        cwd=ROOT,
        timeout=300,
    )
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, stderr[-3000:]
    assert "Traceback" not in stderr and "bosun:" not in stderr, stderr[-3000:]
    assert b"bosun> " in done.stdout
