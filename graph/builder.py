"""The one place where nodes, clients and policies meet: the graph of one conversation turn.

prune_orphans → sanitize → classify_intent
    ├─ greeting / acknowledgement / general → reply → slim → END
    └─ factual_query → resolve_filters
           ├─ a filter matched nothing → reply → slim → END
           └─ count_records
                ├─ a count question: the exact count over the matching set → validate_citations
                └─ agent
                ├─ tool call → search (the retrieval pipeline: expand → topics → hybrid
                │      │   → rerank → floor → cutoff decision)
                │      ├─ nothing relevant → cutoff → slim → END ("no relevant documents")
                │      └─ dedup → lay_out_passages → agent
                ├─ answer citing no passage → repair_citations (once) → validate_citations
                └─ answer → validate_citations → slim → END
The agent's first step is always the search (search first); a failing chat model in agent or
repair_citations answers offline (``chat_model_failed``). ``slim`` drops the turn's passage
texts before the checkpoint: run turns with ``durability=TURN_DURABILITY`` (one checkpoint per
turn, as :class:`agent.turns.TurnRunner` does).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal, Protocol

import psycopg
from langchain_core.embeddings import Embeddings
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Checkpointer, RetryPolicy

from answers.layout import format_passages
from graph.context import Context
from graph.nodes.call_agent import call_agent, chat_model_failed
from graph.nodes.classify_intent import classify_failed, classify_intent
from graph.nodes.count_records import Causes, Counter, count_records
from graph.nodes.cutoff import cutoff
from graph.nodes.dedup import dedup
from graph.nodes.gather_thread import ThreadReader, gather_thread
from graph.nodes.lay_out_passages import lay_out_passages
from graph.nodes.prune_orphans import prune_orphans
from graph.nodes.repair_citations import repair_citations
from graph.nodes.reply import reply
from graph.nodes.resolve_filters import resolve_filters
from graph.nodes.sanitize import sanitize
from graph.nodes.search import search
from graph.nodes.slim import slim
from graph.nodes.thread_patterns import TopicThreads
from graph.nodes.validate_citations import validate_citations
from graph.routing import (
    route_agent,
    route_count,
    route_filters,
    route_intent,
    route_relevance,
)
from graph.state import InputState, State
from providers.chat import ChatModel
from providers.rerankers import Reranker
from tools.backend import SearchBackend
from tools.click_memory import RecalledClicks
from tools.filters import Refreshed, VesselRegistry
from tools.pipeline import Expander, Pipeline
from tools.search import make_search_tool
from tools.stock_relevance import StockJudge


def transient_database_error(err: Exception) -> bool:
    """A dropped connection or a failover; not a statement timeout (``database.slow`` in
    :mod:`providers.resilience`: retrying a statement that timed out only waits again)."""
    return isinstance(err, psycopg.OperationalError) and not isinstance(
        err, psycopg.errors.QueryCanceled
    )


#: Transient database trouble is retried (``database.dropped``); nothing else is.
DATABASE_RETRY = RetryPolicy(
    max_attempts=3, initial_interval=0.2, retry_on=transient_database_error
)


#: How turns are checkpointed: once, when the turn ends (a turn interrupted half-way leaves
#: nothing to prune; intermediate steps would store every passage text once per step).
TURN_DURABILITY: Literal["exit"] = "exit"

#: The compiled conversation graph.
BosunGraph = CompiledStateGraph[State, Context, InputState, State]


class ArchiveChecker(Protocol):
    """Checks that archived originals exist (:class:`archive.originals.Originals`)."""

    def all_exist(self, relatives: list[str]) -> Awaitable[Sequence[bool]]: ...


@dataclass(frozen=True)
class Clients:
    """Everything the graph talks to; tests pass fakes."""

    backend: SearchBackend  # retrieval, vessel registry, filter counts
    archive: ArchiveChecker  # citation targets
    reranker: Reranker
    embeddings: Embeddings | None = None  # intent centroids (None: regex, model or default)
    chat_model: ChatModel | None = None  # answers; None = offline extractive answers
    classifier_model: ChatModel | None = None  # intent labels at temperature 0
    chat_tools: bool = True  # the chat model is offered the search tool (False: answers only)
    expander: Expander | None = None  # query expansion, run when Context.expand is on
    judge: StockJudge | None = None  # the cutoff's on a headed collection (tools.stock_relevance)
    memory: RecalledClicks | None = None  # the click memory `bosun adapt` fitted from feedback
    counter: Counter | None = None  # exact record counts (None: count questions are searched)
    causes: Causes | None = None  # a whole set's cause statements, for pattern questions
    threads: ThreadReader | None = None  # whole mail threads, for fix and cause questions
    topics: TopicThreads | None = None  # the conversations mentioning a problem, for patterns


def build_graph(
    clients: Clients,
    *,
    checkpointer: Checkpointer = None,
    registry_ttl_s: float = 60.0,
    name: str = "bosun",
) -> BosunGraph:
    """Compile the conversation graph over ``clients``."""
    pipeline = Pipeline(
        clients.backend, clients.reranker, clients.expander, clients.judge, clients.memory
    )
    search_tool = make_search_tool(pipeline, layout=format_passages)
    registry = VesselRegistry(clients.backend.vessels, ttl_s=registry_ttl_s)
    all_exist: Callable[[list[str]], Awaitable[Sequence[bool]]] = clients.archive.all_exist

    builder = StateGraph(State, context_schema=Context, input_schema=InputState)
    builder.add_node("prune_orphans", prune_orphans)
    builder.add_node("sanitize", sanitize)
    builder.add_node(
        "classify_intent",
        partial(
            classify_intent,
            embeddings=clients.embeddings,
            model=clients.classifier_model,
            registry=registry,
        ),
        error_handler=classify_failed,
    )
    # The greeting's examples, read on the first greeting (then kept like the registry).
    examples = Refreshed(clients.backend.examples, ttl_s=registry_ttl_s)
    builder.add_node("reply", partial(reply, examples=examples))
    builder.add_node(
        "resolve_filters",
        partial(resolve_filters, registry=registry, backend=clients.backend),
        retry_policy=DATABASE_RETRY,
    )
    builder.add_node(
        "count_records",
        partial(
            count_records,
            counter=clients.counter,
            model=clients.chat_model,
            causes=clients.causes,
            topics=clients.topics,
        ),
        retry_policy=DATABASE_RETRY,
    )
    builder.add_node(
        "agent",
        partial(
            call_agent,
            model=clients.chat_model,
            search_tool=search_tool,
            offer_tools=clients.chat_tools,
            embeddings=clients.embeddings,
        ),
        error_handler=chat_model_failed,
    )
    builder.add_node(
        "repair_citations",
        partial(repair_citations, model=clients.chat_model),
        error_handler=chat_model_failed,
    )
    builder.add_node(
        "search", partial(search, search_tool=search_tool), retry_policy=DATABASE_RETRY
    )
    builder.add_node("cutoff", cutoff)
    builder.add_node("dedup", dedup)
    builder.add_node(
        "gather_thread",
        partial(gather_thread, threads=clients.threads),
        retry_policy=DATABASE_RETRY,
    )
    builder.add_node("lay_out_passages", lay_out_passages)
    builder.add_node("validate_citations", partial(validate_citations, all_exist=all_exist))
    builder.add_node("slim", slim)

    builder.add_edge(START, "prune_orphans")
    builder.add_edge("prune_orphans", "sanitize")
    builder.add_edge("sanitize", "classify_intent")
    builder.add_conditional_edges("classify_intent", route_intent)
    builder.add_conditional_edges("resolve_filters", route_filters)
    builder.add_conditional_edges("count_records", route_count)
    builder.add_edge("reply", "slim")
    builder.add_conditional_edges("agent", route_agent)
    builder.add_conditional_edges("search", route_relevance)
    builder.add_edge("cutoff", "slim")
    builder.add_edge("dedup", "gather_thread")
    builder.add_edge("gather_thread", "lay_out_passages")
    builder.add_edge("lay_out_passages", "agent")
    builder.add_edge("repair_citations", "validate_citations")
    builder.add_edge("validate_citations", "slim")
    builder.add_edge("slim", END)
    return builder.compile(checkpointer=checkpointer, name=name)
