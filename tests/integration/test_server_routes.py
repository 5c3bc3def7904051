"""The web API on real PostgreSQL: chat over SSE, threads, citation detail, signed downloads,
users kept apart, serialised turns, filters removed from a thread."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from agent.server.signing import signed_url
from agent.settings import Settings
from agent.turns import open_runner
from agent.wiring import Services
from tests.integration.server_harness import SECRET, ask, frames, serve

pytestmark = pytest.mark.integration

QUESTION = "Why did the purifier on Kestrel Dawn overheat?"
PAYLOAD_KEYS = {
    "n",
    "chunk_id",
    "title",
    "subject",
    "sender",
    "date",
    "page",
    "section",
    "snippet",
    "source_id",
    "kind",
    "download_url",
    "lineage",
}


@pytest.fixture(scope="module")
async def client(ingested: Services, settings: Settings):  # type: ignore[no-untyped-def]
    async with serve(settings) as http:
        yield http


async def test_chat_streams_meta_tokens_citations_final_and_history_matches(
    client: httpx.AsyncClient,
) -> None:
    events = await ask(client, QUESTION)
    names = [e for e, _ in events]
    assert names[0] == "meta" and names[-2:] == ["citations", "final"], names
    assert set(names[1:-2]) == {"token"}, names
    meta, citations, final = events[0][1], events[-2][1], events[-1][1]
    tokens = "".join(d["text"] for e, d in events if e == "token")
    assert "Kestrel Dawn" in tokens or "purifier" in tokens
    assert citations["citations"] and citations["citations"] == final["citations"]
    assert set(citations["citations"][0]) == PAYLOAD_KEYS
    assert all(f"[C:{c['chunk_id']}]" in final["answer"] for c in citations["citations"])
    assert final["trace_id"] == meta["trace_id"] and len(meta["trace_id"]) == 32
    assert final["intent"] == "factual_query" and final["message_id"]
    assert final["filters"]["vessels"][0]["name"] == "Kestrel Dawn"

    listed = (await client.get("/api/threads")).json()
    assert meta["thread_id"] in [t["thread_id"] for t in listed]
    thread = (await client.get(f"/api/threads/{meta['thread_id']}")).json()
    user, answer = thread["messages"]
    assert (user["role"], user["content"]) == ("user", QUESTION)
    assert answer["id"] == final["message_id"] and answer["content"] == final["answer"]

    def stable(payloads: list[dict]) -> list[dict]:  # links are re-signed on every read
        return [{k: v for k, v in p.items() if k != "download_url"} for p in payloads]

    assert stable(answer["citations"]) == stable(final["citations"])
    assert answer["meta"]["trace_id"] == final["trace_id"]


async def test_thread_rename_and_delete(client: httpx.AsyncClient) -> None:
    thread_id = (await ask(client, "hello"))[0][1]["thread_id"]
    renamed = await client.patch(f"/api/threads/{thread_id}", json={"title": "Greetings"})
    assert renamed.json() == {"thread_id": thread_id, "title": "Greetings"}
    assert (await client.get(f"/api/threads/{thread_id}")).json()["title"] == "Greetings"
    assert (await client.delete(f"/api/threads/{thread_id}")).status_code == 204
    assert (await client.get(f"/api/threads/{thread_id}")).status_code == 404
    assert thread_id not in [t["thread_id"] for t in (await client.get("/api/threads")).json()]


async def test_removing_a_filter_chip_clears_it_for_the_next_turn(
    client: httpx.AsyncClient,
) -> None:
    final = (await ask(client, "What broke on the purifier?", filters={"vessel": "Osprey Line"}))[
        -1
    ][1]
    assert final["filters"]["vessels"][0]["name"] == "Osprey Line"
    thread_id = (await client.get("/api/threads")).json()[0]["thread_id"]
    removed = await client.post(f"/api/threads/{thread_id}/filters", json={"remove": ["vessel"]})
    assert removed.json() == {"filters": {}}
    assert (await client.get(f"/api/threads/{thread_id}")).json()["filters"] == {}
    bad = await client.post(f"/api/threads/{thread_id}/filters", json={"remove": ["colour"]})
    assert bad.status_code == 400 and "remove" in bad.json()["detail"]


async def test_citation_detail_highlights_the_passage_in_its_document(
    client: httpx.AsyncClient, ingested: Services
) -> None:
    cited = (await ask(client, QUESTION))[-1][1]["citations"][0]
    detail = (await client.get(f"/api/citations/{cited['chunk_id']}")).json()
    start, end = detail["highlight"]["start"], detail["highlight"]["end"]
    assert detail["original_text"][start:end] == detail["passage"]
    assert detail["document"]["title"] == cited["title"]
    download = await client.get(detail["download_url"])
    assert download.status_code == 200
    path = parse_qs(urlsplit(detail["download_url"]).query)["path"][0]
    assert download.content == ingested.archive.resolve(path).read_bytes()
    assert (await client.get("/api/citations/0123456789ab")).status_code == 404


@pytest.mark.parametrize(
    "bad_id",
    ["ABCDEF123456", "abc", "0123456789abc", "g123456789ab", "0123456789a%20", "%2e%2e%2fetc"],
)
async def test_malformed_chunk_ids_are_refused_before_any_query(
    client: httpx.AsyncClient, bad_id: str
) -> None:
    await client.get("/api/health")
    runtime = await client._transport.app.state.runtime.get()  # type: ignore[attr-defined]
    pools = [runtime.pool, runtime.services.store.pool]
    before = [p.get_stats().get("requests_num", 0) for p in pools]
    response = await client.get(f"/api/citations/{bad_id}")
    assert response.status_code in (400, 404)  # 404: a path the router does not match at all
    assert [p.get_stats().get("requests_num", 0) for p in pools] == before  # no connection taken


def _link(path: str, *, user: str = "local", ttl_s: int = 300, now: float | None = None) -> str:
    return signed_url(SECRET, path, user=user, ttl_s=ttl_s, now=now)


async def _a_real_path(client: httpx.AsyncClient) -> str:
    cited = (await ask(client, QUESTION))[-1][1]["citations"][0]
    return parse_qs(urlsplit(cited["download_url"]).query)["path"][0]


async def test_expired_and_tampered_links_are_refused(client: httpx.AsyncClient) -> None:
    path = await _a_real_path(client)
    assert (await client.get(_link(path))).status_code == 200
    expired = _link(path, now=time.time() - 301)
    assert (await client.get(expired)).status_code == 403
    good = _link(path)
    query = parse_qs(urlsplit(good).query)
    sig = query["sig"][0]
    tampered_sig = good.replace(sig, ("0" if sig[0] != "0" else "1") + sig[1:])
    assert (await client.get(tampered_sig)).status_code == 403
    other = path.rsplit("/", 1)[0] + "/other.eml"
    assert (await client.get(good.replace(path.rsplit("/", 1)[1], "other.eml"))).status_code in (
        403,
    ), other
    longer = good.replace(f"exp={query['exp'][0]}", f"exp={int(query['exp'][0]) + 3600}")
    assert (await client.get(longer)).status_code == 403


@pytest.mark.parametrize(
    "path",
    [
        "../server-secret",
        "email/../../server-secret",
        "%2e%2e/server-secret",
        "%252e%252e/server-secret",
        "/etc/passwd",
        "email\\..\\..\\server-secret",
        "..%2fserver-secret",
        "email/./x",
        "",
    ],
)
async def test_traversal_is_refused_even_with_a_valid_signature(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(_link(path))
    assert response.status_code == 400, response.text
    assert "server-secret" not in response.text or "path" in response.json()["detail"]


async def test_a_symlink_out_of_the_archive_is_refused(
    client: httpx.AsyncClient, ingested: Services, tmp_path: Path
) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not in the archive")
    link = ingested.archive.root / "email" / "escape.txt"
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside, link)
    try:
        response = await client.get(_link("email/escape.txt"))
        assert response.status_code == 403 and "not in the archive" not in response.text
    finally:
        link.unlink()


async def test_one_user_cannot_see_another_users_thread(
    ingested: Services, settings: Settings
) -> None:
    async with serve(settings, api_keys={"key-a": "alice", "key-b": "bob"}) as client:
        thread_id = (await ask(client, QUESTION, key="key-a"))[0][1]["thread_id"]
        bob = {"Authorization": "Bearer key-b"}
        url = f"/api/threads/{thread_id}"
        assert (await client.get(url, headers=bob)).status_code == 404
        assert (await client.patch(url, json={"title": "x"}, headers=bob)).status_code == 404
        assert (await client.delete(url, headers=bob)).status_code == 404
        assert (
            await client.post(f"{url}/filters", json={"remove": ["vessel"]}, headers=bob)
        ).status_code == 404
        hijack = await client.post(
            "/api/chat", json={"thread_id": thread_id, "message": "hi"}, headers=bob
        )
        assert hijack.status_code == 404
        assert (await client.get("/api/threads", headers=bob)).json() == []
        assert (await client.get(url, headers={"X-API-Key": "key-a"})).status_code == 200
        assert (await client.get(url)).status_code == 401
        assert (await client.get(url, headers={"Authorization": "Bearer nope"})).status_code == 401


async def test_five_simultaneous_questions_on_one_thread_keep_all_five_turns(
    client: httpx.AsyncClient,
) -> None:
    thread_id = "five-at-once"
    questions = [f"What happened to the purifier, question {n}?" for n in range(5)]
    results = await asyncio.gather(*(ask(client, q, thread_id=thread_id) for q in questions))
    assert all(r[-1][0] == "final" for r in results)
    messages = (await client.get(f"/api/threads/{thread_id}")).json()["messages"]
    assert sorted(m["content"] for m in messages if m["role"] == "user") == sorted(questions)
    assert len([m for m in messages if m["role"] == "assistant"]) == 5


async def test_a_cli_thread_opens_in_the_page(ingested: Services, settings: Settings) -> None:
    async with open_runner(settings) as runner:  # what `bosun ask --thread cli-thread` runs
        turn = await runner.run("cli-thread", QUESTION)
    async with serve(settings) as client:
        thread = (await client.get("/api/threads/cli-thread")).json()
        assert thread["messages"][-1]["id"] == turn.message_id
        follow = await ask(client, "How was it repaired?", thread_id="cli-thread")
        assert follow[-1][0] == "final"
    async with open_runner(settings) as runner:
        snapshot = await runner.graph.aget_state({"configurable": {"thread_id": "cli-thread"}})
    humans = [m.content for m in snapshot.values["messages"] if m.type == "human"]
    assert humans == [QUESTION, "How was it repaired?"]


async def test_bad_requests_get_one_clear_line(client: httpx.AsyncClient) -> None:
    for body in (b"not json", b"[]", b'{"message": ""}', b'{"message": "x", "filters": {"a": 1}}'):
        json_type = {"Content-Type": "application/json"}  # without it: 415 (the guard's test)
        response = await client.post("/api/chat", content=body, headers=json_type)
        assert response.status_code == 400 and "Traceback" not in response.text
        assert isinstance(response.json()["detail"], str)
    assert (await client.get("/api/health")).json() == {"ok": True}
    assert "<html" in (await client.get("/")).text.lower()


def test_frames_parser_reads_events() -> None:
    assert frames('event: meta\r\ndata: {"a": 1}\r\n\r\n') == [("meta", {"a": 1})]


async def test_citation_routes_have_their_own_per_user_limit(
    ingested: Services, settings: Settings
) -> None:
    keys = {"key-c": "carol", "key-d": "dave"}
    async with serve(settings, api_keys=keys, citations_per_minute=3) as client:
        carol, dave = {"X-API-Key": "key-c"}, {"X-API-Key": "key-d"}
        codes = [
            (await client.get("/api/citations/0123456789ab", headers=carol)).status_code
            for _ in range(4)
        ]
        assert codes[:3] == [404, 404, 404] and codes[3] == 429
        refused = await client.get("/api/citations/0123456789ab", headers=carol)
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert (await client.get("/api/citations/0123456789ab", headers=dave)).status_code == 404
        assert (await client.get("/api/health", headers=carol)).status_code == 200


async def test_an_unregistered_thread_opens_only_in_local_mode(
    ingested: Services, settings: Settings
) -> None:
    from langchain_core.messages import HumanMessage

    async with open_runner(settings) as runner:  # a bare graph run, as `langgraph dev` makes
        await runner.graph.ainvoke(
            {"messages": [HumanMessage(QUESTION)]}, {"configurable": {"thread_id": "bare-run"}}
        )
    async with serve(settings, api_keys={"key-e": "erin"}) as client:
        response = await client.get("/api/threads/bare-run", headers={"X-API-Key": "key-e"})
        assert response.status_code == 404
    async with serve(settings) as client:
        thread = (await client.get("/api/threads/bare-run")).json()
        assert thread["title"] == QUESTION and thread["messages"][0]["content"] == QUESTION
        assert "bare-run" in [t["thread_id"] for t in (await client.get("/api/threads")).json()]
