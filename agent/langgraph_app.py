"""The graph and the web app for `langgraph dev` and LangGraph Server (see langgraph.json).

``make_graph`` is the graph factory: the server calls it for every run, state read and schema
request, so the services (database pool, embedding model) are opened once per process on first use
and shared; the checkpointer comes from ``checkpointer.path`` in langgraph.json and is attached by
the server. For runs it attaches Langfuse tracing (session = thread, user = the authenticated
user, trace id = the run id) when Langfuse keys are set.

``app`` is the web app (``http.app``), so the server serves the graph, the API and the page
together. The server imports it as a module attribute: building it reads the environment but
opens nothing (services open on the first request).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import AsyncIterator
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from agent.server.app import build_app
from agent.settings import Settings
from agent.wiring import build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph.builder import BosunGraph, build_graph
from providers.tracing import trace_metadata, tracing_callbacks

logger = logging.getLogger(__name__)

_stack = contextlib.AsyncExitStack()  # keeps the shared services open for the process
_graph: BosunGraph | None = None
_settings: Settings | None = None
_lock: asyncio.Lock | None = None


async def shared_graph() -> BosunGraph:
    """The process's graph over services opened from ``Settings.from_env()`` (built once)."""
    global _graph, _lock, _settings
    if _lock is None:
        _lock = asyncio.Lock()
    async with _lock:
        if _graph is None:
            _settings = Settings.from_env()
            services = await _stack.enter_async_context(
                open_services(_settings, statement_timeout_s=_settings.db_timeout_s)
            )
            _graph = build_graph(build_clients(services))
            logger.info("bosun graph ready (collection %s)", services.store.schema)
        graph: BosunGraph = _graph
        return graph


def traced(graph: BosunGraph, settings: Settings, config: RunnableConfig) -> BosunGraph:
    """``graph`` with Langfuse attached for a run of ``config`` (unchanged without keys)."""
    configurable: dict[str, Any] = dict(config.get("configurable") or {})
    thread_id = str(configurable.get("thread_id") or "")
    if not settings.langfuse_enabled or not thread_id:
        return graph
    user = configurable.get("langgraph_auth_user_id") or None
    run_id = configurable.get("run_id") or (config.get("metadata") or {}).get("run_id")
    trace_id = uuid.UUID(str(run_id)).hex if run_id else None
    return graph.with_config(
        callbacks=tracing_callbacks(
            settings.providers, session_id=thread_id, user_id=user, trace_id=trace_id
        ),
        metadata=trace_metadata(thread_id, user),
    )


@contextlib.asynccontextmanager
async def checkpointer() -> AsyncIterator[AsyncPostgresSaver]:
    """The checkpointer for ``langgraph dev`` / ``up``, on the database the environment names."""
    async with open_checkpointer(Settings.from_env().database_uri()) as saver:
        yield saver


@contextlib.asynccontextmanager
async def make_graph(config: RunnableConfig) -> AsyncIterator[BosunGraph]:
    """Graph factory for LangGraph Server (settings come from the environment)."""
    graph = await shared_graph()
    assert _settings is not None
    if (config.get("configurable") or {}).get("__is_for_execution__"):
        graph = traced(graph, _settings, config)
    yield graph


app = build_app(Settings.from_env())
