"""Per-user limits shared by two server processes on one database, and thumbs feedback stored in
Postgres and sent to (a fake) Langfuse as a score on the turn's own trace."""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from agent.settings import Settings
from agent.turns import open_pool
from agent.wiring import Services
from providers.tracing import flush_tracing, shutdown_tracing
from tests.fakes.otlp_receiver import TRACES_PATH, OtlpReceiver
from tests.integration.server_harness import ask, frames, serve

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def _server(settings: Settings, log: Path) -> Iterator[str]:
    """One `uvicorn` worker process of the app on the session's database."""
    port = _free_port()
    env = {
        **os.environ,
        "BOSUN_HOME": str(settings.home),
        "BOSUN_COLLECTION": settings.collection,
        "DATABASE_URL": settings.database_uri(),
        "BOSUN_API_KEYS": "key-limits:limited-user",
    }
    command = [sys.executable, "-m", "uvicorn", "agent.server.serve:app_from_env", "--factory"]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            raise AssertionError(log.read_text()[-3000:])
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def test_the_31st_chat_in_a_minute_is_refused_across_two_worker_processes(
    ingested: Services, settings: Settings, tmp_path: Path
) -> None:
    key = {"Authorization": "Bearer key-limits"}
    with _server(settings, tmp_path / "a.log") as one, _server(settings, tmp_path / "b.log") as two:
        for n in range(30):
            url = (one, two)[n % 2]
            response = httpx.post(
                f"{url}/api/chat", json={"message": "hello"}, headers=key, timeout=60
            )
            assert response.status_code == 200, (n, response.text)
            assert frames(response.text)[-1][0] == "final"
        for url in (one, two):
            refused = httpx.post(
                f"{url}/api/chat", json={"message": "hello"}, headers=key, timeout=60
            )
            assert refused.status_code == 429, refused.text
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
            assert "rate limit" in refused.json()["detail"]


@dataclasses.dataclass
class FakeLangfuse:
    """Langfuse on 127.0.0.1: OTLP traces (protobuf) and score batches (JSON)."""

    url: str = ""
    traces: OtlpReceiver = dataclasses.field(default_factory=OtlpReceiver)
    scores: list[dict[str, Any]] = dataclasses.field(default_factory=list)


@contextmanager
def fake_langfuse() -> Iterator[FakeLangfuse]:
    fake = FakeLangfuse()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            path = self.path.partition("?")[0]
            answer = b"{}"
            if path == TRACES_PATH:
                status = fake.traces.receive(path, headers, body)
                answer = b""
            elif path.startswith("/api/public/scores"):
                if headers.get("content-encoding") == "gzip":
                    body = gzip.decompress(body)
                data = json.loads(body)
                fake.scores.extend(data if isinstance(data, list) else data.get("batch", [data]))
                status = 200
            else:
                status = 404
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    fake.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield fake
    finally:
        shutdown_tracing(1.0)
        httpd.shutdown()
        httpd.server_close()


async def test_thumbs_up_is_a_row_and_a_langfuse_score_on_the_turns_trace(
    ingested: Services, settings: Settings
) -> None:
    with fake_langfuse() as langfuse:
        traced = dataclasses.replace(
            settings,
            langfuse_public_key="pk-lf-feedback",
            langfuse_secret_key="sk-lf-feedback",
            langfuse_base_url=langfuse.url,
        )
        async with serve(traced) as client:
            events = await ask(client, "Why did the purifier on Kestrel Dawn overheat?")
            final = events[-1][1]
            meta = events[0][1]
            sent = await client.post(
                "/api/feedback",
                json={
                    "thread_id": meta["thread_id"],
                    "message_id": final["message_id"],
                    "score": 1,
                    "comment": "exactly right",
                },
            )
            assert sent.status_code == 201, sent.text
            assert sent.json()["langfuse"] is True
            for bad in ({"score": 5}, {"score": True}, {"message_id": "nope"}):
                body = {
                    "thread_id": meta["thread_id"],
                    "message_id": final["message_id"],
                    "score": 1,
                }
                response = await client.post("/api/feedback", json={**body, **bad})
                assert response.status_code in (400, 404), response.text
        assert flush_tracing(10.0)

    pool = await open_pool(settings, max_size=1)
    try:
        async with pool.connection() as conn:
            rows = await (
                await conn.execute(
                    "SELECT score, comment, trace_id, user_id FROM bosun_feedback"
                    " WHERE message_id = %s",
                    (final["message_id"],),
                )
            ).fetchall()
    finally:
        await pool.close()
    assert rows == [
        {"score": 1, "comment": "exactly right", "trace_id": final["trace_id"], "user_id": "local"}
    ]
    assert [s.get("traceId") for s in langfuse.scores] == [final["trace_id"]], langfuse.scores
    assert langfuse.scores[0]["value"] == 1 and langfuse.scores[0]["comment"] == "exactly right"
    turn_spans = [s for s in langfuse.traces.spans if s.trace_id == final["trace_id"]]
    assert turn_spans, {s.trace_id for s in langfuse.traces.spans}
    root = next(s for s in turn_spans if s.name == "bosun-turn")
    assert root.attributes["session.id"] == meta["thread_id"]
    assert root.attributes["user.id"] == "local"
