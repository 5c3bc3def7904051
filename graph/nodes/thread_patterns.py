"""Answer a question about what usually fixes or causes a problem on a mailing list from the
fix or cause statements of every conversation that mentions it, grouped and counted."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from answers.citations import marker_ids
from answers.pattern_groups import OTHER
from answers.thread_patterns import (
    compose_thread_pattern,
    thread_groups,
    thread_pattern_plan,
    thread_statements,
)
from archive.store.threads import TopicSet
from graph.nodes.counted import pattern_state
from graph.state import Diagnostics, State
from providers.chat import ChatModel

logger = logging.getLogger(__name__)

#: The conversations mentioning a topic (``archive.store.threads.topic_conversations``).
TopicThreads = Callable[[str], Awaitable[TopicSet]]


async def grouped_threads(
    state: State, topics: TopicThreads | None, model: ChatModel | None
) -> State:
    """ "What are the most common fixes for overflows on the mailing list?": every conversation
    mentioning the problem, each one's fix (or cause) from its confirmed or last answering
    reply, grouped into named groups with counts and examples cited to the stating messages. A
    question that asks no such thing, or whose conversations state nothing, goes on to the
    search."""
    question = state.get("question", "")
    plan = thread_pattern_plan(question)
    if plan is None or topics is None:
        return {"counted": False}
    start = time.perf_counter()
    found = await topics(plan.topic)
    matched, conversations = found.matched, found.conversations
    statements = thread_statements(plan, question, conversations)
    record: dict[str, Any] = {"pattern": f"thread {plan.about}", "topic": plan.topic}
    groups = thread_groups(plan, statements, found.shares, found.bursts) if statements else []
    if not any(g.name != OTHER and g.count >= 2 for g in groups):
        logger.info("thread pattern: %d threads, no group of two; searched instead", matched)
        return {"counted": False, "diagnostics": Diagnostics(count={**record, "matched": matched})}
    fact = compose_thread_pattern(plan, matched, len(conversations), groups, how=found.how)
    cited = set(marker_ids(fact))
    by_id = {s.passage["chunk_id"]: s.passage for s in statements}
    cite = [by_id[i] for i in by_id if i in cited]
    record.update(matched=matched, groups={g.name: g.count for g in groups})
    top = tuple(g.count for g in groups[:1])
    return await pattern_state(model, question, fact, matched, top, cite, record, start)
