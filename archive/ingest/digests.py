"""Thread digests: one synthesized document per multi-message email thread.

A question such as "how was the cylinder crack resolved?" spans a thread: the first message holds
the problem, the last the resolution, and neither matches the question on its own. The digest
(problem -> investigation -> resolution, 200-400 words when the thread has that much to say) puts
the whole arc into passages that compete with the message chunks in retrieval.

Offline the digest is extractive: the first message's problem statement, the middle messages'
most informative sentences, the last substantive message's resolution, every sentence copied from
the messages. With a chat model the model writes it (``prompts.THREAD_DIGEST_PROMPT``), and the
extractive digest stands in when the call fails.

Embedding mode ``full``: a digest runs to 1,300-2,600 characters, so the chunker cuts it into two
or three passages, and the embedding model reads at most 256 tokens. In ``summary`` mode every
passage is embedded as the same text, the digest's first ~190 words (the resolution of a long
digest falls outside), and the context repeats the whole digest per passage. In ``full`` mode
each passage is embedded on its own (a problem-phrased and a resolution-phrased question each find
their part) and the context shows the short summary (subject, problem and resolution gist) above
the passage. Measured on 13 usrp-users questions spanning a thread's first and last messages
(benchmarks/thread_digest_eval.py): digest in the top 5 for all 13 in every variant; digest MRR@10
0.63 with passages embedded under the title (``full``, the embedding text recommended for every
kind), 0.58 in ``summary`` mode, 0.54 with the summary prefixed to each passage.

The digests are regenerated only when their thread changed: each records a hash of its messages'
content hashes in ``metadata["thread_hash"]``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Sequence
from datetime import date

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable

from archive.ingest import prompts
from archive.ingest.digest_text import (
    LLM_MESSAGE_CHARS,
    MAX_WORDS,
    MIN_WORDS,
    ThreadMessage,
    digest_document,
    trim_words,
)
from archive.ingest.enrich import clean_subject
from archive.ingest.model import SourceDocument
from archive.store.database import Store
from archive.store.documents import delete_document
from text.sentences import sentences

logger = logging.getLogger(__name__)


def thread_hash(members: Sequence[tuple[str, str]]) -> str:
    """Hash of a thread's documents: (doc_id, content_hash) pairs, any order."""
    h = hashlib.sha256()
    for doc_id, content in sorted(members):
        h.update(f"{doc_id}\x1f{content}\x1e".encode())
    return h.hexdigest()[:16]


async def build_thread_digests(
    store: Store,
    *,
    model: BaseChatModel | Runnable | None = None,
    min_messages: int = 2,
) -> list[SourceDocument]:
    """Digests of the threads (``min_messages`` emails or more) that are new or changed since
    their digest was made; feed them to :func:`archive.ingest.pipeline.ingest_documents`, then
    call :func:`digests_done` with the same digests.

    Only the threads marked pending are read (``digest_pending``: a trigger marks the thread of
    every email or attachment stored or deleted), so untouched threads cost nothing. Digests of
    threads that no longer qualify are deleted. With ``model`` the digest text is written by the
    chat model (extractive when the call fails).
    """
    pending = await _pending_threads(store)
    if not pending:
        return []
    threads = await _thread_members(store, min_messages, pending)
    existing = await _existing_digests(store, pending)
    for thread_id, (doc_id, _) in existing.items():
        if thread_id not in threads:
            await delete_document(store, doc_id)
            logger.info("deleted the digest of thread %s: it no longer qualifies", thread_id)
    changed = {
        thread_id: digest_hash
        for thread_id, members in threads.items()
        if existing.get(thread_id, ("", ""))[1] != (digest_hash := thread_hash(members))
    }
    await _clear_pending(store, sorted(set(pending) - changed.keys()))
    if not changed:
        return []
    messages = await _thread_messages(store, sorted(changed))
    digests = []
    for thread_id in sorted(changed):
        thread = messages.get(thread_id, [])
        if len(thread) < min_messages:
            continue
        text, method = None, "extractive"
        if model is not None:
            text = await llm_digest_text(model, thread)
            method = "llm" if text else method
        digests.append(
            digest_document(
                thread_id, thread, thread_hash=changed[thread_id], text=text, method=method
            )
        )
    logger.info("thread digests: %d of %d threads new or changed", len(digests), len(threads))
    return digests


async def llm_digest_text(model: BaseChatModel | Runnable, thread: Sequence[ThreadMessage]) -> str:
    """The digest a chat model writes for ``thread`` (cut to ~450 words); "" when the call
    fails (logged), so the extractive digest stands in."""
    subject = clean_subject(thread[0].subject)
    rendered = "\n\n".join(
        f"[{i}] From {m.sender} ({m.date.isoformat() if m.date else 'undated'}):\n"
        f"{m.text[:LLM_MESSAGE_CHARS]}"
        for i, m in enumerate(thread, start=1)
    )
    prompt = prompts.THREAD_DIGEST_PROMPT.format(
        min_words=MIN_WORDS, max_words=MAX_WORDS, subject=subject, messages=rendered
    )
    try:
        reply = await model.ainvoke(prompt)
    except Exception as err:  # the extractive digest stands in; the ingest run goes on
        logger.warning(
            "LLM digest of %r failed, using the extractive one: %s", subject, type(err).__name__
        )
        return ""
    content = reply.content if hasattr(reply, "content") else reply
    return trim_words(str(content).strip(), MAX_WORDS + 50)


async def digests_done(store: Store, digests: Sequence[SourceDocument]) -> None:
    """Take the threads of ``digests`` (now stored) off the pending list."""
    await _clear_pending(store, sorted({d.thread_id for d in digests if d.thread_id}))


async def _pending_threads(store: Store) -> list[str]:
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT thread_id FROM digest_pending ORDER BY thread_id")
        return [r["thread_id"] for r in await cur.fetchall()]


async def _clear_pending(store: Store, thread_ids: Sequence[str]) -> None:
    if thread_ids:
        async with store.pool.connection() as conn:
            await conn.execute(
                "DELETE FROM digest_pending WHERE thread_id = ANY(%s)", (list(thread_ids),)
            )


async def _thread_members(
    store: Store, min_messages: int, thread_ids: Sequence[str]
) -> dict[str, list[tuple[str, str]]]:
    """Those of ``thread_ids`` with at least ``min_messages`` emails: (doc_id, content_hash) of
    their emails and attachments."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT d.thread_id, d.doc_id, d.content_hash FROM documents d
               WHERE d.kind IN ('email', 'attachment') AND d.thread_id IN (
                   SELECT thread_id FROM documents
                   WHERE kind = 'email' AND thread_id = ANY(%s)
                   GROUP BY thread_id HAVING count(*) >= %s)""",
            (list(thread_ids), min_messages),
        )
        rows = await cur.fetchall()
    threads: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        threads.setdefault(r["thread_id"], []).append((r["doc_id"], r["content_hash"]))
    return threads


async def _existing_digests(store: Store, thread_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT thread_id, doc_id, metadata->>'thread_hash' AS hash FROM documents"
            " WHERE kind = 'thread_digest' AND thread_id = ANY(%s)",
            (list(thread_ids),),
        )
        return {r["thread_id"]: (r["doc_id"], r["hash"] or "") for r in await cur.fetchall()}


async def _thread_messages(
    store: Store, thread_ids: Sequence[str]
) -> dict[str, list[ThreadMessage]]:
    """The emails of each thread, oldest first, with their text (chunks joined, the chunker's
    overlap removed) and the names of their attachments."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT d.thread_id, d.kind, d.source_id, d.parent_id, d.title, d.sender, d.date,
                      d.subject, d.metadata,
                      array_agg(c.content ORDER BY c.ordinal) AS chunks
               FROM documents d JOIN chunks c USING (doc_id)
               WHERE d.thread_id = ANY(%s) AND d.kind IN ('email', 'attachment')
               GROUP BY d.doc_id""",
            (list(thread_ids),),
        )
        rows = await cur.fetchall()
    attachments: dict[str, list[str]] = {}
    for r in rows:
        if r["kind"] == "attachment" and r["parent_id"]:
            attachments.setdefault(r["parent_id"], []).append(r["title"])
    threads: dict[str, list[ThreadMessage]] = {}
    for r in rows:
        if r["kind"] != "email":
            continue
        meta = r["metadata"] if isinstance(r["metadata"], dict) else json.loads(r["metadata"])
        sender = re.sub(r"\s+via\s+\S.*$", "", meta.get("from_name", "")).strip().strip('"')
        threads.setdefault(r["thread_id"], []).append(
            ThreadMessage(
                source_id=r["source_id"],
                sender=sender or r["sender"] or "unknown sender",
                date=r["date"],
                subject=r["subject"] or r["title"],
                depth=len(meta.get("references", "").split()),
                text=_join_chunks(r["chunks"]),
                attachments=sorted(attachments.get(r["source_id"], [])),
            )
        )
    for thread in threads.values():
        thread.sort(key=lambda m: (m.date or date.max, m.depth, m.source_id))
    return threads


def _join_chunks(chunks: Sequence[str]) -> str:
    """A message's text from its chunks, the sentences repeated by the chunk overlap dropped."""
    seen: set[str] = set()
    paragraphs: list[str] = []
    for chunk in chunks:
        for paragraph in re.split(r"\n\s*\n", chunk):
            fresh = []
            for key in sentences(paragraph):
                if key and key not in seen:
                    seen.add(key)
                    fresh.append(key)
            if fresh:
                paragraphs.append(" ".join(fresh))
    return "\n\n".join(paragraphs)
