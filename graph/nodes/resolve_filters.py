"""Work out the turn's structural filters from the message and the conversation's active ones."""

from __future__ import annotations

import logging
import time

from agent import prompts
from graph.state import State
from graph.timing import elapsed_ms
from tools.backend import SearchBackend
from tools.filters import VesselRegistry, describe, only_clears, resolve, to_search_filters

logger = logging.getLogger(__name__)


async def resolve_filters(
    state: State, *, registry: VesselRegistry, backend: SearchBackend
) -> State:
    """Inherit, clear or change the filters; a filter that matches nothing is reported, never
    dropped (the active filters stay as they were)."""
    start = time.perf_counter()
    current = state.get("filters", {})
    resolution = resolve(
        state.get("question", ""), current, await registry.vessels(), state.get("filter_request")
    )
    update: State = {"filter_notes": resolution.notes, "filter_request": {}}
    problem = resolution.problem
    if problem is None and resolution.filters and resolution.filters != current:
        matching = await backend.count(
            await to_search_filters(resolution.filters, backend.vessel_documents)
        )
        if matching == 0:
            problem = prompts.NO_MATCHING_DOCUMENTS.format(filters=describe(resolution.filters))
    if problem is not None:
        logger.info("filter not applied: %s", problem)
        update["filter_problem"] = problem
    else:
        update["filters"] = resolution.filters
        update["filters_only"] = only_clears(state.get("question", ""))
    update["timings"] = {"filters": elapsed_ms(start)}
    return update
