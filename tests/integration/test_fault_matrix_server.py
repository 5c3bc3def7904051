"""The fault matrix's web-server rows, on the PostgreSQL of the database rows (which these tests
stop and start): the database down and back under `bosun serve`, a client past its rate limit
(sliding window, per client address without keys), a cross-site request, malformed input."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import replace

import httpx
import pytest
from starlette.exceptions import HTTPException

from agent.server import ratelimit
from agent.settings import Settings
from agent.turns import open_pool
from agent.wiring import Services
from tests.fault_matrix import SERVER_ROWS, covering
from tests.integration import test_fault_matrix_db as database_rows
from tests.integration.server_harness import ask, serve

pytestmark = pytest.mark.integration

# The database rows' server (module-scoped there; these tests stop and start it as they do).
postgres = database_rows.postgres
db_settings = database_rows.db_settings
ingested = database_rows.ingested

QUESTION = "Why did the purifier on Kestrel Dawn overheat?"
COVERED: dict[str, str] = {}  # matrix row -> the test that runs it

covers = covering(COVERED)


def test_every_server_row_has_its_test() -> None:
    assert sorted(COVERED) == sorted(SERVER_ROWS)


@pytest.fixture
async def client(ingested: Services, db_settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async with serve(replace(db_settings, db_timeout_s=10.0)) as http:
        yield http


@covers("server.database_down")
async def test_after_the_database_restarts_the_next_request_works(
    client: httpx.AsyncClient, postgres: database_rows.Postgres
) -> None:
    first = await ask(client, QUESTION)
    thread_id = first[0][1]["thread_id"]
    assert first[-1][0] == "final"
    postgres.stop()
    try:
        down = await client.get("/api/threads", timeout=60)
        assert down.status_code == 503, down.text
        assert "database" in down.json()["detail"] and "Retry-After" in down.headers
        for _ in range(2):  # known down: told at once, not after the pool's 10 s wait
            started = time.monotonic()
            refused = await client.post("/api/chat", json={"message": QUESTION}, timeout=60)
            assert refused.status_code == 503, refused.text
            assert time.monotonic() - started < 5
    finally:
        postgres.start()
    listed = await client.get("/api/threads", timeout=60)
    assert listed.status_code == 200, listed.text
    assert thread_id in [t["thread_id"] for t in listed.json()]
    again = await ask(client, "How was the purifier repaired?", thread_id=thread_id)
    assert again[-1][0] == "final", again[-1]
    opened = await client.get(f"/api/threads/{thread_id}", timeout=60)
    assert opened.status_code == 200 and len(opened.json()["messages"]) == 4


@covers("server.rate_limited")
async def test_the_limit_holds_in_every_60_s_and_per_client_address_without_keys(
    ingested: Services, db_settings: Settings
) -> None:
    pool = await open_pool(db_settings, max_size=2)
    try:
        start = (time.time() // 60 + 1) * 60  # a fixed window's start: the old limiter's edge
        accepted = 0
        for n in range(30):  # the last second of one window
            await ratelimit.hit(pool, "edge-user", "chat", 30, now=start - 1 + n / 30)
            accepted += 1
        refused = 0
        for n in range(30):  # the first seconds of the next: 57 had passed in 4 s
            with pytest.raises(HTTPException) as caught:
                await ratelimit.hit(pool, "edge-user", "chat", 30, now=start + 0.5 + n / 10)
            assert caught.value.status_code == 429
            retry = int((caught.value.headers or {})["Retry-After"])
            assert 1 <= retry <= 60 and "rate limit" in caught.value.detail
            refused += 1
        assert (accepted, refused) == (30, 30)
        # 60 s after the first accepted request exactly one place is free again.
        await ratelimit.hit(pool, "edge-user", "chat", 30, now=start + 59.01)
        with pytest.raises(HTTPException):
            await ratelimit.hit(pool, "edge-user", "chat", 30, now=start + 59.02)
        await ratelimit.hit(pool, "other-user", "chat", 30, now=start + 59.02)
        # A client's first request in a minute drops the rows of clients gone quiet.
        await ratelimit.hit(pool, "newcomer", "chat", 30, now=start + 200)
        async with pool.connection() as conn:
            rows = await (await conn.execute("SELECT client FROM bosun_rate_windows")).fetchall()
        assert [r["client"] for r in rows] == ["newcomer"]
    finally:
        await pool.close()

    async def codes(client: httpx.AsyncClient, n: int) -> list[int]:
        return [(await client.get("/api/citations/0123456789ab")).status_code for _ in range(n)]

    async with (
        serve(db_settings, citations_per_minute=3, client=("192.0.2.10", 50000)) as carol,
        serve(db_settings, citations_per_minute=3, client=("192.0.2.11", 50001)) as dave,
    ):
        assert await codes(carol, 4) == [404, 404, 404, 429]  # no keys: one user, "local"
        assert await codes(dave, 1) == [404]  # another address, its own limit


async def _counts(settings: Settings) -> dict[str, int]:
    pool = await open_pool(settings, max_size=1)
    try:
        async with pool.connection() as conn:
            row = await (
                await conn.execute(
                    "SELECT (SELECT count(*) FROM bosun_threads) AS threads,"
                    " (SELECT count(*) FROM bosun_turns) AS turns,"
                    " (SELECT count(*) FROM bosun_feedback) AS feedback"
                )
            ).fetchone()
    finally:
        await pool.close()
    assert row is not None
    return dict(row)


@covers("server.cross_site")
async def test_a_page_on_another_site_runs_no_turn_and_writes_nothing(
    client: httpx.AsyncClient, db_settings: Settings
) -> None:
    answered = await ask(client, QUESTION)  # the page's own request, for a message to rate
    thread, final = answered[0][1]["thread_id"], answered[-1][1]
    rating = {"thread_id": thread, "message_id": final["message_id"], "score": 1}
    before = await _counts(db_settings)
    attempts = [  # what a page on http://evil.example can make a browser send without asking
        ("POST", "/api/chat", {"Content-Type": "text/plain"}, {"message": QUESTION}),
        ("POST", "/api/feedback", {"Content-Type": "text/plain"}, rating),
        ("POST", "/api/feedback", {"Origin": "http://evil.example"}, rating),
        ("POST", "/api/chat", {"Sec-Fetch-Site": "cross-site"}, {"message": QUESTION}),
        ("DELETE", f"/api/threads/{thread}", {"Origin": "http://127.0.0.1:9999"}, None),
        ("GET", "/api/threads", {"Host": "rebound.evil.example"}, None),  # DNS rebinding
        ("GET", f"/api/threads/{thread}", {"Host": "rebound.evil.example:8000"}, None),
    ]
    for method, path, headers, body in attempts:
        content = None if body is None else json.dumps(body).encode()
        response = await client.request(method, path, content=content, headers=headers)
        assert response.status_code in (400, 403, 415), (method, path, response.text)
        assert thread not in response.text
    assert await _counts(db_settings) == before
    page = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    rated = await client.post("/api/feedback", json=rating, headers=page)
    assert rated.status_code == 201, rated.text


@covers("server.malformed")
async def test_malformed_requests_are_4xx_and_the_next_turn_works(
    client: httpx.AsyncClient,
) -> None:
    """The row's behaviour in brief; every field and route in test_server_hostile.py."""
    thread = (await ask(client, QUESTION))[0][1]["thread_id"]
    as_json = {"Content-Type": "application/json"}
    deep = b"[" * 100_000 + b"]" * 100_000
    for path in ("/api/chat", "/api/feedback"):
        response = await client.post(path, content=deep, headers=as_json)
        assert response.status_code == 400, response.text
    nul = b'{"title": "a\\u0000b\\ud800"}'
    renamed = await client.patch(f"/api/threads/{thread}", content=nul, headers=as_json)
    assert renamed.json()["title"] == "ab\ufffd"
    wrong = await client.post(f"/api/threads/{thread}/filters", json={"remove": [["vessel"]]})
    assert wrong.status_code == 400
    again = await ask(client, "How was the purifier repaired?", thread_id=thread)
    assert again[-1][0] == "final"
