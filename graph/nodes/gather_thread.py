"""For a fix or cause question about a mail thread, gather the thread's messages: the answer
comes from its replies (and is cited to them), not only from the chunks retrieval ranked."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence

from answers.aspects import question_aspect
from answers.thread_answer import THREAD_ASPECTS
from answers.threads import MAIL_KINDS, mail_thread_ids
from archive.store.passages import Passage
from graph.state import State
from tools.timing import elapsed_ms

#: The emails of whole threads by thread id (``archive.store.threads.thread_messages``).
ThreadReader = Callable[[Sequence[str]], Awaitable[dict[str, list[Passage]]]]
#: Most of a thread's chunks added to the answer's passages (what a chat model reads).
MAX_THREAD_PASSAGES = 10
#: Threads gathered: the best passage's and those of the next mail passages, since the answer
#: may lead with one of those (a passage naming what the question names goes first).
MAX_THREADS = 5


async def gather_thread(state: State, *, threads: ThreadReader | None) -> State:
    """Add the messages of the best passage's mail thread (and of the next few mail passages'
    threads) to the turn's retrieved passages, so the reply that states the fix can be cited,
    and the best thread's to the answer's passages, oldest first; retrieved chunks of them get
    their place in the thread (author, reply-to)."""
    passages = state.get("passages", [])
    thread_ids = mail_thread_ids(passages, MAX_THREADS)
    if threads is None or not thread_ids:
        return {}
    if question_aspect(state.get("question", "")) not in THREAD_ASPECTS:
        return {}
    start = time.perf_counter()
    gathered = await threads(thread_ids)
    if not gathered.get(thread_ids[0]):
        return {}
    placed: dict[str, Passage] = {}
    for thread_id in thread_ids:  # a message in two conversations stays in the better one's
        for member in gathered.get(thread_id, []):
            placed.setdefault(member["chunk_id"], member)
    members = list(placed.values())
    first = [placed[m["chunk_id"]] for m in gathered[thread_ids[0]]]

    # a digest (or a chunk gathered under no conversation) joins the conversation its thread's
    # messages were placed in, so the answer reads the same messages whichever leads
    joined = {t: m.get("conversation") for m in members if (t := m.get("thread_id"))}

    def enriched(records: Sequence[Passage]) -> list[Passage]:
        return [_placed(r, placed.get(r["chunk_id"]), joined) for r in records]

    ranked = enriched(state.get("ranked", []))
    known = {r["chunk_id"] for r in ranked}
    ranked += [m for m in members if m["chunk_id"] not in known]
    shown = enriched(passages)
    in_answer = {r["chunk_id"] for r in shown}
    extra = [m for m in first if m["chunk_id"] not in in_answer][:MAX_THREAD_PASSAGES]
    return {
        "ranked": ranked,
        "passages": [*shown, *extra],
        "diagnostics": {"timings": {"thread": elapsed_ms(start)}},
    }


def _placed(record: Passage, member: Passage | None, joined: dict[str, str | None]) -> Passage:
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
    }
