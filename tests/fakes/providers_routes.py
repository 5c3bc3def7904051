"""Cohere rerank and Gemini chat routes for the shared fake provider server.

Mount them on :class:`tests.fakes.http_providers.FakeProviderServer` with
:func:`add_provider_routes`; queue failures and delays with the server's own ``fail(...)``.

- Cohere ``POST /v2/rerank`` (what ``CohereRerank`` calls through ``cohere.ClientV2``): relevance
  by query-term overlap, results sorted best first as the real API sends them.
- Gemini ``POST /{v1,v1beta}/models/<model>:generateContent`` and ``:streamGenerateContent``
  (``google-genai`` under ``ChatGoogleGenerativeAI``; the SDK also reads a plain JSON body for a
  stream): the next scripted reply (text, or a ``{"functionCall": ...}`` part), else
  :data:`DEFAULT_GEMINI_REPLY`. Requests are validated as the Generative Language API reference
  and its error messages describe (HTTP 400 ``INVALID_ARGUMENT``): roles are ``user`` or
  ``model``; parts are non-empty and hold one kind of data; ``functionCall`` parts come from the
  model, right after a user or function-response turn; the next turn answers each of them with a
  ``functionResponse`` of the same name (an object ``response``); ``toolConfig`` modes and
  allowed function names are the declared ones.
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


_PART_DATA = {
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
}
_MODES = {"MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"}


def _calls(content: dict[str, Any], kind: str) -> list[str]:
    return [p[kind].get("name", "") for p in content.get("parts", []) if kind in p]


def gemini_request_problem(body: dict[str, Any]) -> str | None:
    """Why the Generative Language API would refuse ``body`` (400), or None."""
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        return "* GenerateContentRequest.contents: contents is not specified"
    previous: dict[str, Any] | None = None
    for n, content in enumerate(contents):
        role, parts = content.get("role"), content.get("parts")
        if role not in ("user", "model"):
            return f"Please use a valid role: user, model. (contents[{n}].role = {role!r})"
        if not parts:
            return (
                f"* GenerateContentRequest.contents[{n}].parts: contents.parts must not be empty."
            )
        for part in parts:
            if len(_PART_DATA & part.keys()) != 1:
                return f"* GenerateContentRequest.contents[{n}].parts: one data field per part"
        calls, responses = _calls(content, "functionCall"), _calls(content, "functionResponse")
        if calls and role != "model" or responses and role != "user":
            return f"contents[{n}]: function calls come from the model, responses from the user"
        if any(
            not isinstance(p["functionResponse"].get("response"), dict)
            for p in parts
            if "functionResponse" in p
        ):
            return f"* GenerateContentRequest.contents[{n}]: functionResponse.response: an object"
        before_calls = _calls(previous, "functionCall") if previous else []
        if calls and previous is not None and previous["role"] != "user":
            return (
                "Please ensure that function call turn comes immediately after a user turn or "
                "after a function response turn."
            )
        if before_calls and not responses:
            return (
                "Please ensure that function response turn comes immediately after a function "
                "call turn."
            )
        if responses and sorted(responses) != sorted(before_calls):
            return (
                "Please ensure that the number of function response parts is equal to the "
                "number of function call parts of the function call turn."
            )
        previous = content
    if previous is not None and _calls(previous, "functionCall"):
        return (
            "Please ensure that function response turn comes immediately after a function "
            "call turn."
        )
    declared = {
        d.get("name") for t in body.get("tools") or [] for d in t.get("functionDeclarations") or []
    }
    config = (body.get("toolConfig") or {}).get("functionCallingConfig")
    if config is not None:
        if config.get("mode", "MODE_UNSPECIFIED") not in _MODES:
            return f"* GenerateContentRequest.tool_config.function_calling_config.mode: {config}"
        allowed = config.get("allowedFunctionNames") or []
        if allowed and (config.get("mode") not in ("ANY", "VALIDATED") or set(allowed) - declared):
            return "* GenerateContentRequest.tool_config: allowed_function_names not declared"
    return None


@dataclass
class GeminiScript:
    """Replies the fake Gemini gives, in order (then the default): a text, or a part such as
    ``{"functionCall": {"name": ..., "args": {...}}}``."""

    replies: list[str | dict[str, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: FakeRequest) -> tuple[int, Any]:
        if "x-goog-api-key" not in request.headers:
            return 403, {"error": {"code": 403, "message": "no key", "status": "PERMISSION_DENIED"}}
        problem = gemini_request_problem(request.body or {})
        if problem is not None:
            return 400, {"error": {"code": 400, "message": problem, "status": "INVALID_ARGUMENT"}}
        with self._lock:
            reply = self.replies.pop(0) if self.replies else DEFAULT_GEMINI_REPLY
        part = {"text": reply} if isinstance(reply, str) else reply
        return 200, {
            "candidates": [
                {
                    "content": {"parts": [part], "role": "model"},
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
