"""`bosun serve` as a user starts it: refused on a public interface without keys; with two
workers it serves the page and the API; a thread from `bosun ask` opens there and continues."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.e2e.harness import ROOT, Bosun
from tests.integration.server_harness import frames

pytestmark = pytest.mark.e2e

QUESTION = "What was the probable cause of the ERA25LA084 accident?"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def served(bosun: Bosun, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*bosun.command, "serve", "--port", str(port), "--workers", "2"],
            cwd=ROOT,
            env=bosun.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"bosun serve exited with {proc.returncode}: {_tail(log)}")
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"bosun serve did not answer in 60 s: {_tail(log)}")
            time.sleep(0.3)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-3000:]


def test_a_public_interface_without_keys_is_refused(bosun: Bosun) -> None:
    run = bosun.run("serve", "--host", "0.0.0.0", "--port", str(_free_port()), timeout=60)
    assert run.returncode == 2
    assert "BOSUN_API_KEYS" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_a_cli_thread_opens_in_the_page_and_continues_there(bosun: Bosun, served: str) -> None:
    asked = bosun.run("ask", QUESTION, "--thread", "from-the-cli", "--json", timeout=300).json()
    thread = httpx.get(f"{served}/api/threads/from-the-cli", timeout=30).json()
    user, answer = thread["messages"]
    assert user["content"] == QUESTION and answer["id"] == asked["message_id"]
    assert answer["content"] == asked["answer"]
    assert [c["chunk_id"] for c in answer["citations"]] == [c["id"] for c in asked["citations"]]
    assert "from-the-cli" in [t["thread_id"] for t in httpx.get(f"{served}/api/threads").json()]

    events = frames(
        httpx.post(
            f"{served}/api/chat",
            json={"thread_id": "from-the-cli", "message": "Where did it happen?"},
            timeout=120,
        ).text
    )
    assert [e for e, _ in events][0] == "meta" and events[-1][0] == "final"
    assert events[-1][1]["filters"].get("report_no") == "ERA25LA084"  # carried over from the CLI

    page = httpx.get(f"{served}/", timeout=10)
    assert page.status_code == 200 and "<html" in page.text.lower()
