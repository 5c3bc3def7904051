"""The ASGI app: the JSON/SSE API under ``/api`` and the chat page at ``/``.

``build_app(settings)`` for ``bosun serve`` and tests; :mod:`agent.langgraph_app` mounts the same
app into the LangGraph server (where its guard, :mod:`agent.server.guard`, covers every route).
Errors reach clients as ``{"detail": "..."}``, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path

import psycopg
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from agent.server.chat import chat
from agent.server.citations import citation, download
from agent.server.config import ServerConfig
from agent.server.feedback import feedback
from agent.server.guard import CrossSiteGuard, HostGuard
from agent.server.health import SLOW, UNAVAILABLE, database_failed
from agent.server.runtime import RuntimeHolder
from agent.server.threads import (
    delete_thread,
    get_thread,
    list_threads,
    remove_filters,
    rename_thread,
)
from agent.settings import Settings
from providers.tracing import flush_tracing

logger = logging.getLogger(__name__)

STATIC = Path(str(files("agent.server").joinpath("static")))


async def health(request: Request) -> JSONResponse:
    return JSONResponse({"ok": True})


async def page(request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


async def database_error(request: Request, exc: Exception) -> Response:
    """503 for a database that cannot be reached (known down from now on) or did not answer in
    time; the client is told when to retry."""
    assert isinstance(exc, psycopg.OperationalError)
    logger.warning("request %s %s: %s", request.method, request.url.path, exc)
    slow = database_failed(request.app.state.runtime.health, exc)
    return JSONResponse(
        {"detail": SLOW if slow else UNAVAILABLE}, status_code=503, headers={"Retry-After": "2"}
    )


async def server_error(request: Request, exc: Exception) -> Response:
    logger.exception("request %s %s failed", request.method, request.url.path)
    return JSONResponse({"detail": "internal error; please retry"}, status_code=500)


def routes() -> list[Route | Mount]:
    return [
        Route("/", page),
        Route("/api/health", health),
        Route("/api/chat", chat, methods=["POST"]),
        Route("/api/threads", list_threads),
        Route("/api/threads/{thread_id}", get_thread),
        Route("/api/threads/{thread_id}", rename_thread, methods=["PATCH"]),
        Route("/api/threads/{thread_id}", delete_thread, methods=["DELETE"]),
        Route("/api/threads/{thread_id}/filters", remove_filters, methods=["POST"]),
        Route("/api/citations/{chunk_id}", citation),
        Route("/api/files", download),
        Route("/api/feedback", feedback, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def _mailbox_schedule(settings: Settings) -> asyncio.Task[None] | None:
    """The scheduled sync of BOSUN_SYNC_MAILBOXES (none when unset): a task of this worker; the
    sync's lock lets one process at a time run each mailbox."""
    from agent.sync import scheduled, sync_forever  # the IMAP client loads only when used

    mailboxes, interval = scheduled(os.environ)
    if not mailboxes:
        return None
    logger.info("syncing %d mailboxes every %.0f s", len(mailboxes), interval)
    return asyncio.create_task(sync_forever(settings, mailboxes, interval, os.environ))


def _adapt_schedule(settings: Settings, holder: RuntimeHolder) -> asyncio.Task[None] | None:
    """The scheduled `bosun adapt` of BOSUN_ADAPT_EVERY_S (none when unset or 0): a task of this
    worker; the adapt lock lets one process at a time run it, and each worker reloads what it
    serves once a run's model passed its check."""
    from agent.adapt_schedule import adapt_forever, adapt_schedule  # torch loads only when used

    schedule = adapt_schedule(os.environ)
    if not schedule.on:
        return None
    logger.info(
        "adapting every %.0f s once %d new labels arrived",
        schedule.every_s,
        schedule.min_new_labels,
    )
    return asyncio.create_task(adapt_forever(settings, schedule, holder.reload))


def build_app(settings: Settings, config: ServerConfig | None = None) -> Starlette:
    """The app over ``settings``: the server configuration (keys, link secret) is read at
    start-up, services are opened on the first request and closed at exit."""
    holder = RuntimeHolder(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if app.state.config is None:  # file I/O (the link secret) off the event loop
            app.state.config = await asyncio.to_thread(ServerConfig.from_env, settings)
        schedules = [
            s for s in (_mailbox_schedule(settings), _adapt_schedule(settings, holder)) if s
        ]
        try:
            yield
        finally:
            for schedule in schedules:
                schedule.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await schedule
            await holder.close()
            flush_tracing()

    app = Starlette(
        routes=routes(),
        lifespan=lifespan,
        middleware=[Middleware(HostGuard), Middleware(CrossSiteGuard)],
        exception_handlers={
            HTTPException: http_error,
            psycopg.OperationalError: database_error,
            Exception: server_error,
        },
    )
    app.state.config = config  # None: read from the environment at start-up
    app.state.settings = settings
    app.state.runtime = holder
    return app
