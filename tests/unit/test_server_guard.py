"""The cross-site guard without a database: a foreign ``Host`` (DNS rebinding), a page on another
origin, a ``text/plain`` or form body, and local mode reached on a non-loopback interface are all
refused before any route runs; the page's own requests and API-key callers pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from agent.server.app import build_app
from agent.server.config import ServerConfig, ServerConfigError, parse_hosts, parse_origins
from agent.server.guard import is_loopback, same_origin
from agent.settings import Settings

SECRET = b"unit-secret-0123456789"


def _client(tmp_path: Path, url: str = "http://127.0.0.1:8000", **config: Any) -> httpx.AsyncClient:
    app = build_app(Settings(home=tmp_path), ServerConfig(secret=SECRET, **config))
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=url)


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:8000", "127.0.0.1:1234", "[::1]:8000", "LOCALHOST:9"]
)
async def test_the_loopback_names_are_answered_on_any_port(tmp_path: Path, host: str) -> None:
    async with _client(tmp_path) as client:
        response = await client.get("/api/health", headers={"Host": host})
    assert response.status_code == 200, (host, response.text)


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "localhost.evil.example", "127.0.0.2", "[::2]"]
)
async def test_a_foreign_host_reads_nothing(tmp_path: Path, host: str) -> None:
    async with _client(tmp_path) as client:
        for path in ("/api/health", "/api/threads", "/"):
            response = await client.get(path, headers={"Host": host})
            assert response.status_code == 400, (host, path, response.text)
        posted = await client.post("/api/chat", json={"message": "x"}, headers={"Host": host})
        assert posted.status_code == 400


async def test_the_public_host_is_answered_and_only_it(tmp_path: Path) -> None:
    hosts = parse_hosts("bosun.example.org, *.corp.example")
    async with _client(tmp_path, "https://bosun.example.org", public_hosts=hosts) as client:
        assert (await client.get("/api/health")).status_code == 200
        named = await client.get("/api/health", headers={"Host": "a.corp.example:443"})
        assert named.status_code == 200
        other = await client.get("/api/health", headers={"Host": "bosun.example.org.evil.example"})
        assert other.status_code == 400


CROSS_SITE = [
    {"Origin": "http://evil.example"},
    {"Origin": "http://127.0.0.1:9999"},  # another local port is another origin
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "cross-site"},
]


@pytest.mark.parametrize("headers", CROSS_SITE)
async def test_state_changing_requests_from_another_origin_are_refused(
    tmp_path: Path, headers: dict[str, str]
) -> None:
    async with _client(tmp_path) as client:
        for method, path in (
            ("POST", "/api/chat"),
            ("POST", "/api/feedback"),
            ("PATCH", "/api/threads/abc"),
            ("DELETE", "/api/threads/abc"),
            ("POST", "/api/threads/abc/filters"),
        ):
            body = None if method == "DELETE" else {"message": "x"}
            response = await client.request(method, path, json=body, headers=headers)
            assert response.status_code == 403, (method, path, response.text)
            assert "refused" in response.json()["detail"]


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,
    ],
)
async def test_a_body_that_is_not_json_is_refused_before_any_route(
    tmp_path: Path, content_type: str | None
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    async with _client(tmp_path) as client:
        for path in ("/api/chat", "/api/feedback"):
            response = await client.post(path, content=b'{"message": "x"}', headers=headers)
            assert response.status_code == 415, (path, response.text)
            assert "application/json" in response.json()["detail"]


async def test_the_pages_own_requests_pass_the_guard(tmp_path: Path) -> None:
    """POST on a GET-only route: 405 from the router means the guard let it through."""
    own = [
        {"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"},
        {"Origin": "http://127.0.0.1:8000"},
        {"Sec-Fetch-Site": "same-origin"},
        {},  # not a browser (curl, the SDK): no Origin, no Sec-Fetch-Site
    ]
    async with _client(tmp_path) as client:
        for headers in own:
            response = await client.post("/api/health", json={}, headers=headers)
            assert response.status_code == 405, (headers, response.text)
        delete = await client.delete("/api/health", headers={"Sec-Fetch-Site": "same-origin"})
        assert delete.status_code == 405


async def test_allowed_origins_and_api_keys_let_other_origins_in(tmp_path: Path) -> None:
    studio = {"Origin": "https://smith.langchain.com", "Sec-Fetch-Site": "cross-site"}
    origins = parse_origins("https://smith.langchain.com/")
    async with _client(tmp_path, allowed_origins=origins) as client:
        assert (await client.post("/api/health", json={}, headers=studio)).status_code == 405
    keys = {"key-a": "alice"}
    evil = {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}
    async with _client(tmp_path, api_keys=keys) as client:
        keyed = await client.post("/api/health", json={}, headers={**evil, "X-API-Key": "key-a"})
        assert keyed.status_code == 405
        wrong = await client.post("/api/health", json={}, headers={**evil, "X-API-Key": "nope"})
        assert wrong.status_code == 403
        keyed_text = {"X-API-Key": "key-a", "Content-Type": "text/plain"}
        plain = await client.post("/api/health", content=b"{}", headers=keyed_text)
        assert plain.status_code == 415  # JSON always, key or not


async def test_local_mode_answers_only_on_the_loopback_interface(tmp_path: Path) -> None:
    """As under `langgraph dev --host 0.0.0.0`: the request arrived on a LAN address."""
    lan = parse_hosts("10.0.0.5")
    async with _client(tmp_path, "http://10.0.0.5:2024", public_hosts=lan) as client:
        response = await client.get("/api/health")
        assert response.status_code == 403 and "BOSUN_API_KEYS" in response.json()["detail"]
    async with _client(
        tmp_path, "http://10.0.0.5:2024", public_hosts=lan, api_keys={"k": "u"}
    ) as client:
        assert (await client.get("/api/health")).status_code == 200


def test_host_and_origin_settings_are_parsed_or_named() -> None:
    assert parse_hosts(" Bosun.Example.org:443, 10.0.0.5:8000, ::1, [fe80::1]:80 ") == (
        "bosun.example.org",
        "10.0.0.5",
        "[::1]",
        "[fe80::1]",
    )
    for bad in ("*", "evil*.example", "a.*.example"):
        with pytest.raises(ServerConfigError, match="BOSUN_PUBLIC_HOST"):
            parse_hosts(bad)
    with pytest.raises(ServerConfigError, match="BOSUN_ALLOWED_ORIGINS"):
        parse_origins("smith.langchain.com")
    env = {"BOSUN_PUBLIC_HOST": "bosun.example.org", "BOSUN_SERVER_SECRET": "s"}
    config = ServerConfig.from_env(Settings(home=Path("/nonexistent")), env)
    assert config.allowed_hosts == ("localhost", "127.0.0.1", "[::1]", "bosun.example.org")


def test_every_interface_needs_keys_and_a_public_host() -> None:
    with pytest.raises(ServerConfigError, match="BOSUN_API_KEYS"):
        ServerConfig().check_bind("0.0.0.0")
    with pytest.raises(ServerConfigError, match="BOSUN_PUBLIC_HOST"):
        ServerConfig(api_keys={"k": "u"}).check_bind("0.0.0.0")
    ServerConfig(api_keys={"k": "u"}, public_hosts=("bosun.example.org",)).check_bind("0.0.0.0")
    ServerConfig().check_bind("127.0.0.1")


def test_origin_and_interface_helpers() -> None:
    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same_origin("https://bosun.example.org", "bosun.example.org:443")
    assert not same_origin("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not same_origin("null", "127.0.0.1:8000")
    assert is_loopback(("127.0.0.1", 8000)) and is_loopback(("::1", 1)) and is_loopback(None)
    assert not is_loopback(("10.0.0.5", 8000)) and not is_loopback(("bosun", 80))
