"""`langgraph dev` serving the shipped langgraph.json over HTTP, checkpoints shared with Python.

The server runs offline (no LangSmith key, analytics and version check off) on a free port, with the
session's archive; the thread it answers is then read and continued by an embedded graph on the
same Postgres checkpointer.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph_sdk import get_client

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph import build_graph
from tests.e2e.harness import Bosun, free_port, running_server

pytestmark = pytest.mark.e2e

ERA = "What was the probable cause of the ERA25LA084 accident?"
STARTUP_S = 90.0


def _langgraph() -> list[str]:
    script = Path(sys.executable).with_name("langgraph")
    return [str(script)] if script.exists() else [shutil.which("langgraph") or "langgraph"]


@pytest.fixture(scope="module")
def server(bosun: Bosun, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of `langgraph dev` on the session's archive, once GET /ok answers."""
    port = free_port()
    log = tmp_path_factory.mktemp("langgraph") / "server.log"
    command = [
        *_langgraph(),
        "dev",
        "--no-browser",
        "--no-reload",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    with running_server(command, bosun.env, port, "/ok", log, STARTUP_S) as url:
        yield url


def _plain(message: dict[str, Any] | BaseMessage) -> tuple[str, str, str]:
    """(type, id, text) of a message from the HTTP API (a dict) or from Python (an object)."""
    if isinstance(message, BaseMessage):
        return message.type, str(message.id), message.text
    content = message["content"]
    text = (
        content
        if isinstance(content, str)
        else "".join(part.get("text", "") for part in content if isinstance(part, dict))
    )
    return message["type"], str(message["id"]), text


async def test_langgraph_dev_answers_with_citations_and_shares_the_thread(
    server: str, settings: Settings
) -> None:
    client = get_client(url=server)
    thread = await client.threads.create()
    thread_id = thread["thread_id"]
    values = await client.runs.wait(
        thread_id, "bosun", input={"messages": [{"role": "user", "content": ERA}]}
    )
    assert isinstance(values, dict), values
    messages = values["messages"]
    answer = messages[-1]
    assert answer["type"] == "ai" and "[C:" in answer["content"]
    assert "fuel" in answer["content"].lower()
    citations = values["citations"]
    assert citations and citations[0]["source_id"] == "ERA25LA084"
    assert answer["additional_kwargs"]["citations"] == citations
    for citation in citations:
        assert f"[C:{citation['id']}]" in answer["content"]
        assert (settings.archive_dir / citation["archive_path"]).is_file()

    async with (
        open_services(settings) as services,
        open_checkpointer(settings.database_uri()) as saver,
    ):
        graph = build_graph(build_clients(services, offline=True), checkpointer=saver)
        config = {"configurable": {"thread_id": thread_id}}
        snapshot = await graph.aget_state(config)  # type: ignore[arg-type]
        assert [_plain(m) for m in snapshot.values["messages"]] == [_plain(m) for m in messages]
        assert snapshot.values["citations"] == citations

        # The embedded graph continues the server's thread; the server then sees the new turn.
        follow_up = await graph.ainvoke(
            {"messages": [HumanMessage(content="Where did it happen?")]},
            config,  # type: ignore[arg-type]
        )
    turns = [_plain(m) for m in follow_up["messages"]]
    assert turns[: len(messages)] == [_plain(m) for m in messages]
    assert turns[len(messages)][0] == "human" and turns[len(messages)][2] == "Where did it happen?"
    assert isinstance(follow_up["messages"][-1], AIMessage) and follow_up["messages"][-1].text
    assert follow_up["filters"] == values["filters"]  # the report filter carried over

    state = await client.threads.get_state(thread_id)
    assert [_plain(m) for m in state["values"]["messages"]] == turns


def _frames(body: str) -> list[tuple[str, dict[str, Any]]]:
    from tests.integration.server_harness import frames

    return frames(body)


def test_langgraph_dev_serves_the_page_and_the_web_api(server: str, settings: Settings) -> None:
    page = httpx.get(f"{server}/", timeout=10)
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert httpx.get(f"{server}/static/app.js", timeout=10).status_code == 200
    assert httpx.get(f"{server}/api/health", timeout=10).json() == {"ok": True}
    assert httpx.get(f"{server}/ok", timeout=10).status_code == 200  # the server's own routes

    chat = httpx.post(f"{server}/api/chat", json={"message": ERA}, timeout=120)
    events = _frames(chat.text)
    assert [e for e, _ in events][-2:] == ["citations", "final"], chat.text[-2000:]
    cited = events[-1][1]["citations"][0]
    assert cited["source_id"] == "ERA25LA084"
    detail = httpx.get(f"{server}/api/citations/{cited['chunk_id']}", timeout=30).json()
    start, end = detail["highlight"]["start"], detail["highlight"]["end"]
    assert detail["original_text"][start:end] == detail["passage"]
    original = httpx.get(f"{server}{cited['download_url']}", timeout=30)
    assert original.status_code == 200
    stored = [p for p in settings.archive_dir.rglob("*") if p.is_file()]
    assert any(p.read_bytes() == original.content for p in stored)
    assert httpx.get(f"{server}/api/citations/NOT-HEX", timeout=10).status_code == 400


async def test_studio_gets_input_and_output_schemas(server: str) -> None:
    client = get_client(url=server)
    assistants = await client.assistants.search(graph_id="bosun")
    schemas = await client.assistants.get_schemas(assistants[0]["assistant_id"])
    assert schemas["input_schema"] and schemas["output_schema"], schemas
    assert {"messages", "filter_request"} <= set(schemas["input_schema"]["properties"])
    assert {"citations", "filters", "intent"} <= set(schemas["output_schema"]["properties"])


async def test_langgraph_dev_serialises_runs_on_one_thread_or_says_busy(server: str) -> None:
    """The server path never loses a turn: runs on a busy thread queue (the default
    ``multitask_strategy``, "enqueue") and run in order; a caller asking "reject" is told the
    thread is busy (HTTP 409)."""
    from langgraph_sdk.errors import ConflictError

    client = get_client(url=server)
    thread_id = (await client.threads.create())["thread_id"]
    questions = [ERA, "Where did it happen?", "What damage did the airplane sustain?"]
    runs = [
        await client.runs.create(
            thread_id, "bosun", input={"messages": [{"role": "user", "content": q}]}
        )
        for q in questions
    ]
    for run in runs:
        await client.runs.join(thread_id, run["run_id"])
    state = await client.threads.get_state(thread_id)
    messages = state["values"]["messages"]
    humans = [_plain(m)[2] for m in messages if m["type"] == "human"]
    answers = [m for m in messages if m["type"] == "ai" and not m.get("tool_calls")]
    assert humans == questions and len(answers) == len(questions)

    busy = await client.runs.create(
        thread_id, "bosun", input={"messages": [{"role": "user", "content": ERA}]}
    )
    with pytest.raises(ConflictError) as refused:
        await client.runs.create(
            thread_id,
            "bosun",
            input={"messages": [{"role": "user", "content": "and the pilot?"}]},
            multitask_strategy="reject",
        )
    assert "already running" in str(refused.value)
    await client.runs.join(thread_id, busy["run_id"])


def test_langgraph_dev_refuses_the_cross_site_on_every_route(server: str) -> None:
    """The app's guard is the outer layer under `langgraph dev`: LangGraph Server's own routes
    (threads, runs) are covered as well as the page's API."""
    before = httpx.post(f"{server}/threads/search", json={"limit": 100}, timeout=30).json()
    for path in ("/api/threads", "/api/health", "/ok"):
        rebound = httpx.get(f"{server}{path}", headers={"Host": "rebound.evil.example"}, timeout=10)
        assert rebound.status_code == 400, (path, rebound.text)
    searched = httpx.post(
        f"{server}/threads/search", json={}, headers={"Host": "evil.example"}, timeout=10
    )
    assert searched.status_code == 400
    evil = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
    attempts = [
        ("/api/chat", {"Content-Type": "text/plain"}, json.dumps({"message": ERA})),
        ("/api/chat", evil, json.dumps({"message": ERA})),
        ("/threads", {"Content-Type": "text/plain"}, "{}"),
        ("/threads", {**evil, "Content-Type": "application/json"}, "{}"),
    ]
    for path, headers, body in attempts:
        refused = httpx.post(f"{server}{path}", content=body, headers=headers, timeout=30)
        assert refused.status_code in (403, 415), (path, headers, refused.text)
    after = httpx.post(f"{server}/threads/search", json={"limit": 100}, timeout=30).json()
    assert len(after) == len(before)  # no thread was created
    own = {"Origin": server, "Sec-Fetch-Site": "same-origin"}
    created = httpx.post(f"{server}/threads", json={}, headers=own, timeout=30)
    assert created.status_code == 200, created.text
