"""The newcomer test: every command the README shows, run as a user would in a fresh BOSUN_HOME
against the example archive, in the README's order.

Each line of each fenced ``bash`` block is one command (``a && b`` chains are split). What cannot
run inside this test is checked instead, each for a stated reason (:data:`SETUP`): creating and
activating a virtual environment and ``pip install`` (this test runs inside the installed
environment; the extras named must exist) and ``python -m pytest`` (the suite holding this test:
collected, not run). A server (``bosun serve``) is started, asked for its health and stopped.
Everything else runs for real, offline, and must exit 0; some outputs are checked too.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.harness import ONLINE_KEYS, free_port, fresh_home

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```bash\n(.*?)^```", re.DOTALL | re.MULTILINE)


def commands(text: str) -> list[str]:
    """The commands of the README's ``bash`` blocks, in order (continuations joined, ``&&``
    chains split, comment-only and blank lines dropped)."""
    out: list[str] = []
    for block in BLOCK.findall(text):
        joined = re.sub(r"\s*\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                out.extend(_chain(line))
    return out


def _chain(line: str) -> list[str]:
    """``a && b  # note`` as ``[a, b]``: ``&&`` and ``#`` inside quotes stay where they are."""
    parts, start, quote, end = [], 0, "", len(line)
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            end = i
            break
        elif line.startswith(" && ", i):
            parts.append(line[start:i].strip())
            start = i + 4
    return [*parts, line[start:end].strip()]


def _extras(command: str) -> set[str]:
    found = re.search(r"pip install -e '?\.(?:\[([\w,-]+)\])?'?", command)
    assert found, f"an unexpected pip command in the README: {command}"
    return set(filter(None, (found[1] or "").split(",")))


def _pip_extras_exist(command: str) -> None:
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert _extras(command) <= set(optional), command


#: Commands checked, not run, and why: command pattern -> check.
SETUP: dict[str, Callable[[str], None]] = {
    r"^python3 -m venv \.venv$": lambda c: None,  # the test already runs in the environment
    r"^\. \.venv/bin/activate$": lambda c: None,
    r"^pip install -e ": _pip_extras_exist,
}


def _setup_check(command: str) -> Callable[[str], None] | None:
    return next((check for pattern, check in SETUP.items() if re.search(pattern, command)), None)


def test_the_readme_commands_are_parsed_as_a_user_reads_them() -> None:
    text = """intro\n```bash\npython3 -m venv .venv && . .venv/bin/activate && bosun ask "a && b"
bosun search x   # a comment
bosun ask "why #3?"
# only a comment
bosun eval d \\\n    --split dev
```\n```text\nnot a command\n```\n"""
    assert commands(text) == [
        "python3 -m venv .venv",
        ". .venv/bin/activate",
        'bosun ask "a && b"',
        "bosun search x",
        'bosun ask "why #3?"',
        "bosun eval d --split dev",
    ]
    assert _extras("pip install -e '.[dev]'") == {"dev"} and _extras("pip install -e .") == set()


@pytest.fixture
def home() -> Iterator[Path]:
    with fresh_home("bosun-readme-") as home:
        yield home


def _env(home: Path) -> dict[str, str]:
    """A user's shell: this environment's `bosun` and `python` first on PATH, no keys, no
    DATABASE_URL (the embedded server, as on a fresh machine)."""
    env = {k: v for k, v in os.environ.items() if k not in ONLINE_KEYS and k != "DATABASE_URL"}
    bin_dir = str(Path(sys.executable).parent)
    env.update(
        BOSUN_HOME=str(home),
        PATH=bin_dir + os.pathsep + env.get("PATH", ""),
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
    )
    env.pop("BOSUN_COLLECTION", None)
    env.pop("BOSUN_SERVER_LINGER_S", None)
    return env


def _run(command: str, env: dict[str, str], timeout: float = 600) -> str:
    done = subprocess.run(
        ["bash", "-c", command],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, f"{command}\n{done.stderr[-3000:]}"
    return done.stdout


def _serve(command: str, env: dict[str, str]) -> str:
    """Start the server the README shows (on a free port), wait for its health, stop it."""
    port = free_port()
    command = re.sub(r"--port \d+", f"--port {port}", command)
    proc = subprocess.Popen(
        ["bash", "-c", f"exec {command}"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert proc.poll() is None, f"{command} exited: {proc.stderr.read()[-3000:]}"  # type: ignore[union-attr]
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
            except httpx.TransportError:
                time.sleep(0.5)
                continue
            assert health.status_code == 200, health.text
            page = httpx.get(f"http://127.0.0.1:{port}/", timeout=30)
            assert page.status_code == 200 and "<html" in page.text.lower()
            return page.text
        raise AssertionError(f"{command} did not answer within 180 s")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


#: What some commands must print, beyond exiting 0: command pattern -> check of stdout.
CHECKS: dict[str, Callable[[str], None]] = {
    r"^bosun ask \"What was the probable cause of the ERA25LA084": lambda out: _has(
        out, "[1]", "ERA25LA084", "fuel"
    ),
    r"^bosun ask \"How was the cylinder liner crack": lambda out: _has(out, "liner", "[1]"),
    r"^bosun ask \"what caused it\?\" --thread ns --json": lambda out: _follow_up(out),
    r"^bosun ask \"What is the capital of France": lambda out: _has(out, "No relevant documents"),
    r"^bosun ask \"hello\"": lambda out: _greeting(out),
    r"^bosun status": lambda out: _has(out, "documents", "local:all-MiniLM-L6-v2-int8"),
    r"^python examples/embed\.py$": lambda out: _embedded(out),
    r"^bosun stop": lambda out: _has(out, "stopped the embedded PostgreSQL server"),
    r"^bosun eval examples/beir-mini": lambda out: _has(out, "nDCG@10"),
}


def _has(out: str, *parts: str) -> None:
    for part in parts:
        assert part in out, f"{part!r} not in:\n{out[-3000:]}"


def _follow_up(out: str) -> None:
    turn = json.loads(out)
    assert turn["filters"].get("vessels"), turn["filters"]  # inherited from the first question
    assert turn["citations"] and not turn["cutoff"]


def _greeting(out: str) -> None:
    assert "e.g." in out and "ERA22LA175" not in out, out  # examples the archive holds


def _embedded(out: str) -> None:
    assert "No relevant documents" not in out, out
    assert out.count("Sources:") == 1 and "[C:" in out and ".eml" in out, out


def test_every_readme_command_runs(home: Path) -> None:
    env = _env(home)
    ran: list[str] = []
    for command in commands(README.read_text()):
        check = _setup_check(command)
        if check is not None:
            check(command)
            continue
        if command == "python -m pytest":  # this very suite: it must collect, not run again
            _run("python -m pytest --collect-only -q -p no:cacheprovider", env)
            continue
        if command.startswith("bosun serve"):
            _serve(command, env)
        else:
            out = _run(command, env)
            for pattern, expect in CHECKS.items():
                if re.search(pattern, command):
                    expect(out)
        ran.append(command)
    # The README's tour is what this test runs: the commands it promises are all there.
    for pattern in CHECKS:
        assert any(re.search(pattern, c) for c in ran), f"no README command matches {pattern}"
    for name in ("ingest", "search", "ask", "chat", "serve", "delete", "eval", "status", "stop"):
        assert any(re.search(rf"(^|\| )bosun {name}( |$)", c) for c in ran), name
