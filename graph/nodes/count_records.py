"""Answer a question that counts records from the exact count over the whole matching set."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from answers.citations import marker_ids
from answers.counting import compose_count, count_plan
from answers.pattern_groups import Group
from answers.patterns import (
    PatternPlan,
    compose_pattern,
    groups_of,
    other_readings,
    pattern_plan,
    statements_of,
)
from answers.record_sets import record_set_query
from archive.store.counts import RecordCount, RecordQuery
from archive.store.patterns import SetStatements
from graph.nodes.counted import counted_state, pattern_state, phrased
from graph.nodes.thread_patterns import TopicThreads, grouped_threads
from graph.state import Diagnostics, State
from providers.chat import ChatModel

logger = logging.getLogger(__name__)

#: Counts the records of a query (``archive.store.counts.count_records`` over the store).
Counter = Callable[[RecordQuery], Awaitable[RecordCount]]
#: The statements of a whole set, narrowed to the records mentioning a topic, of what is grouped
#: (``archive.store.patterns.set_statements`` over the store: query, topic, cause | outcome |
#: finding).
Causes = Callable[[RecordQuery, str, str], Awaitable[SetStatements]]


async def count_records(
    state: State,
    *,
    counter: Counter | None,
    model: ChatModel | None = None,
    causes: Causes | None = None,
    topics: TopicThreads | None = None,
) -> State:
    """A count question ("How many accidents in Texas in 2011 were fatal?") is answered from the
    archive's typed fields: the count over every matching record, the set it was taken among, and
    the latest matching records cited. A chat model only phrases that answer (:func:`phrased`).
    Any other question, a turn limited to one report, or a set with no records at all (a
    mailbox-only archive) goes on to the search (``counted`` False)."""
    plan = count_plan(state.get("question", ""))
    if counter is None or state.get("filters", {}).get("report_no"):
        return {"counted": False}
    if plan is None:
        done = await grouped(state, causes, model, topics, counter)
        if done.get("counted"):
            return done
        found = await record_set(state, counter)
        size = max(done.get("record_set", 0), found.get("record_set", 0))
        return {**done, **found, **({"record_set": size} if size else {})}
    start = time.perf_counter()
    count = await counter(plan.query)
    if not count.scope:
        return {"counted": False, "diagnostics": Diagnostics(count=_record(plan.query, count))}
    cite = count.examples or (await counter(plan.query.scope_only())).examples
    fact = compose_count(plan, count, cite)
    answer, source, notes = fact, "count", list[str]()
    if model is not None:
        answer, source, notes = await phrased(model, state.get("question", ""), fact, count)
    record = _record(plan.query, count)
    return counted_state(answer, source, notes, cite, record, llm_called=bool(model), start=start)


async def record_set(state: State, counter: Counter) -> State:
    """How many records a question asking for records by their fields selects ("Which
    accidents happened since November 2014?": the active date filters and the words' place,
    make, flag...; :func:`answers.record_sets.record_set_query`); unchanged when it names none. A
    non-empty set keeps the search's relevance cutoff from stopping it
    (:func:`graph.nodes.search.kept_for_record_set`)."""
    filters = state.get("filters", {})
    dates = {k: v for k, v in filters.items() if k in ("date_from", "date_to")}
    query = record_set_query(state.get("question", ""), dates)  # type: ignore[arg-type]
    if query is None:
        return {}  # the set of a vessel the question names stays (resolve_filters)
    return {"record_set": (await counter(query)).scope}


async def grouped(
    state: State,
    causes: Causes | None,
    model: ChatModel | None,
    topics: TopicThreads | None = None,
    counter: Counter | None = None,
) -> State:
    """A pattern question ("most common causes of fatal landing accidents") is answered from
    the statements of its whole set, grouped and counted; a chat model only phrases that answer,
    keeping the set's size and the groups' counts. A question that is no pattern, or whose set
    holds no records, goes on to the search (a set that holds records but nothing to group goes
    too, with ``record_set`` its size, so the relevance cutoff does not stop it); one about
    what usually fixes or causes a problem on a mailing list is grouped over its conversations
    (:func:`grouped_threads`), also when it reads as a record pattern whose set states nothing
    ("what problems do people report running ...": a verb, not the records of a mailbox)."""
    question = state.get("question", "")
    pattern = pattern_plan(question)
    if pattern is None:
        return await grouped_threads(state, topics, model)
    if causes is None:
        return {"counted": False}
    start = time.perf_counter()
    found = await causes(pattern.plan.query, pattern.topic, pattern.about)
    if not found.size and counter is not None:
        pattern, found = await _held_reading(question, pattern, found, causes, counter)
    statements = statements_of(pattern, found.statements)
    if not statements:  # a set that states nothing to group is still in the archive
        threads = await grouped_threads(state, topics, model)
        if threads.get("counted"):  # "what do people report ...": a verb, not the records
            logger.info("record pattern: %d records state nothing; thread pattern", found.size)
            return threads
        record = _pattern(pattern, found, [])
        return {
            "counted": False,
            "record_set": max(found.size, threads.get("record_set", 0)),
            "diagnostics": Diagnostics(count=record),
        }
    groups = groups_of(pattern, statements, found.reference)
    fact = compose_pattern(pattern, found.size, groups)
    cited = set(marker_ids(fact))
    cite = list({p["chunk_id"]: p for p, _ in found.statements if p["chunk_id"] in cited}.values())
    top = tuple(g.count for g in groups[:1])
    record = _pattern(pattern, found, groups)
    return await pattern_state(model, question, fact, found.size, top, cite, record, start)


async def _held_reading(
    question: str, pattern: PatternPlan, found: SetStatements, causes: Causes, counter: Counter
) -> tuple[PatternPlan, SetStatements]:
    """An empty set's question read for the kind of record the archive holds, when it holds none
    of the kind its words suggest (:func:`answers.patterns.other_readings`); else unchanged."""
    kind = pattern.plan.query.kind
    if await _holds(counter, kind):
        return pattern, found  # the kind is held: the filters select nothing
    for other in other_readings(question, pattern):
        if not await _holds(counter, other.plan.query.kind):
            continue  # a mailbox holds no records of any kind: only counted, never read
        held = await causes(other.plan.query, other.topic, other.about)
        if held.size:
            logger.info("record pattern: no %s records; read as %s", kind, other.plan.noun)
            return other, held
    return pattern, found


async def _holds(counter: Counter, kind: str) -> bool:
    return bool((await counter(RecordQuery(kind=kind))).scope)


def _pattern(pattern: PatternPlan, found: SetStatements, groups: list[Group]) -> dict[str, Any]:
    """What the turn records about its pattern (for traces and ``bosun ask --json``)."""
    return {
        **_record(pattern.plan.query, RecordCount(matched=found.size, scope=found.size)),
        "pattern": pattern.about,
        "topic": pattern.topic,
        "groups": {g.name: g.count for g in groups},
    }


def _record(query: RecordQuery, count: RecordCount) -> dict[str, Any]:
    """What the turn records about its count (for traces and ``bosun ask --json``)."""
    filters = {k: v for k, v in query.__dict__.items() if v not in ("", (), None, False, 0)}
    return {
        "filters": {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in filters.items()},
        "matched": count.matched,
        "scope": count.scope,
    }
