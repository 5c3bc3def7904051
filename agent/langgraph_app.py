"""The graph for `langgraph dev` and LangGraph Server (``make_graph`` in langgraph.json).

The server calls the factory for every run, state read and schema request, so the services
(database pool, embedding model) are opened once per process on first use and shared; the
checkpointer comes from ``langgraph.json``'s ``checkpointer.path`` and is attached by the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph.builder import BosunGraph, build_graph

logger = logging.getLogger(__name__)

_stack = contextlib.AsyncExitStack()  # keeps the shared services open for the process
_graph: BosunGraph | None = None
_lock: asyncio.Lock | None = None


async def shared_graph() -> BosunGraph:
    """The process's graph over services opened from ``Settings.from_env()`` (built once)."""
    global _graph, _lock
    if _lock is None:
        _lock = asyncio.Lock()
    async with _lock:
        if _graph is None:
            settings = Settings.from_env()
            services = await _stack.enter_async_context(open_services(settings))
            _graph = build_graph(build_clients(services))
            logger.info("bosun graph ready (collection %s)", services.store.schema)
        graph: BosunGraph = _graph
        return graph


@contextlib.asynccontextmanager
async def checkpointer() -> AsyncIterator[AsyncPostgresSaver]:
    """The checkpointer for ``langgraph dev`` / ``up``, on the database the environment names."""
    async with open_checkpointer(Settings.from_env().database_uri()) as saver:
        yield saver


@contextlib.asynccontextmanager
async def make_graph() -> AsyncIterator[BosunGraph]:
    """Graph factory for LangGraph Server (no arguments: settings come from the environment)."""
    yield await shared_graph()
