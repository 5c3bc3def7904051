"""Reading and checking request bodies and ids: one clear 400 for anything malformed."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

THREAD_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
MAX_MESSAGE_CHARS = 8000


async def json_object(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"null")
    except ValueError:
        raise HTTPException(400, "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return body


def thread_id_of(value: object) -> str:
    if not isinstance(value, str) or not THREAD_ID.fullmatch(value):
        raise HTTPException(400, "thread_id must be 1-64 letters, digits or _.:-")
    return value


def text_field(body: dict[str, Any], name: str, *, max_chars: int, required: bool = True) -> str:
    value = body.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise HTTPException(400, f"{name} must be a non-empty string")
    if len(value) > max_chars:
        raise HTTPException(400, f"{name} is longer than {max_chars} characters")
    return value
