"""Reading and checking request bodies and ids: one clear 4xx for anything malformed, never a 500.

A body is read up to :data:`MAX_BODY_BYTES` (413 past it), its nesting measured on the raw text
before parsing (the parser recurses: 100,000 ``[`` exhaust the stack), every text field bounded
in length and made storable (:func:`text.storable.storable`: NUL and lone surrogates, which
PostgreSQL and UTF-8 refuse, removed or replaced).
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

from text.storable import MAX_DEPTH, depth, storable

THREAD_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
#: A message id as LangChain and the graph make them (``run-<uuid>-0``, ``lc_run--<uuid>``).
MESSAGE_ID = re.compile(r"[A-Za-z0-9_.:-]{1,100}")
MAX_MESSAGE_CHARS = 8000
MAX_BODY_BYTES = 256 * 1024  # the longest message escaped as \uXXXX pairs, with room to spare
MAX_BODY_DEPTH = 8  # the deepest body a route takes nests 2 levels (filters); 8 is generous
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")


async def json_object(request: Request) -> dict[str, Any]:
    """The body as a JSON object: 413 when larger than :data:`MAX_BODY_BYTES`, 400 when not
    JSON, not an object, or nested deeper than :data:`MAX_BODY_DEPTH`."""
    raw = await read_body(request)
    if nesting(raw) > MAX_BODY_DEPTH:
        raise HTTPException(400, f"the request body nests deeper than {MAX_BODY_DEPTH} levels")
    try:
        body = json.loads(raw or b"null")
    except (ValueError, RecursionError):
        raise HTTPException(400, "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    if depth(body, MAX_DEPTH) > MAX_BODY_DEPTH:  # the scan above already bounds it; kept honest
        raise HTTPException(400, f"the request body nests deeper than {MAX_BODY_DEPTH} levels")
    return body


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The body, read no further than ``limit`` bytes (``Content-Length`` is checked first)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, f"the request body is larger than {limit // 1024} KiB")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, f"the request body is larger than {limit // 1024} KiB")
        chunks.append(chunk)
    return b"".join(chunks)


def nesting(raw: bytes) -> int:
    """How deeply the JSON text ``raw`` nests arrays and objects (strings skipped), measured
    without parsing it."""
    deepest = level = 0
    for match in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        level += 1 if match.group() in (b"[", b"{") else -1
        deepest = max(deepest, level)
    return deepest


def thread_id_of(value: object) -> str:
    if not isinstance(value, str) or not THREAD_ID.fullmatch(value):
        raise HTTPException(400, "thread_id must be 1-64 letters, digits or _.:-")
    return value


def message_id_of(value: object) -> str:
    if not isinstance(value, str) or not MESSAGE_ID.fullmatch(value):
        raise HTTPException(400, "message_id must be 1-100 letters, digits or _.:-")
    return value


def text_field(body: dict[str, Any], name: str, *, max_chars: int, required: bool = True) -> str:
    """``body[name]`` as storable text of at most ``max_chars`` characters (400 otherwise)."""
    value = body.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise HTTPException(400, f"{name} must be a string")
    if len(value) > max_chars:
        raise HTTPException(400, f"{name} is longer than {max_chars} characters")
    value = storable(value)
    if required and not value.strip():
        raise HTTPException(400, f"{name} must be a non-empty string")
    return value
