"""What the app holds open while it runs: services, checkpointer, turn runner, its own pool."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from psycopg_pool import AsyncConnectionPool
from starlette.requests import HTTPConnection

from agent.server.config import ServerConfig
from agent.server.health import DatabaseHealth
from agent.settings import Settings
from agent.turns import Pool, TurnRunner, open_pool
from agent.wiring import Services, build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph.builder import build_graph

logger = logging.getLogger(__name__)

#: Turns on distinct threads one worker runs at once (each holds a connection for its lock).
TURN_CONNECTIONS = 24
#: How long a replaced runtime stays open for the requests that started on it.
RELOAD_GRACE_S = 120.0


@dataclass
class Runtime:
    """Opened on the first request (the LangGraph server mounts the app without its lifespan
    in some versions) and closed at shutdown."""

    settings: Settings
    services: Services
    runner: TurnRunner
    pool: Pool  # public schema: threads, turns, limits, feedback, turn locks


@dataclass
class RuntimeHolder:
    settings: Settings
    _stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)
    _runtime: Runtime | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    health: DatabaseHealth = field(default_factory=DatabaseHealth)
    _retired: dict[asyncio.Task[None], contextlib.AsyncExitStack] = field(default_factory=dict)
    _closing: set[asyncio.Future[None]] = field(default_factory=set)

    async def get(self) -> Runtime:
        """The runtime, opened on first use; 503 at once while the database is known down."""
        async with self._lock:
            if self._runtime is None:
                self._runtime = await self._open()
            runtime = self._runtime
        await self.health.admit(str(runtime.pool.conninfo), pools(runtime))
        return runtime

    async def _open(self) -> Runtime:
        try:
            return await self._enter()
        except BaseException:  # a database down at the first request: the next one starts over
            await self._stack.aclose()
            self._stack = contextlib.AsyncExitStack()
            raise

    async def _enter(self) -> Runtime:
        timeout = self.settings.db_timeout_s
        services = await self._stack.enter_async_context(
            open_services(self.settings, statement_timeout_s=timeout)
        )
        saver = await self._stack.enter_async_context(
            open_checkpointer(self.settings.database_uri(), statement_timeout_s=timeout)
        )
        pool = await open_pool(self.settings, max_size=TURN_CONNECTIONS + 4)
        self._stack.push_async_callback(pool.close)
        graph = build_graph(build_clients(services), checkpointer=saver)
        logger.info("bosun web app ready (collection %s)", services.store.schema)
        return Runtime(
            self.settings,
            services,
            TurnRunner(graph, self.settings, pool, concurrency=TURN_CONNECTIONS),
            pool,
        )

    async def reload(self) -> None:
        """Serve a fresh runtime (the collection's model and reranker as its meta records them
        now, e.g. after `bosun adapt`); the replaced one stays open :data:`RELOAD_GRACE_S` for
        the requests that hold it. Nothing changes when the new one fails to open."""
        async with self._lock:
            if self._runtime is None:
                return  # the first request opens the collection as it is
            old = self._stack
            self._stack = contextlib.AsyncExitStack()
            try:
                self._runtime = await self._enter()
            except BaseException:
                await self._stack.aclose()
                self._stack = old
                raise
        task = asyncio.create_task(asyncio.sleep(RELOAD_GRACE_S))
        self._retired[task] = old
        task.add_done_callback(lambda done: self._close_retired(done))

    def _close_retired(self, task: asyncio.Task[None]) -> None:
        stack = self._retired.pop(task, None)
        if stack is not None and not task.cancelled():
            closing = asyncio.ensure_future(stack.aclose())
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        async with self._lock:
            self._runtime = None
            await self._stack.aclose()
            retired = list(self._retired.items())
            self._retired.clear()
            for task, stack in retired:
                task.cancel()
                await stack.aclose()
            await asyncio.gather(*self._closing)


def pools(runtime: Runtime) -> list[AsyncConnectionPool[Any]]:
    """Every connection pool a request may use: the app's, the store's, the checkpointer's."""
    found: list[AsyncConnectionPool[Any]] = [runtime.pool, runtime.services.store.pool]
    saver = runtime.runner.graph.checkpointer
    conn = getattr(saver, "conn", None)
    if isinstance(conn, AsyncConnectionPool):
        found.append(conn)
    return found


async def runtime_of(request: HTTPConnection) -> Runtime:
    holder: RuntimeHolder = request.app.state.runtime
    return await holder.get()


def config_of(request: HTTPConnection) -> ServerConfig:
    """The app's :class:`ServerConfig` (read at start-up; here when the lifespan did not run)."""
    state = request.app.state
    if state.config is None:
        state.config = ServerConfig.from_env(state.settings)
    config: ServerConfig = state.config
    return config
