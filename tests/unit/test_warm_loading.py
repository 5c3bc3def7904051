"""The warm ask process listens before it loads: an ask that arrives meanwhile waits for it (at
most ``WAIT_S``, then it is answered cold, said so); a command that ended finds out whether it is
current (a stale one exits and frees its name); it reopens the graph on a changed archive; it
stays as long as the embedded server's linger process; and when one is started at all.

The process runs here on a real abstract Unix socket, with a fake graph whose loading the test
holds back; no database is needed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.settings import Settings
from agent.warm import client, keep
from agent.warm.address import code_stamp, environment_stamp, name_of
from agent.warm.process import WarmProcess
from archive.store.linger import STATE_FILE


class Held(WarmProcess):
    """A warm process whose graph loads once ``gate`` is set; each ask prints its question
    and the archive version its graph was opened on."""

    def __init__(self, settings: Settings, gate: threading.Event) -> None:
        super().__init__(settings, environment_stamp(os.environ), code_stamp())
        self.gate = gate
        self.archive = "v1"
        self.graphs: list[str] = []

    async def read_version(self) -> dict[str, str]:
        return {"contents": self.archive}

    @contextlib.asynccontextmanager
    async def _open(self) -> AsyncIterator[str]:
        await asyncio.to_thread(self.gate.wait)
        self.graphs.append(self.archive)
        yield self.archive

    def opening(self) -> contextlib.AbstractAsyncContextManager[Any]:
        return self._open()

    async def _ask(self, argv: Any) -> int:
        sys.stdout.write(f"{argv[1]} on {self.runner}\n")
        return 0


@contextlib.contextmanager
def running(home: Path, gate: threading.Event) -> Iterator[Held]:
    """A :class:`Held` process serving ``home``'s socket on a thread, until the block ends."""
    settings = Settings(home=home, database_url="postgresql://x@/y", server_linger_s=300.0)
    process = Held(settings, gate)
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listening.bind(name_of(home.resolve()))
    listening.listen(16)
    loops: list[asyncio.AbstractEventLoop] = []

    async def serve() -> None:
        loops.append(asyncio.get_running_loop())
        await process.serve(listening)

    thread = threading.Thread(target=asyncio.run, args=(serve(),))  # as its main() runs it
    thread.start()
    _until(lambda: loops)
    try:
        yield process
    finally:
        gate.set()
        with contextlib.suppress(RuntimeError):  # its loop has ended already (it exited)
            loops[0].call_soon_threadsafe(process.done.set)
        thread.join(30)
        assert not thread.is_alive()


def _until(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOSUN_HOME", str(tmp_path))
    return tmp_path


def _forward_in_thread(argv: list[str]) -> tuple[threading.Thread, list[int | None]]:
    result: list[int | None] = []
    thread = threading.Thread(target=lambda: result.append(client.forward(argv)))
    thread.start()
    return thread, result


def test_an_ask_that_arrives_while_the_models_load_waits_and_is_answered_warm(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gate = threading.Event()
    with running(home, gate) as process:
        thread, result = _forward_in_thread(["ask", "what cracked?"])
        _until(lambda: process.waited == 1)  # it connected and waits: not answered cold
        assert thread.is_alive() and process.graphs == []
        gate.set()
        thread.join(30)
        assert result == [0]
    assert capsys.readouterr().out == "what cracked? on v1\n"


def test_an_ask_waits_at_most_wait_s_then_is_answered_cold_and_says_so(
    home: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(client, "WAIT_S", 0.5)
    with running(home, threading.Event()) as process:
        thread, result = _forward_in_thread(["ask", "what cracked?"])
        thread.join(30)
        assert result == [None]  # the caller answers it cold
        assert process.waited == 1
    warning = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("did not take the question in 0 s; answering here" in w for w in warning)


def test_a_stop_while_the_models_load_ends_the_loading(home: Path) -> None:
    gate = threading.Event()
    with running(home, gate) as process:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:  # what `bosun stop` sends
            sock.connect(name_of(home.resolve()))
            sock.sendall(b'{"stop": true}\n')
            assert json.loads(sock.makefile("rb").readline()) == {"stopped": True}
        _until(process.done.is_set)
        time.sleep(0.2)  # (the loading, if it were not cancelled, would go on once released)
    assert process.graphs == []  # released at the end: the load had been cancelled


def test_a_changed_archive_reopens_the_graph_before_the_next_answer(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gate = threading.Event()
    gate.set()
    with running(home, gate) as process:
        assert client.forward(["ask", "first"]) == 0
        process.archive = "v2"  # an ingest ended
        assert client.forward(["ask", "second"]) == 0
        assert process.graphs == ["v1", "v2"]
    assert capsys.readouterr().out == "first on v1\nsecond on v2\n"


def test_a_command_that_ended_finds_a_current_process_and_has_it_reopen(home: Path) -> None:
    gate = threading.Event()
    gate.set()
    with running(home, gate) as process:
        _until(lambda: process.graphs == ["v1"])
        process.archive = "v2"
        assert client.answering(home.resolve()) is True
        _until(lambda: process.graphs == ["v1", "v2"])  # before any ask comes
        assert not process.done.is_set()


def test_a_stale_process_exits_and_frees_its_name_for_a_fresh_one(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    gate.set()
    with running(home, gate) as process:
        monkeypatch.setenv("BOSUN_CHAT_TOOLS", "off")  # another environment: a reinstall, say
        assert client.answering(home.resolve()) is False
        assert process.done.is_set()
        fresh = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with fresh:
            fresh.bind(name_of(home.resolve()))  # no "address in use"


def test_it_stays_as_long_as_the_linger_process_holds_the_server(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, server_linger_s=300.0)
    process = WarmProcess(settings, "env", "code")
    assert process.settings.server_linger_s == 0  # it never hands the server over itself
    own = process.last + 300.0
    assert process.deadline() == own  # no linger process
    settings.pgdata_dir.mkdir()
    state = settings.pgdata_dir / STATE_FILE
    state.write_text(json.dumps({"pid": 1, "until": own + 1000.0}))
    assert process.deadline() == own + 1000.0  # a later command extended the server's stay
    state.write_text(json.dumps({"pid": 1, "until": own - 100.0}))
    assert process.deadline() == own  # at least linger_s after its last question
    remote = WarmProcess(
        Settings(home=tmp_path, server_linger_s=300.0, database_url="postgresql://x@/y"),
        "env",
        "code",
    )
    assert remote.deadline() == remote.last + 300.0  # no embedded server to follow


@pytest.mark.parametrize(
    ("command", "lingers", "changes", "expected"),
    [
        ("ingest", True, {}, True),  # the embedded server stays up: so does the warm process
        ("status", True, {}, True),
        ("ask", False, {}, True),  # DATABASE_URL: an ask leaves one for the next asks
        ("ingest", False, {}, False),  # DATABASE_URL: no embedded server to stay up beside
        ("stop", False, {}, False),
        ("ingest", True, {"warm_ask": False}, False),  # BOSUN_WARM_ASK=off
        ("ask", False, {"warm_ask": False}, False),
        ("ingest", True, {"server_linger_s": 0.0}, False),  # nothing stays up
    ],
)
def test_when_a_command_leaves_a_warm_process(
    tmp_path: Path, command: str, lingers: bool, changes: dict[str, Any], expected: bool
) -> None:
    settings = Settings(home=tmp_path, **{"server_linger_s": 300.0, **changes})
    assert keep.wanted(settings, command, lingers=lingers) is expected


def test_the_opt_out_is_read_from_the_environment(tmp_path: Path) -> None:
    env = {"BOSUN_HOME": str(tmp_path), "BOSUN_WARM_ASK": "off"}
    assert not keep.wanted(Settings.from_env(env), "ingest", lingers=True)
    assert keep.wanted(Settings.from_env({"BOSUN_HOME": str(tmp_path)}), "ingest", lingers=True)
