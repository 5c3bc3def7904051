"""Malformed but parseable input on every route of the web API, on real PostgreSQL: a clear 4xx
or clean storage, never a 500. NUL and lone surrogates (which PostgreSQL text and UTF-8 refuse)
in a title, comment, message id or chat message; JSON nested 100,000 deep; oversized bodies and
fields; wrong types; bidi controls kept out of every title the page shows."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from agent.settings import Settings
from agent.turns import open_pool
from agent.wiring import Services
from tests.integration.server_harness import ask, frames, serve

pytestmark = pytest.mark.integration

QUESTION = "Why did the purifier on Kestrel Dawn overheat?"
JSON = {"Content-Type": "application/json"}
RLO = "\u202e"  # right-to-left override: "\u202efdp.exe" reads as "exe.pdf"


@pytest.fixture(scope="module")
async def client(ingested: Services, settings: Settings):  # type: ignore[no-untyped-def]
    async with serve(settings) as http:
        yield http


@pytest.fixture(scope="module")
async def answered(client: httpx.AsyncClient) -> dict[str, Any]:
    """One answered turn: ``thread_id`` and the ``final`` frame."""
    events = await ask(client, QUESTION)
    return {"thread_id": events[0][1]["thread_id"], **events[-1][1]}


async def _rows(settings: Settings, query: str, *args: object) -> list[dict[str, Any]]:
    pool = await open_pool(settings, max_size=1)
    try:
        async with pool.connection() as conn:
            return await (await conn.execute(query, args)).fetchall()  # type: ignore[arg-type]
    finally:
        await pool.close()


def _deep(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


async def test_json_nested_100000_deep_is_a_400(
    client: httpx.AsyncClient, answered: dict[str, Any]
) -> None:
    bodies = [
        _deep(100_000),
        b'{"message": ' + _deep(100_000) + b"}",
        b'{"message": "x", "filters": ' + b'{"a": ' * 30_000 + b"1" + b"}" * 30_001,
        b'{"message": ' + _deep(20) + b"}",  # parses fine, still deeper than any route takes
    ]
    thread = answered["thread_id"]
    for method, path in (
        ("POST", "/api/chat"),
        ("POST", "/api/feedback"),
        ("POST", f"/api/threads/{thread}/filters"),
        ("PATCH", f"/api/threads/{thread}"),
    ):
        for body in bodies:
            response = await client.request(method, path, content=body, headers=JSON)
            assert response.status_code == 400, (path, body[:30], response.text)
            assert "nests deeper" in response.json()["detail"]
    brackets_in_text = json.dumps({"message": "[[[[" * 3000}).encode()
    assert (
        await client.post("/api/feedback", content=brackets_in_text, headers=JSON)
    ).status_code in (
        400,
        404,
    )  # not refused for depth: brackets inside a string are text


async def test_oversized_bodies_and_fields_are_named(
    client: httpx.AsyncClient, answered: dict[str, Any]
) -> None:
    thread = answered["thread_id"]
    huge = await client.post("/api/chat", json={"message": "x" * 400_000})
    assert huge.status_code == 413 and "larger than" in huge.json()["detail"]
    long_fields = [
        ("POST", "/api/chat", {"message": "x" * 8001}, "message"),
        ("POST", "/api/chat", {"message": "x", "filters": {"vessel": "v" * 201}}, "filter"),
        ("PATCH", f"/api/threads/{thread}", {"title": "t" * 201}, "title"),
        (
            "POST",
            "/api/feedback",
            {
                "thread_id": thread,
                "message_id": answered["message_id"],
                "score": 1,
                "comment": "c" * 2001,
            },
            "comment",
        ),
        (
            "POST",
            "/api/feedback",
            {"thread_id": thread, "message_id": "m" * 101, "score": 1},
            "message_id",
        ),
        ("POST", "/api/chat", {"message": "x", "thread_id": "t" * 65}, "thread_id"),
    ]
    for method, path, body, name in long_fields:
        response = await client.request(method, path, json=body)
        assert response.status_code == 400, (path, name, response.text)
        assert name in response.json()["detail"]


async def test_wrong_types_are_400_not_500(
    client: httpx.AsyncClient, answered: dict[str, Any]
) -> None:
    thread = answered["thread_id"]
    cases = [
        ("POST", f"/api/threads/{thread}/filters", {"remove": [["vessel"]]}),
        ("POST", f"/api/threads/{thread}/filters", {"remove": [{"vessel": 1}]}),
        ("POST", f"/api/threads/{thread}/filters", {"remove": "vessel"}),
        ("POST", "/api/chat", {"message": ["x"]}),
        ("POST", "/api/chat", {"message": "x", "thread_id": 5}),
        ("POST", "/api/chat", {"message": "x", "filters": ["vessel"]}),
        ("PATCH", f"/api/threads/{thread}", {"title": {"a": 1}}),
        ("PATCH", f"/api/threads/{thread}", {"title": "\u0000\u202e "}),  # nothing visible
        ("POST", "/api/feedback", {"thread_id": thread, "message_id": 7, "score": 1}),
        ("POST", "/api/feedback", {"thread_id": thread, "message_id": "a\u0000b", "score": 1}),
        ("POST", "/api/feedback", {"thread_id": thread, "message_id": "\ud800", "score": 1}),
    ]
    for method, path, body in cases:
        raw = json.dumps(body).encode()  # escapes, as a script sends a lone surrogate
        response = await client.request(method, path, content=raw, headers=JSON)
        assert response.status_code == 400, (path, body, response.text)
        assert isinstance(response.json()["detail"], str)


async def test_nul_and_lone_surrogates_are_stored_clean(
    client: httpx.AsyncClient, answered: dict[str, Any], settings: Settings
) -> None:
    thread = answered["thread_id"]
    # Sent as JSON escapes, the way a script (or json.dumps) writes them.
    title = b'{"title": "Purifier \\u0000log \\ud800 \\u202eexe.pdf"}'
    renamed = await client.patch(f"/api/threads/{thread}", content=title, headers=JSON)
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["title"] == "Purifier log \ufffd exe.pdf"
    listed = {t["thread_id"]: t["title"] for t in (await client.get("/api/threads")).json()}
    assert listed[thread] == "Purifier log \ufffd exe.pdf"

    fields = f'"thread_id": "{thread}", "message_id": "{answered["message_id"]}", "score": -1'
    comment = ("{" + fields + ', "comment": "bad \\u0000 \\udc00 x"}').encode()
    sent = await client.post("/api/feedback", content=comment, headers=JSON)
    assert sent.status_code == 201, sent.text
    rows = await _rows(
        settings, "SELECT comment FROM bosun_feedback WHERE id = %s", sent.json()["id"]
    )
    assert rows == [{"comment": "bad  \ufffd x"}]


async def test_a_chat_message_with_nul_surrogates_and_bidi_answers_and_titles_clean(
    client: httpx.AsyncClient,
) -> None:
    body = b'{"message": "\\u202eWhy did the \\u0000purifier on Kestrel Dawn \\ud83d overheat?"}'
    response = await client.post("/api/chat", content=body, headers=JSON, timeout=120)
    assert response.status_code == 200, response.text
    events = frames(response.text)
    assert events[-1][0] == "final", events[-1]
    thread = events[0][1]["thread_id"]
    opened = (await client.get(f"/api/threads/{thread}")).json()
    assert opened["title"] == "Why did the purifier on Kestrel Dawn \ufffd overheat?"
    assert "\x00" not in opened["messages"][0]["content"]


async def test_bidi_controls_in_document_titles_never_reach_the_preview_or_panel(
    client: httpx.AsyncClient, answered: dict[str, Any], settings: Settings
) -> None:
    """Whatever an archive stored (a loader that forgot, an older ingest), the page gets titles,
    subjects and senders without bidi controls."""
    cited = answered["citations"][0]
    (doc,) = await _rows(
        settings,
        f"SELECT c.doc_id, d.title, d.subject, d.sender FROM {settings.collection}.chunks c"
        f" JOIN {settings.collection}.documents d USING (doc_id) WHERE c.chunk_id = %s",
        cited["chunk_id"],
    )
    update = (
        f"UPDATE {settings.collection}.documents SET title = %s, subject = %s, sender = %s"
        " WHERE doc_id = %s RETURNING doc_id"
    )
    await _rows(
        settings,
        update,
        f"Invoice {RLO}fdp.exe",
        f"Re: {RLO}gnp.scr",
        f"{RLO}moc.evil@chief",
        doc["doc_id"],
    )
    try:
        detail = (await client.get(f"/api/citations/{cited['chunk_id']}")).json()
        document = detail["document"]
        assert document["title"] == "Invoice fdp.exe" and document["subject"] == "Re: gnp.scr"
        assert document["sender"] == "moc.evil@chief"
        again = await ask(client, QUESTION)
        shown = [c for c in again[-1][1]["citations"] if c["chunk_id"] == cited["chunk_id"]]
        assert shown and shown[0]["subject"] == "Re: gnp.scr"
        citations = again[-1][1]["citations"]
        assert not any(RLO in json.dumps(c, ensure_ascii=False) for c in citations)
    finally:  # the session's collection is shared with the other server tests
        await _rows(settings, update, doc["title"], doc["subject"], doc["sender"], doc["doc_id"])
