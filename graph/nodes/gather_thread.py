"""For a fix or cause question about a mail thread, gather the thread's messages: the answer
comes from its replies (and is cited to them), not only from the chunks retrieval ranked."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict

from answers.aspects import question_aspect
from answers.thread_answer import THREAD_ASPECTS
from answers.thread_choice import candidates_of, choose_conversation
from answers.threads import MAIL_KINDS, mail_thread_id
from archive.store.passages import Passage
from graph.state import State
from tools.timing import elapsed_ms

#: The emails of whole threads by thread id (``archive.store.threads.thread_messages``).
ThreadReader = Callable[[Sequence[str]], Awaitable[dict[str, list[Passage]]]]
#: Most of a thread's chunks added to the answer's passages (what a chat model reads).
MAX_THREAD_PASSAGES = 10


async def gather_thread(state: State, *, threads: ThreadReader | None) -> State:
    """Choose the mail conversation the question is about (among those of the best passages,
    the one whose problem it restates: :mod:`answers.thread_choice`) and add its messages to
    the turn's retrieved passages (so the reply that states the fix can be cited) and to the
    answer's passages, oldest first, its passages first; retrieved chunks of it get their
    place in the thread (author, reply-to)."""
    passages = state.get("passages", [])
    thread_id = mail_thread_id(passages)
    if threads is None or thread_id is None:
        return {}
    if question_aspect(state.get("question", "")) not in THREAD_ASPECTS:
        return {}
    start = time.perf_counter()
    order = candidates_of(passages)
    read = await threads(list(order))
    chosen, weighed = choose_conversation(state.get("question", ""), order, read)
    thread_id = chosen or thread_id
    members = read.get(thread_id, [])
    if not members:
        return {}
    placed = {m["chunk_id"]: m for m in members}
    # a digest of a split-off part of the conversation (its thread id one of the members') joins
    # it, so the answer reads the whole conversation when the digest leads
    joined = {t: thread_id for m in members if (t := m.get("thread_id"))}

    def enriched(records: Sequence[Passage]) -> list[Passage]:
        return [_placed(r, placed.get(r["chunk_id"]), joined) for r in records]

    ranked = enriched(state.get("ranked", []))
    known = {r["chunk_id"] for r in ranked}
    ranked += [m for m in members if m["chunk_id"] not in known]
    shown = enriched(passages)
    shown.sort(key=lambda r: r.get("conversation") != thread_id)  # the chosen one's first
    in_answer = {r["chunk_id"] for r in shown}
    extra = [m for m in members if m["chunk_id"] not in in_answer][:MAX_THREAD_PASSAGES]
    return {
        "ranked": ranked,
        "passages": [*shown, *extra],
        "conversation": thread_id,
        "diagnostics": {
            "timings": {"thread": elapsed_ms(start)},
            "thread": {"conversation": thread_id, "candidates": [asdict(c) for c in weighed]},
        },
    }


def _placed(record: Passage, member: Passage | None, joined: dict[str, str]) -> Passage:
    """``record`` with its place in the thread (its retrieval scores kept)."""
    if member is None:
        conversation = joined.get(record.get("thread_id") or "")
        if record["kind"] in MAIL_KINDS and conversation and not record.get("conversation"):
            return {**record, "conversation": conversation}
        return record
    return {
        **record,
        "author": member.get("author", ""),
        "in_reply_to": member.get("in_reply_to"),
        "references": member.get("references", []),
        "conversation": member.get("conversation", ""),
        "standing": member.get("standing", 0.0),
    }
