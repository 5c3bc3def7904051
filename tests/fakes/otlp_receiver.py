"""A fake Langfuse OTLP/HTTP trace receiver on 127.0.0.1.

Langfuse 5.x exports OpenTelemetry spans as gzip-compressed protobuf to
``<base url>/api/public/otel/v1/traces`` with HTTP Basic auth (public key : secret key). The shared
JSON fake (``http_providers``) cannot read a protobuf body, so this receiver decodes the export with
``opentelemetry-proto`` and keeps each span's name, attributes and trace id.
"""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TRACES_PATH = "/api/public/otel/v1/traces"


@dataclass
class Span:
    name: str
    attributes: dict[str, Any]
    trace_id: str


@dataclass
class OtlpReceiver:
    """What arrived; ``stall_s`` delays every answer (to test bounded flushing)."""

    url: str = ""
    stall_s: float = 0.0
    spans: list[Span] = field(default_factory=list)
    exports: list[dict[str, str]] = field(default_factory=list)  # headers of each export request
    lock: threading.Lock = field(default_factory=threading.Lock)

    def receive(self, path: str, headers: dict[str, str], body: bytes) -> int:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
        )

        if path != TRACES_PATH:
            return 404
        if self.stall_s:
            time.sleep(self.stall_s)
        if headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        export = ExportTraceServiceRequest.FromString(body)
        spans = [
            Span(span.name, {a.key: _value(a.value) for a in span.attributes}, span.trace_id.hex())
            for resource in export.resource_spans
            for scope in resource.scope_spans
            for span in scope.spans
        ]
        with self.lock:
            self.exports.append(headers)
            self.spans.extend(spans)
        return 200


def _value(value: Any) -> Any:
    kind = value.WhichOneof("value")
    return getattr(value, kind) if kind else None


@contextmanager
def otlp_receiver() -> Iterator[OtlpReceiver]:
    """Serve an :class:`OtlpReceiver` on an ephemeral port for the ``with`` block."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceResponse,
    )

    receiver = OtlpReceiver()
    answer = ExportTraceServiceResponse().SerializeToString()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {k.lower(): v for k, v in self.headers.items()}
            status = receiver.receive(self.path.partition("?")[0], headers, body)
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            except (BrokenPipeError, ConnectionResetError):  # the exporter gave up
                pass

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(
        target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="otlp", daemon=True
    )
    thread.start()
    receiver.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield receiver
    finally:
        httpd.shutdown()
        httpd.server_close()
