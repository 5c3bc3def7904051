"""`bosun serve` as a user starts it: refused on a public interface without keys; with two
workers it serves the page and the API; a thread from `bosun ask` opens there and continues."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.harness import Bosun, free_port, running_server
from tests.integration.server_harness import frames

pytestmark = pytest.mark.e2e

QUESTION = "What was the probable cause of the ERA25LA084 accident?"


@pytest.fixture(scope="module")
def served(bosun: Bosun, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    command = [*bosun.command, "serve", "--port", str(port), "--workers", "2"]
    with running_server(command, bosun.env, port, "/api/health", log, 120.0) as url:
        yield url


def test_a_public_interface_without_keys_is_refused(bosun: Bosun) -> None:
    run = bosun.run("serve", "--host", "0.0.0.0", "--port", str(free_port()), timeout=60)
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
