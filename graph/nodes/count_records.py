"""Answer a question that counts records from the exact count over the whole matching set."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.messages import AIMessage

from answers.counting import compose_count, count_plan
from archive.store.counts import RecordCount, RecordQuery
from graph.state import Diagnostics, State
from tools.timing import elapsed_ms

#: Counts the records of a query (``archive.store.counts.count_records`` over the store).
Counter = Callable[[RecordQuery], Awaitable[RecordCount]]


async def count_records(state: State, *, counter: Counter | None) -> State:
    """A count question ("How many accidents in Texas in 2011 were fatal?") is answered from the
    archive's typed fields: the count over every matching record, the set it was taken among, and
    the latest matching records cited. Any other question, a turn limited to one report, or a set
    with no records at all (a mailbox-only archive) goes on to the search (``counted`` False)."""
    plan = count_plan(state.get("question", ""))
    if plan is None or counter is None or state.get("filters", {}).get("report_no"):
        return {"counted": False}
    start = time.perf_counter()
    count = await counter(plan.query)
    if not count.scope:
        return {"counted": False, "diagnostics": Diagnostics(count=_record(plan.query, count))}
    cite = count.examples or (await counter(plan.query.scope_only())).examples
    answer = compose_count(plan, count, cite)
    return {
        "counted": True,
        "ranked": cite,
        "passages": cite,
        "answer_source": "count",
        "messages": [AIMessage(content=answer)],
        "diagnostics": Diagnostics(
            count=_record(plan.query, count), timings={"count": elapsed_ms(start)}
        ),
    }


def _record(query: RecordQuery, count: RecordCount) -> dict[str, Any]:
    """What the turn records about its count (for traces and ``bosun ask --json``)."""
    filters = {k: v for k, v in query.__dict__.items() if v not in ("", (), None)}
    return {
        "filters": {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in filters.items()},
        "matched": count.matched,
        "scope": count.scope,
    }
