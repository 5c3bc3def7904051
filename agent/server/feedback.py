"""``POST /api/feedback``: thumbs on an answer → a row always, a Langfuse score on the turn's
trace when Langfuse is configured."""

from __future__ import annotations

import asyncio
import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from agent.server import ratelimit
from agent.server.auth import require_user
from agent.server.requests import json_object, message_id_of, text_field, thread_id_of
from agent.server.runtime import config_of, runtime_of
from providers.tracing import score_trace

logger = logging.getLogger(__name__)

SCORE_NAME = "user-feedback"


async def feedback(request: Request) -> JSONResponse:
    user = require_user(request)
    body = await json_object(request)
    thread_id = thread_id_of(body.get("thread_id"))
    message_id = message_id_of(body.get("message_id"))
    score = body.get("score")
    if score not in (1, -1) or isinstance(score, bool):
        raise HTTPException(400, "score must be 1 (thumbs up) or -1 (thumbs down)")
    comment = text_field(body, "comment", max_chars=2000, required=False) or None
    runtime = await runtime_of(request)
    await ratelimit.hit(
        runtime.pool,
        ratelimit.client_key(request, user),
        "api",
        config_of(request).citations_per_minute,
    )
    async with runtime.pool.connection() as conn:
        turn = await (
            await conn.execute(
                """SELECT trace_id FROM bosun_turns
                   WHERE message_id = %s AND thread_id = %s AND user_id = %s""",
                (message_id, thread_id, user),
            )
        ).fetchone()
        if turn is None:
            raise HTTPException(404, "no such answer in your threads")
        row = await (
            await conn.execute(
                """INSERT INTO bosun_feedback
                       (user_id, thread_id, message_id, trace_id, score, comment)
                   VALUES (%s, %s, %s, %s, %s, %s) RETURNING id""",
                (user, thread_id, message_id, turn["trace_id"], score, comment),
            )
        ).fetchone()
    assert row is not None
    scored = await asyncio.to_thread(
        score_trace,
        runtime.settings,
        trace_id=turn["trace_id"],
        name=SCORE_NAME,
        value=float(score),
        comment=comment,
    )
    return JSONResponse(
        {"id": row["id"], "trace_id": turn["trace_id"], "langfuse": scored}, status_code=201
    )
