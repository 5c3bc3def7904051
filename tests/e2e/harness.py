"""What the end-to-end tests share: the `bosun` command as a user runs it, and its environment."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from agent.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_ARCHIVE = "examples/archive"  # as a user types it in the repository root

#: Provider settings that would take the run off the machine or make answers non-deterministic.
ONLINE_KEYS = (
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "COHERE_API_KEY",
    "BOSUN_EMBEDDINGS",
    "BOSUN_CHAT_MODEL",
    "BOSUN_CHAT_BASE_URL",
    "OPENAI_API_KEY",
    "BOSUN_CROSS_ENCODER_DIR",
    "BOSUN_GOOGLE_BASE_URL",
    "BOSUN_COHERE_BASE_URL",
    "LANGFUSE_PUBLIC_KEY",
    "LANGFUSE_SECRET_KEY",
    "LANGFUSE_BASE_URL",
    "LANGSMITH_API_KEY",
    "LANGCHAIN_API_KEY",
    "BOSUN_ARCHIVE_URL",  # object storage: a test that wants it sets it
)


@dataclass(frozen=True)
class Run:
    """One finished command."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float = 0.0

    def json(self) -> Any:
        assert self.returncode == 0, f"{self.describe()} failed:\n{self.stderr[-3000:]}"
        return json.loads(self.stdout)

    def describe(self) -> str:
        return "bosun " + " ".join(self.args)


@dataclass(frozen=True)
class Bosun:
    """The `bosun` command as a user runs it, on the session's home, collection and database."""

    settings: Settings
    env: dict[str, str]
    ingested: dict[str, Any] = field(default_factory=dict)

    @property
    def command(self) -> list[str]:
        script = Path(sys.executable).with_name("bosun")
        return [str(script)] if script.exists() else [sys.executable, "-m", "agent.cli"]

    def run(self, *args: str, timeout: float = 300.0) -> Run:
        start = time.perf_counter()
        done = subprocess.run(
            [*self.command, *args],
            capture_output=True,
            text=True,
            env=self.env,
            cwd=ROOT,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        return Run(args, done.returncode, done.stdout, done.stderr, time.perf_counter() - start)

    def start(self, *args: str, stdin: int = subprocess.DEVNULL) -> subprocess.Popen[str]:
        """The same command in the background, its output piped (and its input, with
        ``stdin=subprocess.PIPE``)."""
        return subprocess.Popen(
            [*self.command, *args],
            env=self.env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=stdin,
            text=True,
        )


def offline_env(settings: Settings) -> dict[str, str]:
    """The environment of every child process: this session's archive, nothing online."""
    env = {k: v for k, v in os.environ.items() if k not in ONLINE_KEYS}
    env.update(
        BOSUN_HOME=str(settings.home),
        BOSUN_COLLECTION=settings.collection,
        DATABASE_URL=str(settings.database_url),
        LANGGRAPH_CLI_NO_ANALYTICS="1",
        LANGGRAPH_NO_VERSION_CHECK="1",
        LANGSMITH_TRACING="false",
        PYTHONUNBUFFERED="1",
        BOSUN_SERVER_LINGER_S="0",  # no embedded server outlives a test
    )
    return env


@contextmanager
def fresh_home(prefix: str) -> Iterator[Path]:
    """A fresh, world-traversable BOSUN_HOME (pgserver runs PostgreSQL as its own user under
    root); its embedded server, if a test left one up, is stopped and the folder removed."""
    from agent.warm.client import stop as stop_warm
    from archive.store.linger import stop

    home = Path(tempfile.mkdtemp(prefix=prefix))
    home.chmod(0o755)
    try:
        yield home
    finally:
        stop_warm(home.resolve())  # a warm ask process holds the server until it exits
        stop(home / "pgdata")
        shutil.rmtree(home, ignore_errors=True)


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (port 2024 is taken on these machines)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(
    command: list[str], env: dict[str, str], port: int, health: str, log: Path, startup_s: float
) -> Iterator[str]:
    """``command`` as a server in its own process group, logging to ``log``; yields its URL once
    ``health`` answers 200, and stops the whole group afterwards (SIGTERM, then SIGKILL)."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    name = " ".join(Path(part).name for part in command[:2])
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"{name} exited with {proc.returncode}:\n{tail(log)}")
            try:
                if httpx.get(f"{url}{health}", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{name} did not answer {health} in {startup_s:.0f} s:\n{tail(log)}"
                )
            time.sleep(0.5)
        yield url
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group (it forks workers), SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def tail(log: Path, chars: int = 4000) -> str:
    return log.read_text(errors="replace")[-chars:]
