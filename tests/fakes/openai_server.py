"""An OpenAI-compatible ``POST /v1/chat/completions`` as strict as the servers Bosun meets.

Mount it on :class:`tests.fakes.http_providers.FakeProviderServer` with
:func:`add_chat_completions`. Requests are validated the way the real servers do, from their
published references:

- llama-cpp-python's server (``llama_cpp/server/types.py``, ``llama_types.py``): message content is
  a string. An assistant message may omit ``content`` but ``"content": null`` fails validation and
  the server answers HTTP 500 with pydantic's "Input should be a valid string".
- OpenAI's chat completions reference: every ``tool_calls`` entry is
  ``{"id", "type": "function", "function": {"name", "arguments": <JSON string>}}``; the tool
  messages answering them follow immediately, one per ``tool_call_id``; a ``tool`` message answers
  a preceding call; ``tool_choice`` is ``none | auto | required`` or
  ``{"type": "function", "function": {"name": <a declared tool>}}`` and needs ``tools`` (HTTP 400,
  ``invalid_request_error``).
- Streaming (``"stream": true``): server-sent ``data:`` chunks of ``chat.completion.chunk`` with
  ``delta``s (role first, then content pieces or tool-call deltas by ``index``, with ``id`` and
  name in the first), a last chunk with ``finish_reason``, a usage chunk when
  ``stream_options.include_usage`` is set, then ``data: [DONE]``.

Replies are scripted: a string (text), a :class:`ToolCallReply`, or a function of the request
(e.g. :func:`cite_first_passage`, a "model" that cites the first passage it was given).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.http_providers import EventStream, FakeProviderServer, FakeRequest

CHAT_PATH = r"/v1/chat/completions"
DEFAULT_REPLY = "I could not find that in the passages."
_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_ROLES = {"system", "developer", "user", "assistant", "tool"}
_CHOICES = {"none", "auto", "required"}


@dataclass
class ToolCallReply:
    """A scripted tool call: the model asks for ``name`` with ``arguments``."""

    name: str
    arguments: dict[str, Any]
    id: str = "call_fake_0001"


Reply = str | ToolCallReply | Callable[[FakeRequest], "str | ToolCallReply"]


class RequestInvalid(Exception):
    """A request the real server refuses: ``status`` and the error body's message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _string_error(where: str, value: Any) -> RequestInvalid:
    """What llama-cpp-python's pydantic validation answers (as HTTP 500)."""
    return RequestInvalid(
        500,
        f"1 validation error for CreateChatCompletionRequest\n{where}\n  Input should be a valid "
        f"string [type=string_type, input_value={value!r}, input_type={type(value).__name__}]",
    )


def _check_content(index: int, message: dict[str, Any], required: bool) -> None:
    role = message["role"]
    if "content" not in message:
        if required:
            raise RequestInvalid(400, f"messages[{index}]: '{role}' message needs 'content'")
        return
    content = message["content"]
    if isinstance(content, str):
        return
    if role == "user" and isinstance(content, list):
        return
    raise _string_error(f"messages.{index}.{role}.content", content)


def _check_tool_calls(index: int, calls: Any) -> list[str]:
    if not isinstance(calls, list) or not calls:
        raise RequestInvalid(400, f"messages[{index}].tool_calls: a non-empty array is required")
    ids = []
    for n, call in enumerate(calls):
        where = f"messages[{index}].tool_calls[{n}]"
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(call, dict) or call.get("type") != "function" or not function:
            raise RequestInvalid(400, f"{where}: expected type 'function' with a 'function'")
        if not isinstance(call.get("id"), str) or not call["id"]:
            raise RequestInvalid(400, f"{where}.id: a string is required")
        if not _TOOL_NAME.match(str(function.get("name", ""))):
            raise RequestInvalid(400, f"{where}.function.name: invalid")
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            raise _string_error(f"{where}.function.arguments", arguments)
        try:
            json.loads(arguments)
        except ValueError as err:
            raise RequestInvalid(400, f"{where}.function.arguments: not JSON") from err
        ids.append(call["id"])
    return ids


def validate_messages(messages: Any) -> None:
    """Raise :class:`RequestInvalid` as llama-cpp-python's server or OpenAI would."""
    if not isinstance(messages, list) or not messages:
        raise RequestInvalid(400, "'messages' must be a non-empty array")
    waiting: list[str] = []  # tool_call ids still to be answered, in order
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role not in _ROLES:
            raise RequestInvalid(400, f"messages[{index}].role: invalid value {role!r}")
        if role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str):
                raise RequestInvalid(400, f"messages[{index}].tool_call_id: a string is required")
            if call_id not in waiting:
                raise RequestInvalid(
                    400,
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.",
                )
            waiting.remove(call_id)
            _check_content(index, message, required=True)
            continue
        if waiting:
            raise RequestInvalid(
                400,
                "An assistant message with 'tool_calls' must be followed by tool messages "
                "responding to each 'tool_call_id'. The following tool_call_ids did not have "
                f"response messages: {', '.join(waiting)}",
            )
        _check_content(index, message, required=role != "assistant")
        if role == "assistant" and "tool_calls" in message:
            waiting = _check_tool_calls(index, message["tool_calls"])
    if waiting:
        raise RequestInvalid(400, f"tool_call_ids without response messages: {', '.join(waiting)}")


def validate_tools(body: dict[str, Any]) -> None:
    """``tools`` and ``tool_choice`` as the chat completions reference defines them."""
    tools = body.get("tools")
    names: set[str] = set()
    if tools is not None:
        if not isinstance(tools, list) or not tools:
            raise RequestInvalid(400, "'tools' must be a non-empty array")
        for n, tool in enumerate(tools):
            function = tool.get("function") if isinstance(tool, dict) else None
            if tool.get("type") != "function" or not isinstance(function, dict):
                raise RequestInvalid(400, f"tools[{n}]: expected type 'function'")
            if not _TOOL_NAME.match(str(function.get("name", ""))):
                raise RequestInvalid(400, f"tools[{n}].function.name: invalid")
            names.add(function["name"])
    if "tool_choice" not in body:
        return
    choice = body["tool_choice"]
    if tools is None:
        raise RequestInvalid(
            400,
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are "
            "specified.",
        )
    if isinstance(choice, str) and choice in _CHOICES:
        return
    if (
        isinstance(choice, dict)
        and choice.get("type") == "function"
        and isinstance(choice.get("function"), dict)
        and choice["function"].get("name") in names
    ):
        return
    raise RequestInvalid(400, f"Invalid value for 'tool_choice': {choice!r}")


@dataclass
class ChatCompletions:
    """The route's handler: validates, then answers with the next scripted reply."""

    replies: list[Reply] = field(default_factory=list)
    api_key: str | None = None  # when set, ``Authorization: Bearer <api_key>`` is required
    #: Seconds between a streamed answer's headers and its first chunk: llama-cpp-python sends
    #: the headers at once and the first chunk after evaluating the prompt (minutes on a CPU).
    first_chunk_delay_s: float = 0.0
    #: Answer as llama-cpp-python's ``chatml-function-calling`` format does when ``tools`` come
    #: with ``tool_choice: "auto"`` (``llama_chat_format.chatml_function_calling``, 0.3.36): a
    #: text answer is constrained by the grammar ``root ::= functions | "<|im_end|>"`` and comes
    #: back empty; a streamed tool call raises "Automatic streaming tool choice is not supported"
    #: inside the server's generator, so the 200 stream ends with no chunk at all.
    llama_cpp_function_calling: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: FakeRequest) -> tuple[int, Any]:
        if self.api_key and request.headers.get("authorization") != f"Bearer {self.api_key}":
            return 401, _error("Invalid API Key", "invalid_request_error")
        body = request.body
        try:
            if not isinstance(body, dict) or not isinstance(body.get("model"), str):
                raise RequestInvalid(400, "'model' is required")
            validate_messages(body.get("messages"))
            validate_tools(body)
        except RequestInvalid as err:
            kind = "internal_server_error" if err.status == 500 else "invalid_request_error"
            return err.status, _error(str(err), kind)
        with self._lock:
            reply = self.replies.pop(0) if self.replies else DEFAULT_REPLY
        if callable(reply):
            reply = reply(request)
        if (
            self.llama_cpp_function_calling
            and body.get("tools")
            and body.get("tool_choice") == "auto"
        ):
            if isinstance(reply, ToolCallReply) and body.get("stream"):
                return 200, EventStream([], self.first_chunk_delay_s, done=False)
            if not isinstance(reply, ToolCallReply):
                reply = ""
        if body.get("stream"):
            return 200, EventStream(_chunks(body, reply), self.first_chunk_delay_s)
        return 200, _completion(body, reply)


def _error(message: str, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _tool_call(reply: ToolCallReply) -> dict[str, Any]:
    return {
        "id": reply.id,
        "type": "function",
        "function": {"name": reply.name, "arguments": json.dumps(reply.arguments)},
    }


_USAGE = {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52}


def _completion(body: dict[str, Any], reply: str | ToolCallReply) -> dict[str, Any]:
    if isinstance(reply, ToolCallReply):
        message: dict[str, Any] = {
            "role": "assistant",
            "content": None,
            "tool_calls": [_tool_call(reply)],
        }
        finish = "tool_calls"
    else:
        message, finish = {"role": "assistant", "content": reply}, "stop"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
        "usage": _USAGE,
    }


def _chunks(body: dict[str, Any], reply: str | ToolCallReply) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }

    events = [chunk({"role": "assistant", "content": ""})]
    if isinstance(reply, ToolCallReply):
        call = _tool_call(reply)
        arguments = call["function"]["arguments"]
        head = {"index": 0, "id": call["id"], "type": "function"}
        events.append(
            chunk({"tool_calls": [{**head, "function": {"name": reply.name, "arguments": ""}}]})
        )
        for start in range(0, len(arguments), 8):
            piece = arguments[start : start + 8]
            events.append(chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}))
        events.append(chunk({}, "tool_calls"))
    else:
        events.extend(chunk({"content": piece}) for piece in re.findall(r"\S+\s*|\s+", reply))
        events.append(chunk({}, "stop"))
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append({**chunk({}), "choices": [], "usage": _USAGE})
    return events


def cite_first_passage(request: FakeRequest) -> str:
    """A grounded "model": one sentence citing the first passage header of the user turns."""
    users = [m for m in request.body["messages"] if m["role"] == "user"]
    prompt = "\n".join(str(m.get("content")) for m in users)
    found = re.search(r"\[CITE:([0-9a-f]{12})", prompt)
    if not found:
        return "The passages do not say."
    return f"The passages describe it [C:{found.group(1)}]."


def add_chat_completions(server: FakeProviderServer, **options: Any) -> ChatCompletions:
    """Mount ``POST /v1/chat/completions``; returns the handler to queue replies on."""
    handler = ChatCompletions(**options)
    server.add_route("POST", CHAT_PATH, handler)
    return handler
