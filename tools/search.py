"""The archive search as a LangChain tool, usable by this graph and by any other agent.

The model sees one argument, ``query``. Filters and per-call switches are injected arguments
(hidden from the model): the graph passes the conversation's active filters so a model can never
widen them; another agent may pass its own or none (the whole archive).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypedDict, cast

from langchain_core.tools import BaseTool, InjectedToolArg, StructuredTool

from agent import prompts
from tools.backend import SearchBackend
from tools.context import format_passages
from tools.filters import Filters, to_search_filters
from tools.hybrid import RetrievalOptions
from tools.records import CandidateRecord, record_of

logger = logging.getLogger(__name__)

SEARCH_TOOL_NAME = "search_archive"

#: Rewrites a question into the archive's terminology (query expansion; optional).
Expander = Callable[[str], Awaitable[str]]


class SearchOptions(TypedDict, total=False):
    """Per-call switches (all optional)."""

    hybrid: bool  # BM25 + vector (default) or vector only
    expand: bool  # run the expander, when the tool has one (default True)
    k: int  # passages returned (default 40)
    similarity_floor: float  # dense-only hits below this cosine are dropped (default 0.3)


def make_search_tool(
    backend: SearchBackend, *, expander: Expander | None = None, name: str = SEARCH_TOOL_NAME
) -> BaseTool:
    """A ``content_and_artifact`` tool: content = passages with citation headers, artifact = the
    candidates as plain dicts (:class:`tools.records.CandidateRecord`), best first."""

    async def search_archive(
        query: str,
        filters: Annotated[dict[str, Any] | None, InjectedToolArg] = None,
        options: Annotated[dict[str, Any] | None, InjectedToolArg] = None,
    ) -> tuple[str, list[CandidateRecord]]:
        # Filters and SearchOptions (plain dicts: pydantic validates the tool's arguments)
        active = cast(Filters, filters or {})
        opts = cast(SearchOptions, options or {})
        text = query
        if expander is not None and opts.get("expand", True):
            text = await expander(query)
            logger.info("query expanded: %r -> %r", query, text)
        retrieval = await backend.retrieve(
            text,
            await to_search_filters(active, backend.vessel_documents),
            RetrievalOptions(
                lexical=opts.get("hybrid", True),
                k=opts.get("k", 40),
                similarity_floor=opts.get("similarity_floor", 0.3),
            ),
        )
        records = [record_of(c) for c in retrieval.candidates]
        logger.debug("search %r: %d passages, %s", text, len(records), retrieval.timings_ms)
        return format_passages(records), records

    return StructuredTool.from_function(
        coroutine=search_archive,
        name=name,
        description=prompts.SEARCH_TOOL_DESCRIPTION,
        response_format="content_and_artifact",
    )
