"""A threaded fake of the Gemini and Cohere REST APIs on 127.0.0.1.

The real client libraries are pointed at :attr:`FakeProviderServer.url`; every request is
recorded, and failures (status codes, delays) can be queued to test error handling.

Routes are a table of ``(method, regex, handler)``; a handler takes a :class:`FakeRequest`
(with the regex's named groups in ``params``) and returns ``(status, json_body)``; the body may
also be an :class:`EventStream` (server-sent events) or raw ``bytes`` (a malformed answer). Add
a route with ``server.add_route("POST", r"/v2/rerank", handler)`` or the
``@server.route(...)`` decorator; later routes win over earlier ones, so a test can override a
default.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

logger = logging.getLogger(__name__)

FAKE_DIMENSION = 8  # length of the vectors the default embedding routes return


@dataclass
class FakeRequest:
    """One request as the fake server received it."""

    method: str
    path: str  # without the query string
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None
    params: dict[str, str] = field(default_factory=dict)  # named groups of the route


@dataclass
class Failure:
    """A queued failure: the next matching requests get this instead of the route's answer."""

    status: int
    times: int = 1
    path_regex: str = ".*"
    delay_s: float = 0.0  # sleep before answering (status 0: sleep, then answer normally)
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class EventStream:
    """A handler's answer sent as server-sent events: one ``data: <json>`` line per event, then
    ``data: [DONE]`` (the OpenAI streaming format)."""

    events: list[Any]
    first_delay_s: float = 0.0  # silence after the headers, as a CPU model evaluates the prompt
    done: bool = True  # False: the stream just ends (a server whose generator raised)

    def encode(self) -> bytes:
        lines = [f"data: {json.dumps(event)}\n\n" for event in self.events]
        return ("".join(lines) + ("data: [DONE]\n\n" if self.done else "")).encode("utf-8")


Handler = Callable[[FakeRequest], tuple[int, Any]]


def fake_vector(text: str, dim: int = FAKE_DIMENSION) -> list[float]:
    """A deterministic unit vector derived from the text's sha256."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    raw = [(digest[i % len(digest)] - 127.5) / 127.5 for i in range(dim)]
    norm = sum(x * x for x in raw) ** 0.5 or 1.0
    return [x / norm for x in raw]


_STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


def error_body(request: FakeRequest, status: int) -> dict[str, Any]:
    """An error body in the shape of the provider the path belongs to."""
    if re.match(r"/v1(alpha|beta)?/models/", request.path):
        return {
            "error": {
                "code": status,
                "message": f"fake error {status}",
                "status": _STATUS_NAMES.get(status, "UNKNOWN"),
            }
        }
    return {"message": f"fake error {status}"}


# -- default routes: Gemini (Generative Language API) ------------------------------------------


def _gemini_texts(content: dict[str, Any]) -> str:
    return "".join(part.get("text", "") for part in content.get("parts", []))


def gemini_embed_content(request: FakeRequest) -> tuple[int, Any]:
    """``POST /{version}/models/{model}:embedContent``."""
    return 200, {"embedding": {"values": fake_vector(_gemini_texts(request.body["content"]))}}


def gemini_batch_embed_contents(request: FakeRequest) -> tuple[int, Any]:
    """``POST /{version}/models/{model}:batchEmbedContents``."""
    return 200, {
        "embeddings": [
            {"values": fake_vector(_gemini_texts(item["content"]))}
            for item in request.body["requests"]
        ]
    }


# -- default routes: Cohere ---------------------------------------------------------------------


def _cohere_embeddings(body: dict[str, Any]) -> dict[str, Any]:
    texts = body.get("texts") or []
    types = body.get("embedding_types") or ["float"]
    vectors = [fake_vector(t) for t in texts]
    out: dict[str, Any] = {}
    for kind in types:
        if kind == "float":
            out["float"] = vectors
        elif kind == "int8":
            out["int8"] = [[round(x * 127) for x in v] for v in vectors]
    return out


def _cohere_meta(texts: list[str]) -> dict[str, Any]:
    return {
        "api_version": {"version": "2"},
        "billed_units": {"input_tokens": sum(len(t.split()) for t in texts)},
    }


def cohere_embed_v1(request: FakeRequest) -> tuple[int, Any]:
    """``POST /v1/embed`` (what ``cohere.Client.embed`` calls), embeddings by type."""
    texts = request.body.get("texts") or []
    return 200, {
        "response_type": "embeddings_by_type",
        "id": "fake-embed",
        "texts": texts,
        "embeddings": _cohere_embeddings(request.body),
        "meta": _cohere_meta(texts),
    }


def cohere_embed_v2(request: FakeRequest) -> tuple[int, Any]:
    """``POST /v2/embed`` (what ``cohere.ClientV2.embed`` calls)."""
    texts = request.body.get("texts") or []
    return 200, {
        "id": "fake-embed",
        "texts": texts,
        "embeddings": _cohere_embeddings(request.body),
        "meta": _cohere_meta(texts),
    }


# google-genai 3.x sends /v1/... by default (v1beta with GOOGLE_GENAI_API_VERSION=beta).
GEMINI = r"/(?P<version>v1|v1beta|v1alpha)"

DEFAULT_ROUTES: list[tuple[str, str, Handler]] = [
    ("POST", GEMINI + r"/models/(?P<model>[^/:]+):embedContent", gemini_embed_content),
    ("POST", GEMINI + r"/models/(?P<model>[^/:]+):batchEmbedContents", gemini_batch_embed_contents),
    ("POST", r"/v1/embed", cohere_embed_v1),
    ("POST", r"/v2/embed", cohere_embed_v2),
]


class FakeProviderServer:
    """A fake provider API on an ephemeral 127.0.0.1 port, served from a background thread."""

    def __init__(self, routes: list[tuple[str, str, Handler]] | None = None) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        for method, pattern, handler in DEFAULT_ROUTES if routes is None else routes:
            self.add_route(method, pattern, handler)
        self._failures: list[Failure] = []
        self._lock = threading.Lock()
        self.requests: list[FakeRequest] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- configuration --------------------------------------------------------------------------

    def add_route(self, method: str, pattern: str, handler: Handler) -> None:
        """Answer ``method`` requests whose whole path matches ``pattern`` with ``handler``."""
        self._routes.append((method.upper(), re.compile(pattern), handler))

    def route(self, method: str, pattern: str) -> Callable[[Handler], Handler]:
        """Decorator form of :meth:`add_route`."""

        def register(handler: Handler) -> Handler:
            self.add_route(method, pattern, handler)
            return handler

        return register

    def fail(
        self,
        status: int,
        *,
        times: int = 1,
        path_regex: str = ".*",
        delay_s: float = 0.0,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Answer the next ``times`` requests matching ``path_regex`` with ``status``.

        ``status=0`` only delays (by ``delay_s``) and then answers normally.
        """
        with self._lock:
            self._failures.append(Failure(status, times, path_regex, delay_s, headers or {}))

    def reset(self) -> None:
        """Forget recorded requests and queued failures."""
        with self._lock:
            self.requests.clear()
            self._failures.clear()

    def paths(self) -> list[str]:
        """The paths received so far, in order."""
        with self._lock:
            return [r.path for r in self.requests]

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:54321`` (no trailing slash)."""
        if self._httpd is None:
            raise RuntimeError("server not started")
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> FakeProviderServer:
        """Bind an ephemeral port on 127.0.0.1 and serve in a daemon thread."""
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                logger.debug("fake provider: " + format, *args)

            def _serve(self) -> None:
                server._handle(self)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _serve  # noqa: N815

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},  # quick shutdown
            name="fake-provider",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- request handling -----------------------------------------------------------------------

    def _next_failure(self, path: str) -> Failure | None:
        with self._lock:
            for failure in self._failures:
                if failure.times > 0 and re.fullmatch(failure.path_regex, path):
                    failure.times -= 1
                    return failure
        return None

    def _handle(self, http: BaseHTTPRequestHandler) -> None:
        split = urlsplit(http.path)
        length = int(http.headers.get("content-length") or 0)
        raw = http.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = FakeRequest(
            method=http.command,
            path=split.path,
            query=parse_qs(split.query),
            headers={k.lower(): v for k, v in http.headers.items()},
            body=body,
        )
        with self._lock:
            self.requests.append(request)

        headers: dict[str, str] = {}
        failure = self._next_failure(request.path)
        if failure is not None:
            if failure.delay_s:
                time.sleep(failure.delay_s)
            headers = failure.headers
        if failure is not None and failure.status:
            status, payload = failure.status, error_body(request, failure.status)
        else:
            status, payload = self._dispatch(request)

        streamed = isinstance(payload, EventStream)
        if streamed:
            data = payload.encode()
        elif isinstance(payload, bytes):  # a malformed body, sent as it is
            data = payload
        else:
            data = json.dumps(payload).encode("utf-8")
        try:
            http.send_response(status)
            http.send_header(
                "Content-Type", "text/event-stream" if streamed else "application/json"
            )
            http.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                http.send_header(name, value)
            http.end_headers()
            if streamed and payload.first_delay_s:
                http.wfile.flush()
                time.sleep(payload.first_delay_s)
            http.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            logger.debug("fake provider: client went away before the answer to %s", request.path)

    def _dispatch(self, request: FakeRequest) -> tuple[int, Any]:
        for method, pattern, handler in reversed(self._routes):
            match = pattern.fullmatch(request.path)
            if method == request.method and match:
                request.params = match.groupdict()
                return handler(request)
        logger.warning("fake provider: no route for %s %s", request.method, request.path)
        return 404, error_body(request, 404)


@contextmanager
def fake_provider_server(
    routes: list[tuple[str, str, Handler]] | None = None,
) -> Iterator[FakeProviderServer]:
    """Run a :class:`FakeProviderServer` for the duration of a ``with`` block."""
    server = FakeProviderServer(routes).start()
    try:
        yield server
    finally:
        server.stop()
