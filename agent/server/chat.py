"""``POST /api/chat``: one turn streamed as server-sent events.

Frames, in order: ``meta`` {thread_id, trace_id}; ``token`` {text} as the answer is produced;
``citations`` {answer, citations}; ``final`` {message_id, answer, citations, intent, filters,
timings, degraded, cutoff, flagged, trace_id}; on failure ``error`` {message, status}.
The turn runs in its own task: a client that goes away does not lose the turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException
from starlette.requests import Request

from agent.server import ratelimit
from agent.server.auth import require_user
from agent.server.health import SLOW, UNAVAILABLE, database_failed
from agent.server.payloads import with_links
from agent.server.requests import MAX_MESSAGE_CHARS, json_object, text_field, thread_id_of
from agent.server.runtime import Runtime, config_of, runtime_of
from agent.thread_registry import ThreadNotFound
from agent.turns import Turn, new_thread_id
from providers.scrub import scrub_secrets
from providers.tracing import new_trace_id
from text.storable import storable

logger = logging.getLogger(__name__)

_running: set[asyncio.Task[Turn]] = set()  # turns whose client may have left


async def chat(request: Request) -> EventSourceResponse:
    user = require_user(request)
    config = config_of(request)
    runtime = await runtime_of(request)
    await ratelimit.hit(
        runtime.pool, ratelimit.client_key(request, user), "chat", config.chat_per_minute
    )
    body = await json_object(request)
    message = text_field(body, "message", max_chars=MAX_MESSAGE_CHARS)
    thread_id = thread_id_of(body["thread_id"]) if body.get("thread_id") else new_thread_id()
    filters = filter_request(body.get("filters"))
    await check_owner(runtime, thread_id, user)
    trace_id = new_trace_id()

    queue: asyncio.Queue[str | None] = asyncio.Queue()
    task = asyncio.create_task(
        runtime.runner.run(
            thread_id,
            message,
            request=filters,
            user_id=user,
            trace_id=trace_id,
            on_token=queue.put_nowait,
        )
    )
    _running.add(task)
    task.add_done_callback(_running.discard)
    task.add_done_callback(lambda _: queue.put_nowait(None))

    async def frames() -> AsyncIterator[dict[str, str]]:
        yield _frame("meta", {"thread_id": thread_id, "trace_id": trace_id})
        while (text := await queue.get()) is not None:
            yield _frame("token", {"text": text})
        try:
            turn = task.result()
        except ThreadNotFound:
            yield _frame("error", {"message": "thread not found", "status": 404})
            return
        except psycopg.OperationalError as err:  # the database went away mid-turn
            logger.warning("chat turn on thread %s: %s", thread_id, err)
            slow = database_failed(request.app.state.runtime.health, err)
            yield _frame("error", {"message": SLOW if slow else UNAVAILABLE, "status": 503})
            return
        except Exception as err:  # the user-facing boundary: one scrubbed line, details logged
            logger.exception("chat turn failed on thread %s", thread_id)
            yield _frame("error", {"message": _public_error(err, runtime), "status": 500})
            return
        citations = with_links(turn.citation_payloads(), config, user, runtime.services.archive)
        answer = turn.answer.text
        final = _final(turn, citations)
        if config.citations_delay_s:  # test-only: the page must fall back to `final`
            yield _frame("final", final)
            await asyncio.sleep(config.citations_delay_s)
            yield _frame("citations", {"answer": answer, "citations": citations})
            return
        yield _frame("citations", {"answer": answer, "citations": citations})
        yield _frame("final", final)

    return EventSourceResponse(frames(), ping=15)


def _frame(event: str, data: dict[str, Any]) -> dict[str, str]:
    return {"event": event, "data": json.dumps(data, default=str)}


def _final(turn: Turn, citations: list[dict[str, Any]]) -> dict[str, Any]:
    state, diagnostics = turn.state, turn.diagnostics
    timings = dict(diagnostics.get("timings") or {})
    timings["total"] = round(turn.seconds * 1000.0, 2)
    return {
        "message_id": turn.message_id,
        "answer": turn.answer.text,
        "citations": citations,
        "intent": state.get("intent"),
        "filters": state.get("filters") or {},
        "timings": timings,
        "degraded": diagnostics.get("degraded") or [],
        "cutoff": bool(state.get("cutoff")),
        "flagged": bool((diagnostics.get("citation_check") or {}).get("flagged")),
        "trace_id": turn.trace_id,
    }


def filter_request(value: object) -> dict[str, str]:
    """``{"vessel": .., "report": ..}`` from the request's ``filters`` (others refused)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not set(value) <= {"vessel", "report"}:
        raise HTTPException(400, 'filters may hold only "vessel" and "report"')
    if not all(isinstance(v, str) and len(v) <= 200 for v in value.values()):
        raise HTTPException(400, "filter values must be strings of at most 200 characters")
    return {k: storable(v) for k, v in value.items() if storable(v).strip()}


async def check_owner(runtime: Runtime, thread_id: str, user: str) -> None:
    """404 when ``thread_id`` exists and belongs to another user."""
    async with runtime.pool.connection() as conn:
        row = await (
            await conn.execute(
                "SELECT user_id FROM bosun_threads WHERE thread_id = %s", (thread_id,)
            )
        ).fetchone()
    if row is not None and row["user_id"] != user:
        raise HTTPException(404, "thread not found")


def _public_error(err: BaseException, runtime: Runtime) -> str:
    s = runtime.settings
    known = (
        s.google_api_key,
        s.cohere_api_key,
        s.langfuse_secret_key,
        s.langfuse_public_key,
        s.database_url,
    )
    return scrub_secrets(f"the answer failed ({type(err).__name__}); please retry", known)
