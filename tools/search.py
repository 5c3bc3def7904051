"""The archive search as a LangChain tool, usable by this graph and by any other agent.

The model sees one argument, ``query``. Filters, per-call switches and the question the passages
are ranked against are injected arguments (hidden from the model): the graph passes the
conversation's active filters so a model can never widen them; another agent may pass its own or
none (the whole archive). Behind the tool is the one retrieval pipeline,
:func:`tools.pipeline.run_pipeline`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Annotated, Any, cast

from langchain_core.tools import BaseTool, InjectedToolArg, StructuredTool
from typing_extensions import TypedDict

from archive.store.passages import Passage
from tools import prompts
from tools.filters import Filters, to_search_filters
from tools.pipeline import ExpansionRecord, Pipeline, Ranking, RerankRecord, run_pipeline
from tools.relevance import Relevance
from tools.retrieval_config import RetrievalConfig
from tools.topics import TopicDecision

logger = logging.getLogger(__name__)

SEARCH_TOOL_NAME = "search_archive"


class SearchArtifact(TypedDict):
    """The tool's artifact: the passages an answer may use and how each layer decided."""

    passages: list[Passage]  # what the rerank floor kept, best first
    retrieved: int  # passages retrieved before the floor
    rerank: RerankRecord
    relevance: Relevance
    expansion: ExpansionRecord
    topics: list[TopicDecision]  # the topic filter's attempts (empty when it is off)
    timings: dict[str, float]  # milliseconds per stage
    degraded: list[str]  # fallbacks taken


#: Lays out the kept passages as the tool's content (the graph passes
#: :func:`answers.layout.format_passages`: each passage under its citation header).
Layout = Callable[[Sequence[Passage]], str]


def make_search_tool(
    pipeline: Pipeline, *, layout: Layout, name: str = SEARCH_TOOL_NAME
) -> BaseTool:
    """A ``content_and_artifact`` tool: content = the kept passages as ``layout`` writes them,
    artifact = a :class:`SearchArtifact`."""

    async def search_archive(
        query: str,
        filters: Annotated[dict[str, Any] | None, InjectedToolArg] = None,
        options: Annotated[dict[str, Any] | None, InjectedToolArg] = None,
        question: Annotated[str | None, InjectedToolArg] = None,
        subject: Annotated[list[str] | None, InjectedToolArg] = None,
    ) -> tuple[str, SearchArtifact]:
        # Filters and the retrieval configuration arrive as plain dicts (pydantic validates the
        # tool's arguments); RetrievalConfig.from_dict refuses unknown keys and bad values.
        where = await to_search_filters(
            cast(Filters, filters or {}), pipeline.backend.vessel_documents
        )
        ranking = await run_pipeline(
            pipeline, question or query, where, RetrievalConfig.from_dict(options), query=query
        )
        kept = with_subject(ranking, subject or [])
        logger.debug("search %r: %d passages, %s", query, len(kept), ranking.timings)
        artifact = SearchArtifact(
            passages=kept,
            retrieved=len(ranking.ranked),
            rerank=ranking.rerank,
            relevance=ranking.relevance,
            expansion=ranking.expansion,
            topics=ranking.topics,
            timings=ranking.timings,
            degraded=ranking.degraded,
        )
        return layout(kept), artifact

    return StructuredTool.from_function(
        coroutine=search_archive,
        name=name,
        description=prompts.SEARCH_TOOL_DESCRIPTION,
        response_format="content_and_artifact",
    )


def with_subject(ranking: Ranking, subject: Sequence[str]) -> list[Passage]:
    """The kept passages, after a follow-up's ``subject`` documents' best passage where the
    floor dropped it ("were there any injuries?" scores low against the record it asks about)."""
    have = {p["doc_id"] for p in ranking.kept}
    added: list[Passage] = []
    for passage in ranking.ranked:
        if passage["doc_id"] in subject and passage["doc_id"] not in have:
            added.append(passage)
            have.add(passage["doc_id"])
    return [*added, *ranking.kept]
