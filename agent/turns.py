"""One conversation turn as every client runs it (CLI, web server): serialised per thread,
traced, streamed, and recorded with its owner, trace id and citation payload.

Two turns on one thread never run at once: an in-process lock keeps a process's own requests in
line without holding connections, and a PostgreSQL advisory lock keyed by the thread id does the
same across processes and machines sharing the database. Without the lock two turns would both
start from the same checkpoint and the second write would drop the first turn's messages.
Turns on distinct threads run ``concurrency`` at a time per process; the rest wait their turn in
line rather than for a pooled connection (which gives up after 30 s: measured by
benchmarks/concurrent_turns.py, 26 of 50 concurrent turns failed that way before).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, cast

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from psycopg import AsyncConnection
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from agent.server import db
from agent.server.labels import record_shown
from agent.settings import Settings
from agent.thread_registry import claim_thread
from agent.wiring import build_clients, open_services
from archive.store.database import RECONNECT_S
from checkpoints.postgres import open_checkpointer
from graph import intents
from graph.builder import TURN_DURABILITY, BosunGraph, build_graph
from graph.context import Context
from graph.state import Diagnostics, InputState, diagnostics_of, record
from providers.resilience import degrade
from providers.tracing import new_trace_id, trace_metadata, tracing_callbacks
from text.sentences import sentence_pieces
from tools.filters import FilterRequest, Filters, describe

logger = logging.getLogger(__name__)

#: A pool whose rows are dicts (the server tables and turn locks live on one).
Pool = AsyncConnectionPool[AsyncConnection[DictRow]]
Connection = AsyncConnection[DictRow]

#: Nodes whose AI messages are not new text for the reader (the validated copy of the answer).
_SILENT_NODES = {"validate_citations"}
LOCAL_USER = "local"  # the single user of a deployment with no API keys (and of the CLI)


@dataclass
class Turn:
    """One answered turn."""

    thread_id: str
    state: dict[str, Any]
    seconds: float
    trace_id: str = ""
    user_id: str = LOCAL_USER

    @property
    def answer(self) -> AIMessage:
        for message in reversed(self.state.get("messages", [])):
            if isinstance(message, AIMessage):
                return message
        return AIMessage(content="")

    @property
    def message_id(self) -> str:
        return self.answer.id or ""

    @property
    def diagnostics(self) -> Diagnostics:
        """What the turn recorded about itself (the graph state's ``diagnostics``)."""
        return diagnostics_of(self.state)

    def to_json(self) -> dict[str, Any]:
        state, diagnostics = self.state, self.diagnostics
        check = diagnostics.get("citation_check") or {}
        citations = [
            {
                key: c.get(key)
                for key in (
                    "id",
                    "number",
                    "source_id",
                    "title",
                    "date",
                    "archive_path",
                    "page",
                    "section",
                    "sender",
                )
            }
            for c in state.get("citations", [])
        ]
        timings = dict(diagnostics.get("timings") or {})
        timings["total"] = round(self.seconds * 1000.0, 2)
        return {
            "thread_id": self.thread_id,
            "answer": self.answer.text,
            "citations": citations,
            "intent": state.get("intent"),
            "filters": state.get("filters") or {},
            "filters_text": describe(cast(Filters, state.get("filters") or {})),
            "filter_notes": diagnostics.get("filter_notes") or [],
            "filter_problem": state.get("filter_problem") or None,
            "cutoff": bool(state.get("cutoff")),
            "llm_called": bool(diagnostics.get("llm_called")),
            "answer_source": state.get("answer_source") or "",
            "retrieved": int(diagnostics.get("retrieved") or 0),
            "invalid_citations": int(check.get("invalid", 0)),
            "flagged": bool(check.get("flagged", False)),
            "expansion": diagnostics.get("expansion") or {},
            "topic_decisions": diagnostics.get("topic_decisions") or [],
            "rerank": diagnostics.get("rerank") or {},
            "relevance": state.get("relevance") or {},
            "degraded": diagnostics.get("degraded") or [],
            "sanitization": diagnostics.get("sanitization") or {},
            "timings": timings,
            "message_id": self.message_id,
            "trace_id": self.trace_id,
        }

    def citation_payloads(self) -> list[dict[str, Any]]:
        """The citations as every client renders them (the web adds ``download_url``)."""
        return citation_payloads(self.state)


def citation_payloads(state: dict[str, Any]) -> list[dict[str, Any]]:
    """``state["citations"]`` (each with its passage's snippet) in the web payload's keys."""
    return [
        {
            "n": c["number"],
            "chunk_id": c["id"],
            "title": c["title"],
            "subject": c.get("subject"),
            "sender": c.get("sender"),
            "date": c.get("date"),
            "page": c.get("page"),
            "section": c.get("section"),
            "snippet": c.get("snippet") or "",
            "source_id": c["source_id"],
            "kind": c["kind"],
            "archive_path": c["archive_path"],
            "lineage": c.get("lineage"),
        }
        for c in state.get("citations") or []
    ]


@dataclass
class TurnRunner:
    """Runs turns on ``graph``; ``pool`` (public schema) holds the advisory locks and the thread
    registry; without one (unit tests on an in-memory checkpointer) only in-process locks apply."""

    graph: BosunGraph
    settings: Settings
    pool: Pool | None = None
    concurrency: int = 4  # turns running at once (each holds a pooled connection for its lock)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _slots: asyncio.Semaphore | None = None

    async def run(
        self,
        thread_id: str,
        question: str,
        *,
        context: Context | None = None,
        request: FilterRequest | dict[str, str] | None = None,
        user_id: str | None = None,
        trace_id: str | None = None,
        on_token: Callable[[str], None] | None = None,
    ) -> Turn:
        """Run one turn; ``on_token`` receives the answer's text as it is produced."""
        user = user_id or LOCAL_USER
        trace_id = trace_id or new_trace_id()
        async with self._serialised(thread_id) as conn:
            if conn is not None:
                await claim_thread(conn, thread_id, user, question)
            turn = await self._stream(
                thread_id, question, context, request, user, trace_id, on_token
            )
            if conn is not None:
                await record_turn(
                    conn, turn, collection=self.settings.collection, question=question
                )
        return turn

    async def _stream(
        self,
        thread_id: str,
        question: str,
        context: Context | None,
        request: FilterRequest | dict[str, str] | None,
        user: str,
        trace_id: str,
        on_token: Callable[[str], None] | None,
    ) -> Turn:
        inputs: InputState = {"messages": [HumanMessage(content=question)]}
        if request:
            inputs["filter_request"] = cast(FilterRequest, request)
        notes: list[str] = []
        try:
            callbacks = tracing_callbacks(
                self.settings.providers, session_id=thread_id, user_id=user, trace_id=trace_id
            )
        except Exception as err:  # langfuse.error: the turn runs untraced
            callbacks = []
            notes.append(degrade("langfuse.error", err, "answered without tracing"))
        config: RunnableConfig = {
            "configurable": {"thread_id": thread_id},
            "callbacks": callbacks,
            "metadata": trace_metadata(thread_id, user),
            "run_name": "bosun-turn",
        }
        start = time.perf_counter()
        state: dict[str, Any] = {}
        async for mode, data in self.graph.astream(
            inputs,
            config,
            context=context,
            stream_mode=["messages", "values"],
            durability=TURN_DURABILITY,
        ):
            if mode == "values":
                state = dict(cast(dict[str, Any], data))
            elif on_token is not None:
                message, meta = cast(tuple[BaseMessage, dict[str, Any]], data)
                for piece in _new_text(message, meta.get("langgraph_node", "")):
                    on_token(piece)
        if notes:  # what went wrong before the graph ran comes first
            before = Diagnostics(degraded=notes)
            state["diagnostics"] = record(before, diagnostics_of(state))
        return Turn(thread_id, state, time.perf_counter() - start, trace_id, user)

    @contextlib.asynccontextmanager
    async def _serialised(self, thread_id: str) -> AsyncIterator[Connection | None]:
        """Hold the thread's locks; yields the connection holding the advisory lock (the turn's
        own bookkeeping uses it too: a second pooled connection per turn could deadlock a full
        pool) or None without a pool."""
        lock = self._locks.setdefault(thread_id, asyncio.Lock())
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
        async with lock, self._slots:
            if self.pool is None:
                yield None
                return
            async with self.pool.connection() as conn:
                await conn.execute(
                    "SELECT pg_advisory_lock(hashtextextended(%s, 0))", (f"bosun:turn:{thread_id}",)
                )
                try:
                    yield conn
                finally:
                    await conn.execute(
                        "SELECT pg_advisory_unlock(hashtextextended(%s, 0))",
                        (f"bosun:turn:{thread_id}",),
                    )


def _new_text(message: BaseMessage, node: str) -> list[str]:
    """The reader-visible text a streamed message adds: model tokens as they come, a whole
    message (the offline extractive answer, a reply) sentence by sentence."""
    if node in _SILENT_NODES or not isinstance(message, AIMessage) or message.tool_calls:
        return []
    text = message.text
    if not text:
        return []
    return [text] if isinstance(message, AIMessageChunk) else sentence_pieces(text)


async def record_turn(
    conn: Connection, turn: Turn, *, collection: str | None = None, question: str = ""
) -> None:
    """Keep the turn's trace id and rendered citation payload with its answer's message id, and
    (given the ``collection`` it searched) the passages it showed as labels to be."""
    if not turn.message_id:
        return
    state, diagnostics = turn.state, turn.diagnostics
    meta = {
        "intent": state.get("intent"),
        "filters": state.get("filters") or {},
        "degraded": diagnostics.get("degraded") or [],
        "cutoff": bool(state.get("cutoff")),
        "flagged": bool((diagnostics.get("citation_check") or {}).get("flagged")),
        "trace_id": turn.trace_id,
    }
    await conn.execute(
        """INSERT INTO bosun_turns (message_id, thread_id, user_id, trace_id, citations, meta)
           VALUES (%s, %s, %s, %s, %s, %s)
           ON CONFLICT (message_id) DO NOTHING""",
        (
            turn.message_id,
            turn.thread_id,
            turn.user_id,
            turn.trace_id,
            Jsonb(turn.citation_payloads()),
            Jsonb(meta),
        ),
    )
    if collection is not None:
        await record_shown(
            conn,
            message_id=turn.message_id,
            thread_id=turn.thread_id,
            user_id=turn.user_id,
            collection=collection,
            state=turn.state,
            question=question,
        )


@contextlib.asynccontextmanager
async def open_runner(
    settings: Settings, *, connections: int = 4, warm: bool = False
) -> AsyncIterator[TurnRunner]:
    """The graph over opened services with the Postgres checkpointer, and a pool for the turn
    locks and thread registry (``connections``: turns on distinct threads at once per process;
    ``warm``: the models are loaded before the runner is handed out, not at the first turn)."""
    # The services connect once before any pool: a database that refuses connections fails
    # here at once, instead of after a pool's 30 s wait for its first connection.
    timeout = settings.db_timeout_s
    async with open_services(settings, statement_timeout_s=timeout) as services:
        if warm:
            await services.embeddings.aembed_query("warm up")
            await intents.centroids(services.embeddings)
        pool = await open_pool(settings, max_size=connections)
        try:
            async with open_checkpointer(
                settings.database_uri(), statement_timeout_s=timeout
            ) as saver:
                graph = build_graph(build_clients(services), checkpointer=saver)
                yield TurnRunner(graph, settings, pool, concurrency=connections)
        finally:
            await pool.close()


async def open_pool(settings: Settings, *, max_size: int = 4) -> Pool:
    """A pool on the public schema with the server tables created (idempotent)."""
    pool: Pool = AsyncConnectionPool(
        settings.database_uri(),
        connection_class=AsyncConnection[DictRow],
        min_size=1,
        max_size=max_size,
        open=False,
        check=AsyncConnectionPool.check_connection,
        timeout=settings.db_timeout_s,  # a database down mid-session: one line after this
        reconnect_timeout=RECONNECT_S,  # a restarted server: reconnect soon, not minutes later
        kwargs={"autocommit": True, "row_factory": dict_row},
    )
    await pool.open(wait=True)
    await db.ensure_schema(pool)
    return pool


def new_thread_id() -> str:
    return uuid.uuid4().hex[:12]
