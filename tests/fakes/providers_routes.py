"""Cohere rerank and Gemini chat routes for the shared fake provider server.

Mount them on :class:`tests.fakes.http_providers.FakeProviderServer` with
:func:`add_provider_routes`; queue failures and delays with the server's own ``fail(...)``.

- Cohere ``POST /v2/rerank`` (what ``CohereRerank`` calls through ``cohere.ClientV2``): relevance
  by query-term overlap, results sorted best first as the real API sends them.
- Gemini ``POST /{v1,v1beta}/models/<model>:generateContent`` and ``:streamGenerateContent``
  (``google-genai`` under ``ChatGoogleGenerativeAI``; the SDK also reads a plain JSON body for a
  stream): the next scripted reply, else :data:`DEFAULT_GEMINI_REPLY`.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.http_providers import GEMINI, FakeProviderServer, FakeRequest

DEFAULT_GEMINI_REPLY = "Fuel starvation caused the loss of engine power [C:0123456789ab]."

RERANK_PATH = r"/v2/rerank"
GENERATE_PATH = (
    GEMINI + r"/models/(?P<model>[^/:]+):(?P<method>generateContent|streamGenerateContent)"
)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def cohere_rerank(request: FakeRequest) -> tuple[int, Any]:
    """``POST /v2/rerank``: ``{"results": [{"index", "relevance_score"}], ...}`` best first."""
    if not request.headers.get("authorization", "").startswith("Bearer "):
        return 401, {"message": "no api key supplied"}
    body = request.body
    terms = _words(body["query"])
    scores = [round(len(terms & _words(doc)) / (len(terms) or 1), 4) for doc in body["documents"]]
    order = sorted(range(len(scores)), key=lambda i: -scores[i])[: body.get("top_n") or None]
    return 200, {
        "id": "fake-rerank",
        "results": [{"index": i, "relevance_score": scores[i]} for i in order],
        "meta": {"api_version": {"version": "2"}, "billed_units": {"search_units": 1}},
    }


@dataclass
class GeminiScript:
    """Replies the fake Gemini gives, in order (then the default)."""

    replies: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: FakeRequest) -> tuple[int, Any]:
        if "x-goog-api-key" not in request.headers:
            return 403, {"error": {"code": 403, "message": "no key", "status": "PERMISSION_DENIED"}}
        with self._lock:
            text = self.replies.pop(0) if self.replies else DEFAULT_GEMINI_REPLY
        return 200, {
            "candidates": [
                {
                    "content": {"parts": [{"text": text}], "role": "model"},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": 12,
                "candidatesTokenCount": 9,
                "totalTokenCount": 21,
            },
            "modelVersion": request.params.get("model", ""),
        }


def add_provider_routes(server: FakeProviderServer) -> GeminiScript:
    """Mount the rerank and chat routes; returns the Gemini script to queue replies on."""
    script = GeminiScript()
    server.add_route("POST", RERANK_PATH, cohere_rerank)
    server.add_route("POST", GENERATE_PATH, script)
    return script


def requests_to(server: FakeProviderServer, pattern: str) -> list[FakeRequest]:
    """The recorded requests whose path matches ``pattern`` (searched, not anchored)."""
    return [r for r in list(server.requests) if re.search(pattern, r.path)]
