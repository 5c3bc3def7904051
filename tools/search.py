"""The archive search as a LangChain tool, usable by this graph and by any other agent.

The model sees one argument, ``query``. Filters and per-call switches are injected arguments
(hidden from the model): the graph passes the conversation's active filters so a model can never
widen them; another agent may pass its own or none (the whole archive).

Behind the tool is one pipeline, :func:`search_pipeline`, which ``bosun eval`` runs too:
query expansion (optional) → topic filter (optional; strict → loosened → dropped, structural
filters kept) → hybrid retrieval. The expanded text feeds both arms; the caller keeps the original
question for reranking and the answer.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, cast

from langchain_core.tools import BaseTool, InjectedToolArg, StructuredTool
from typing_extensions import TypedDict  # pydantic (Studio schemas) needs it on 3.11

from archive.store.search_filters import SearchFilters
from providers.rerank import Reranker, rerank_text
from tools import prompts
from tools.backend import SearchBackend
from tools.context import format_passages
from tools.expansion import Expansion, QueryExpander
from tools.filters import Filters, to_search_filters
from tools.hybrid import Candidate, Retrieval, RetrievalOptions
from tools.records import CandidateRecord, record_of
from tools.timing import elapsed_ms
from tools.topics import TopicDecision

logger = logging.getLogger(__name__)

SEARCH_TOOL_NAME = "search_archive"

#: Rewrites a question into the archive's terminology: a :class:`tools.expansion.QueryExpander`
#: (its :class:`~tools.expansion.Expansion` is recorded) or any ``async (query) -> str``.
Expander = QueryExpander | Callable[[str], Awaitable[str]]


class SearchOptions(TypedDict, total=False):
    """Per-call switches (all optional; the defaults are the product's, see graph.context)."""

    hybrid: bool  # BM25 + vector (default) or vector only
    expand: bool  # run the expander, when the tool has one (default False: measured harmful)
    topics: bool  # the topic filter (default False: measured harmful)
    k: int  # passages returned (default 40)
    similarity_floor: float  # dense-only hits below this cosine are dropped (default 0.3)


class ExpansionRecord(TypedDict):
    """What query expansion did to one search, as the state and the trace hold it."""

    method: str  # prf | topics | llm | custom | none (expander found nothing) | off
    original: str  # the query as asked (what the answer and the reranker see)
    text: str  # what both retrieval arms searched with
    terms: list[str]  # what was added


class SearchArtifact(TypedDict):
    """The tool's artifact: the candidates and how the layers decided."""

    candidates: list[CandidateRecord]  # best first
    expansion: ExpansionRecord
    topics: list[TopicDecision]  # the topic filter's attempts (empty when it is off)
    timings: dict[str, float]  # milliseconds: expand, topics, and the retrieval's own stages


@dataclass
class SearchOutcome:
    """One run of the pipeline: the retrieval and each layer's decision and cost."""

    retrieval: Retrieval
    expansion: ExpansionRecord
    topics: list[TopicDecision] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


def expansion_off(query: str) -> ExpansionRecord:
    return ExpansionRecord(method="off", original=query, text=query, terms=[])


async def expand_query(expander: Expander, query: str) -> ExpansionRecord:
    """Run ``expander`` on ``query`` and describe what it did."""
    expand = getattr(expander, "expand", None)
    if expand is not None:
        result: Expansion = await expand(query)
        return ExpansionRecord(
            method=result.method, original=query, text=result.text, terms=list(result.terms)
        )
    text = await cast(Callable[[str], Awaitable[str]], expander)(query)
    return ExpansionRecord(
        method="custom" if text != query else "none", original=query, text=text, terms=[]
    )


async def search_pipeline(
    backend: SearchBackend,
    query: str,
    filters: SearchFilters,
    options: SearchOptions,
    *,
    expander: Expander | None = None,
    retrieval: RetrievalOptions | None = None,
) -> SearchOutcome:
    """Expansion → topic filter → hybrid retrieval, each layer only when ``options`` switch it on.

    ``retrieval`` overrides the retrieval options built from ``options`` (the eval harness asks
    for more candidates); timings name each added stage (``expand``, ``topics``: the topic
    filter's own cost, its final retrieval excluded).
    """
    timings: dict[str, float] = {}
    expansion = expansion_off(query)
    if expander is not None and options.get("expand", False):
        started = time.perf_counter()
        expansion = await expand_query(expander, query)
        timings["expand"] = elapsed_ms(started)
        logger.info("query expansion (%s): %r -> %r", expansion["method"], query, expansion["text"])
    opts = retrieval or RetrievalOptions(
        lexical=options.get("hybrid", True),
        k=options.get("k", 40),
        similarity_floor=options.get("similarity_floor", 0.3),
    )
    decisions: list[TopicDecision] = []
    if options.get("topics", False):
        started = time.perf_counter()
        filtered = await backend.retrieve_topics(expansion["text"], filters, opts)
        result, decisions = filtered.retrieval, filtered.decisions
        own = sum(result.timings_ms.get(s, 0.0) for s in ("embed", "retrieve"))
        timings["topics"] = max(elapsed_ms(started) - own, 0.0)
        logger.info(
            "topic filter %s for %r: %s",
            decisions[-1]["decision"] if decisions else "-",
            query,
            decisions,
        )
    else:
        result = await backend.retrieve(expansion["text"], filters, opts)
    return SearchOutcome(result, expansion, decisions, {**result.timings_ms, **timings})


async def rerank_candidates(
    reranker: Reranker, question: str, candidates: Sequence[Candidate]
) -> list[float]:
    """The reranker's relevance of each candidate (prefixed with its title and subject) to the
    question as asked, in the order given."""
    if not candidates:
        return []
    documents = [rerank_text(c.passage) for c in candidates]
    return list(await reranker.rerank(question, documents, candidates=candidates))


def make_search_tool(
    backend: SearchBackend, *, expander: Expander | None = None, name: str = SEARCH_TOOL_NAME
) -> BaseTool:
    """A ``content_and_artifact`` tool: content = passages with citation headers, artifact = a
    :class:`SearchArtifact` (the candidates as plain dicts, best first; the layers' decisions)."""

    async def search_archive(
        query: str,
        filters: Annotated[dict[str, Any] | None, InjectedToolArg] = None,
        options: Annotated[dict[str, Any] | None, InjectedToolArg] = None,
    ) -> tuple[str, SearchArtifact]:
        # Filters and SearchOptions (plain dicts: pydantic validates the tool's arguments)
        active = cast(Filters, filters or {})
        opts = cast(SearchOptions, options or {})
        where = await to_search_filters(active, backend.vessel_documents)
        outcome = await search_pipeline(backend, query, where, opts, expander=expander)
        records = [record_of(c) for c in outcome.retrieval.candidates]
        logger.debug("search %r: %d passages, %s", query, len(records), outcome.timings_ms)
        artifact = SearchArtifact(
            candidates=records,
            expansion=outcome.expansion,
            topics=outcome.topics,
            timings=outcome.timings_ms,
        )
        return format_passages(records), artifact

    return StructuredTool.from_function(
        coroutine=search_archive,
        name=name,
        description=prompts.SEARCH_TOOL_DESCRIPTION,
        response_format="content_and_artifact",
    )
