"""The fault matrix's database rows (and the query embedding, which needs the real store), on a
PostgreSQL of this module's own that the tests stop, restart, lock and whose connections they
terminate: down at start, dropped mid-session, refusing under `bosun chat`, slow, embeddings."""

from __future__ import annotations

import argparse
import contextlib
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.conversation import run_ask
from agent.errors import one_line
from agent.settings import Settings
from agent.turns import open_runner
from agent.wiring import Services, build_clients, open_services
from archive.ingest.pipeline import ingest_documents
from archive.store.server import database_uri
from graph import Context, build_graph
from providers.minilm import MiniLMEmbeddings, ModelIntegrityError
from tests.e2e.harness import Bosun, offline_env
from tests.fault_matrix import DATABASE_ROWS, TraceEvents, assert_told, covering
from tests.integration.test_conversation_postgres import fixture_documents
from tools.backend import StoreBackend

pytestmark = pytest.mark.integration

QUESTION = "Why did the purifier on Kestrel Dawn overheat?"
COVERED: dict[str, str] = {}  # matrix row -> the test that runs it

covers = covering(COVERED)


@dataclass
class Postgres:
    """An embedded PostgreSQL this module may stop and start."""

    pgdata: Path
    uri: str
    server: Any

    def stop(self) -> None:
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self.server.system_user)

    def start(self) -> None:
        with self.server._lock:
            self.server.ensure_postgres_running()

    def restart(self) -> None:
        self.stop()
        self.start()

    def terminate_backends(self) -> int:
        with psycopg.connect(self.uri, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'"
            ).fetchall()
        return len(rows)


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    import pgserver

    home = Path(tempfile.mkdtemp(prefix="bosun-faults-"))
    home.chmod(0o755)
    pgdata = home / "pgdata"
    uri = database_uri(None, pgdata)
    server = pgserver.get_server(pgdata)
    yield Postgres(pgdata, uri, server)
    with contextlib.suppress(subprocess.CalledProcessError):  # a failed test stopped it
        Postgres(pgdata, uri, server).stop()
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def db_settings(postgres: Postgres) -> Settings:
    return Settings(
        home=postgres.pgdata.parent,
        database_url=postgres.uri,
        collection=f"faults_{uuid.uuid4().hex[:8]}",
    )


@pytest.fixture(scope="module")
async def ingested(db_settings: Settings) -> AsyncIterator[Services]:
    async with open_services(db_settings) as services:
        report = await ingest_documents(
            fixture_documents(),
            services.store,
            services.embeddings,
            services.archive,
            progress=False,
        )
        assert not report.errors
        yield services


class FailingEmbeddings(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("onnxruntime: model session failed")

    def embed_query(self, text: str) -> list[float]:
        raise RuntimeError("onnxruntime: model session failed")


def ask_args(question: str) -> argparse.Namespace:
    return argparse.Namespace(
        question=question,
        thread=None,
        vessel=None,
        report=None,
        no_hybrid=False,
        expand=False,
        topics=False,
        rerank=True,
        score_cutoff=None,
        user=None,
        json=True,
    )


def test_every_database_row_has_its_test() -> None:
    assert sorted(COVERED) == sorted(DATABASE_ROWS)


@covers("embeddings.error")
async def test_a_failing_query_embedding_searches_bm25_only(
    ingested: Services, caplog: pytest.LogCaptureFixture
) -> None:
    clients = build_clients(ingested, offline=True)
    clients = replace(
        clients,
        backend=StoreBackend(ingested.store, FailingEmbeddings()),
        embeddings=None,
    )
    trace = TraceEvents()
    graph = build_graph(clients, checkpointer=InMemorySaver())
    state = await graph.ainvoke(
        {"messages": [HumanMessage(QUESTION)]},
        {"configurable": {"thread_id": "emb"}, "callbacks": [trace]},
        context=Context(),
    )
    assert state["citations"], state["messages"][-1].text
    assert "Kestrel Dawn" in state["citations"][0]["title"]
    assert_told("embeddings.error", state, caplog, trace)


@covers("embeddings.corrupt")
async def test_a_corrupt_model_file_is_not_worked_around(
    ingested: Services, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    corrupt = tmp_path / "model.onnx"
    corrupt.write_bytes(b"not a model")
    embeddings = MiniLMEmbeddings(model_path=corrupt, model_sha256="0" * 64)
    clients = build_clients(ingested, offline=True)
    clients = replace(clients, backend=StoreBackend(ingested.store, embeddings), embeddings=None)
    graph = build_graph(clients, checkpointer=InMemorySaver())
    with pytest.raises(ModelIntegrityError):
        await graph.ainvoke(
            {"messages": [HumanMessage(QUESTION)]},
            {"configurable": {"thread_id": "corrupt"}},
            context=Context(),
        )
    assert "a model file is corrupt" in one_line(ModelIntegrityError("sha256 mismatch"))
    assert not [r for r in caplog.records if "[embeddings.error]" in r.message]


@covers("database.down_at_start")
async def test_a_database_down_at_start_is_one_line(
    postgres: Postgres, db_settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    postgres.stop()
    try:
        code = await run_ask(db_settings, ask_args(QUESTION))
    finally:
        postgres.start()
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("bosun: cannot reach the database"), err


@covers("database.dropped")
async def test_dropped_connections_are_reconnected_on_the_next_turn(
    ingested: Services, postgres: Postgres, db_settings: Settings
) -> None:
    async with open_runner(db_settings) as runner:
        first = await runner.run("dropped", QUESTION)
        assert first.state["citations"]
        assert postgres.terminate_backends() >= 3  # the store's, the saver's, the runner's
        second = await runner.run("dropped", "How was the purifier repaired?")
        assert second.state["citations"]
        postgres.restart()  # every connection of every pool is gone
        third = await runner.run("dropped", "Which port was the purifier bowl cleaned in?")
        assert third.answer.text
        history = await runner.graph.aget_state({"configurable": {"thread_id": "dropped"}})
    humans = [m for m in history.values["messages"] if m.type == "human"]
    assert len(humans) == 3  # no turn lost across the drops


@covers("database.slow")
async def test_a_slow_database_is_one_line_and_the_next_turn_works(
    ingested: Services, postgres: Postgres, db_settings: Settings
) -> None:
    settings = replace(db_settings, db_timeout_s=1.0)
    async with open_runner(settings) as runner:
        with psycopg.connect(postgres.uri) as locker:
            locker.execute(f"LOCK TABLE {settings.collection}.chunks IN ACCESS EXCLUSIVE MODE")
            start = time.perf_counter()
            with pytest.raises(psycopg.errors.QueryCanceled) as caught:
                await runner.run("slow", QUESTION)
            waited = time.perf_counter() - start
            locker.rollback()
        message = one_line(caught.value, {})
        assert message.startswith("bosun: the database did not answer in time"), message
        assert waited < 8  # one statement timeout per attempt, not retried as a dropped line
        after = await runner.run("slow", QUESTION)
    assert after.state["citations"]


class Repl:
    """`bosun chat` in a child process, read line by line from both streams."""

    def __init__(self, cli: Bosun) -> None:
        self.proc = cli.start("chat", stdin=subprocess.PIPE)
        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        for name, stream in (("out", self.proc.stdout), ("err", self.proc.stderr)):
            threading.Thread(target=self._pump, args=(name, stream), daemon=True).start()

    def _pump(self, name: str, stream: Any) -> None:
        for line in stream:
            self.lines.put((name, line))

    def wait_for(self, marker: str, timeout: float = 120.0) -> list[tuple[str, str]]:
        """Every line up to the first containing ``marker``."""
        seen: list[tuple[str, str]] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                item = self.lines.get(timeout=0.5)
            except queue.Empty:
                assert self.proc.poll() is None, f"chat exited: {seen}"
                continue
            seen.append(item)
            if marker in item[1]:
                return seen
        raise AssertionError(f"no {marker!r} within {timeout} s: {seen}")

    def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()


@covers("database.refusing")
def test_the_chat_repl_survives_a_restarted_and_a_stopped_database(
    ingested: Services, postgres: Postgres, db_settings: Settings
) -> None:
    cli = Bosun(db_settings, {**offline_env(db_settings), "BOSUN_DB_TIMEOUT_S": "3"})
    repl = Repl(cli)
    try:
        repl.wait_for("Bosun chat on thread")
        repl.say(QUESTION)
        assert any("Sources:" in line for _, line in repl.wait_for("Sources:"))
        postgres.restart()
        repl.say("How was the purifier repaired?")
        assert any("Sources:" in line for _, line in repl.wait_for("Sources:"))
        postgres.stop()
        try:
            asked = time.monotonic()
            repl.say("Which port was it cleaned in?")
            failed = repl.wait_for("bosun: ", timeout=90)
            assert time.monotonic() - asked < 15  # within the 3 s database wait (+ a retry)
        finally:
            postgres.start()
        errors = [line for name, line in failed if name == "err" and line.startswith("bosun: ")]
        assert errors and "cannot reach the database" in errors[-1], failed
        assert not any("Traceback" in line for _, line in failed)
        repl.say("What caused the purifier alarm on Osprey Line?")
        assert any("Sources:" in line for _, line in repl.wait_for("Sources:"))
        repl.say("exit")
        assert repl.proc.wait(60) == 0
    finally:
        if repl.proc.poll() is None:
            repl.proc.kill()
