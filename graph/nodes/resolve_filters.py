"""Work out the turn's structural filters from the message and the conversation's active ones."""

from __future__ import annotations

import logging
import time
from datetime import date

from langgraph.runtime import Runtime

from answers.counting import count_plan
from answers.patterns import pattern_plan
from answers.record_sets import about_named_ship
from archive.store.search_filters import SearchFilters
from graph import prompts
from graph.context import Context, context_of
from graph.followup import followup_of
from graph.state import Diagnostics, State
from tools.backend import SearchBackend
from tools.filters import (
    Filters,
    VesselRegistry,
    describe,
    only_clears,
    resolve,
    to_search_filters,
)
from tools.timing import elapsed_ms

logger = logging.getLogger(__name__)


async def resolve_filters(
    state: State,
    runtime: Runtime[Context] | None = None,
    *,
    registry: VesselRegistry,
    backend: SearchBackend,
) -> State:
    """Inherit, clear or change the filters; a filter that matches nothing is reported, never
    dropped (the active filters stay as they were). Also notes what a follow-up leans on and a
    year mentioned only in passing (it ranks, :func:`tools.dates.year_in_passing`)."""
    start = time.perf_counter()
    current = state.get("filters", {})
    today = context_of(runtime.context if runtime is not None else None).today
    resolution = resolve(
        state.get("question", ""),
        current,
        await registry.vessels(),
        state.get("filter_request"),
        today=date.fromisoformat(today) if today else None,
    )
    notes = list(resolution.notes)
    update: State = {
        "filter_request": {},
        "followup": followup_of(state.get("question", ""), state.get("messages", [])),
        "ranked_year": resolution.ranked_year,
    }
    problem = resolution.problem
    filters = resolution.filters
    matching = 0
    if problem is None and filters and filters != current:
        matching = await backend.count(await to_search_filters(filters, backend.vessel_documents))
        if matching == 0 and _new_dates(current, filters) and not await _dated(backend):
            # An archive without dates (e.g. abstracts): "from 2009 to 2014" is content.
            filters = _without_dates(filters, current)
            notes.append("no dated documents: years searched as words")
            if filters != current:
                matching = await backend.count(
                    await to_search_filters(filters, backend.vessel_documents)
                )
        if matching == 0:
            filters, matching = await _as_words(
                state.get("question", ""), current, filters, backend, notes
            )
        if matching == 0 and filters != current:
            problem = prompts.NO_MATCHING_DOCUMENTS.format(filters=describe(filters))
    if problem is not None:
        logger.info("filter not applied: %s", problem)
        update["filter_problem"] = problem
    else:
        update["filters"] = filters
        update["filters_only"] = only_clears(state.get("question", ""))
        if _named_ship_set(state.get("question", ""), current, filters):
            update["record_set"] = matching  # the ship this question asks about has records
    update["diagnostics"] = Diagnostics(filter_notes=notes, timings={"filters": elapsed_ms(start)})
    return update


async def _as_words(
    question: str, current: Filters, filters: Filters, backend: SearchBackend, notes: list[str]
) -> tuple[Filters, int]:
    """``filters`` without a new registration or ship name that matched nothing, where the
    words are read otherwise, and how many documents they match."""
    matching = 0
    if filters.get("registration") != current.get("registration"):
        # "N200" may be a part or a model as well as an aircraft: search it as a word.
        filters = {k: v for k, v in filters.items() if k != "registration"}  # type: ignore[assignment]
        notes.append("no record with that registration: searched as a word")
        if filters != current:
            matching = await backend.count(
                await to_search_filters(filters, backend.vessel_documents)
            )
    if matching == 0 and _counted_by_fields(question, current, filters):
        # "ship casualties in May 1997", "ships registered in Cyprus": a count reads the month
        # or the flag from the records' fields; the registry's ship MAY or CYPRUS is no filter.
        filters = {k: v for k, v in filters.items() if k != "vessels"}  # type: ignore[assignment]
        notes.append("a count question: the ship name matched nothing, read as a field")
        if filters != current:
            matching = await backend.count(
                await to_search_filters(filters, backend.vessel_documents)
            )
    return filters, matching


def _counted_by_fields(question: str, current: Filters, filters: Filters) -> bool:
    """Whether this message is a count or pattern question (:func:`answers.counting.count_plan`,
    :func:`answers.patterns.pattern_plan`) that names a ship of the registry anew: its set is
    taken over the records' fields, not that ship."""
    new_ship = bool(filters.get("vessels")) and filters.get("vessels") != current.get("vessels")
    return new_ship and (count_plan(question) is not None or pattern_plan(question) is not None)


def _named_ship_set(question: str, current: Filters, filters: Filters) -> bool:
    """Whether this message names a ship of the registry and asks about its records
    (:func:`answers.record_sets.about_named_ship`): the filtered set it selects is then in the
    archive, whatever the relevance cutoff makes of its words."""
    if not filters.get("vessels") or filters.get("vessels") == current.get("vessels"):
        return False
    return about_named_ship(question, dated=_new_dates(current, filters))


def _new_dates(current: Filters, filters: Filters) -> bool:
    return any(filters.get(k) != current.get(k) for k in ("date_from", "date_to"))


def _without_dates(filters: Filters, current: Filters) -> Filters:
    """``filters`` with the dates as they were before this message."""
    kept: Filters = {k: v for k, v in filters.items() if k not in ("date_from", "date_to")}  # type: ignore[assignment]
    for key in ("date_from", "date_to"):
        if key in current:
            kept[key] = current[key]  # type: ignore[literal-required]
    return kept


async def _dated(backend: SearchBackend) -> bool:
    """Whether any passage of the archive has a date."""
    return await backend.count(SearchFilters(date_from=date.min)) > 0
