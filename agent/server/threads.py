"""Threads of the calling user: list, open (history with its citation payloads), rename,
delete, and remove active filters. Another user's thread is 404, like one that does not exist."""

from __future__ import annotations

from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from agent.server import ratelimit
from agent.server.auth import require_user
from agent.server.labels import forget_thread
from agent.server.payloads import history
from agent.server.requests import json_object, text_field, thread_id_of
from agent.server.runtime import Runtime, config_of, runtime_of
from agent.thread_registry import claim_thread, thread_title
from agent.turns import LOCAL_USER, Connection
from text.storable import displayable
from tools.filters import Filters

#: What a filter chip names → the state's filter keys it clears.
REMOVABLE = {
    "vessel": ("vessels", "vessel_type", "vessel_class"),
    "vessels": ("vessels",),
    "vessel_type": ("vessel_type",),
    "vessel_class": ("vessel_class",),
    "report": ("report_no",),
    "report_no": ("report_no",),
    "dates": ("date_from", "date_to"),
    "date_from": ("date_from",),
    "date_to": ("date_to",),
}


async def list_threads(request: Request) -> JSONResponse:
    user = require_user(request)
    runtime = await runtime_of(request)
    await ratelimit.hit(
        runtime.pool,
        ratelimit.client_key(request, user),
        "api",
        config_of(request).citations_per_minute,
    )
    async with runtime.pool.connection() as conn:
        rows = await (
            await conn.execute(
                """SELECT thread_id, title, question, created_at, updated_at FROM bosun_threads
                   WHERE user_id = %s ORDER BY updated_at DESC LIMIT 200""",
                (user,),
            )
        ).fetchall()
    return JSONResponse([_listed(r) for r in rows])


def _listed(row: dict[str, Any]) -> dict[str, Any]:
    """A thread as the list shows it: its title, the first question in full (for the hover; the
    title stands in for a thread registered before questions were kept) and its dates."""
    title = displayable(row["title"])
    return {
        "thread_id": row["thread_id"],
        "title": title,
        "question": displayable(row["question"]) if row["question"] else title,
        "created_at": row["created_at"].isoformat(),
        "updated_at": row["updated_at"].isoformat(),
    }


async def owned(request: Request) -> tuple[Runtime, str, dict[str, Any]]:
    """The runtime, the thread id from the path and its row, or 404 if it is not the caller's."""
    user = require_user(request)
    thread_id = thread_id_of(request.path_params["thread_id"])
    runtime = await runtime_of(request)
    await ratelimit.hit(
        runtime.pool,
        ratelimit.client_key(request, user),
        "api",
        config_of(request).citations_per_minute,
    )
    async with runtime.pool.connection() as conn:
        row = await (
            await conn.execute(
                "SELECT thread_id, title, user_id FROM bosun_threads WHERE thread_id = %s",
                (thread_id,),
            )
        ).fetchone()
    if row is None and config_of(request).local_mode:
        row = await _adopt(runtime, thread_id)
    if row is None or row["user_id"] != user:
        raise HTTPException(404, "thread not found")
    return runtime, thread_id, row


async def _adopt(runtime: Runtime, thread_id: str) -> dict[str, Any] | None:
    """In local mode, a checkpointed thread nobody registered (started through `langgraph dev`
    or a bare embedded graph) becomes the local user's, titled by its first question."""
    snapshot = await runtime.runner.graph.aget_state(_config(thread_id))
    humans = [m for m in (snapshot.values or {}).get("messages", []) if m.type == "human"]
    if not humans:
        return None
    async with runtime.pool.connection() as conn:
        await claim_thread(conn, thread_id, LOCAL_USER, humans[0].text)
    return {"thread_id": thread_id, "title": thread_title(humans[0].text), "user_id": LOCAL_USER}


def _config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}}


async def get_thread(request: Request) -> JSONResponse:
    runtime, thread_id, row = await owned(request)
    snapshot = await runtime.runner.graph.aget_state(_config(thread_id))
    values = snapshot.values or {}
    async with runtime.pool.connection() as conn:
        turns = await (
            await conn.execute(
                "SELECT message_id, citations, meta FROM bosun_turns WHERE thread_id = %s",
                (thread_id,),
            )
        ).fetchall()
        given = await _feedback_given(conn, row["user_id"], [t["message_id"] for t in turns])
    return JSONResponse(
        {
            "thread_id": thread_id,
            "title": displayable(row["title"]),
            "filters": values.get("filters") or {},
            "messages": history(
                values.get("messages") or [],
                {t["message_id"]: t for t in turns},
                config_of(request),
                row["user_id"],
                runtime.services.archive,
                given,
            ),
        }
    )


async def _feedback_given(
    conn: Connection, user: str, message_ids: list[str]
) -> dict[str, dict[str, Any]]:
    """The feedback ``user`` gave each answer, as the page shows it again on reopening: the
    latest thumbs and the latest comment (a comment is sent as a row of its own after the thumbs,
    so the two may come from different rows of ``bosun_feedback``)."""
    if not message_ids:
        return {}
    rows = await (
        await conn.execute(
            """SELECT message_id,
                      (array_agg(score ORDER BY id DESC))[1] AS score,
                      (array_agg(comment ORDER BY id DESC)
                           FILTER (WHERE comment IS NOT NULL))[1] AS comment
               FROM bosun_feedback WHERE message_id = ANY(%s) AND user_id = %s
               GROUP BY message_id""",
            (message_ids, user),
        )
    ).fetchall()
    return {
        r["message_id"]: {
            "score": r["score"],
            "comment": displayable(r["comment"]) if r["comment"] else None,
        }
        for r in rows
    }


async def rename_thread(request: Request) -> JSONResponse:
    runtime, thread_id, _ = await owned(request)
    title = " ".join(
        displayable(text_field(await json_object(request), "title", max_chars=200)).split()
    )
    if not title:
        raise HTTPException(400, "title must hold visible characters")
    async with runtime.pool.connection() as conn:
        await conn.execute(
            "UPDATE bosun_threads SET title = %s, updated_at = now() WHERE thread_id = %s",
            (title, thread_id),
        )
    return JSONResponse({"thread_id": thread_id, "title": title})


async def delete_thread(request: Request) -> Response:
    runtime, thread_id, _ = await owned(request)
    checkpointer = runtime.runner.graph.checkpointer
    if checkpointer is not None and not isinstance(checkpointer, bool):
        await checkpointer.adelete_thread(thread_id)
    async with runtime.pool.connection() as conn, conn.transaction():
        await conn.execute("DELETE FROM bosun_turns WHERE thread_id = %s", (thread_id,))
        await forget_thread(conn, thread_id)
        await conn.execute("DELETE FROM bosun_threads WHERE thread_id = %s", (thread_id,))
    return Response(status_code=204)


async def remove_filters(request: Request) -> JSONResponse:
    runtime, thread_id, _ = await owned(request)
    remove = (await json_object(request)).get("remove")
    if not isinstance(remove, list) or not all(
        isinstance(k, str) and k in REMOVABLE for k in remove
    ):
        raise HTTPException(400, f"remove must list filter names among {sorted(REMOVABLE)}")
    graph = runtime.runner.graph
    snapshot = await graph.aget_state(_config(thread_id))
    filters = dict((snapshot.values or {}).get("filters") or {})
    cleared = {key for name in remove for key in REMOVABLE[name]}
    kept = cast(Filters, {k: v for k, v in filters.items() if k not in cleared})
    if kept != filters:
        await graph.aupdate_state(_config(thread_id), {"filters": kept})
    return JSONResponse({"filters": kept})
