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
from dataclasses import dataclass, field
from datetime import date

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable

from archive.ingest import prompts
from archive.ingest.enrich import SUMMARY_CHARS, clean_subject, clip, informative_sentences
from archive.ingest.model import Section, SourceDocument, short_id
from archive.store.database import Store
from archive.store.documents import delete_document

logger = logging.getLogger(__name__)

MIN_WORDS = 200
MAX_WORDS = 400
#: Word budgets of the digest's parts (the investigation gets what is left of MAX_WORDS).
PROBLEM_WORDS = 110
RESOLUTION_WORDS = 110
#: A sentence longer than this is cut.
SENTENCE_WORDS = 60
#: A last message with fewer informative words than this (a "thanks, that worked") closes the
#: thread but does not hold its resolution.
SUBSTANTIVE_WORDS = 15
#: Characters of each message a chat model sees.
LLM_MESSAGE_CHARS = 2500

_CUES = re.compile(
    r"\b(?:caus\w*|found|find|fix\w*|solv\w*|resolv\w*|replac\w*|repair\w*|work\w*|issue|problem|"
    r"error|fail\w*|because|due to|turn\w* out|root|test\w*|measur\w*|check\w*|suggest\w*|try|"
    r"tried|updat\w*|upgrad\w*|version|instead|solution|confirm\w*|result\w*|show\w*|suspect\w*)\b",
    re.IGNORECASE,
)
_WORDS = re.compile(r"[A-Za-z0-9][\w'’.-]*")


@dataclass
class ThreadMessage:
    """One message of a thread as the store holds it."""

    source_id: str  # Message-ID
    sender: str
    date: date | None
    subject: str
    depth: int  # references before it: the thread order within a day
    text: str
    attachments: list[str] = field(default_factory=list)  # file names


# --- building one digest (pure) -----------------------------------------------------------


def digest_text(subject: str, messages: Sequence[ThreadMessage]) -> str:
    """The extractive problem -> investigation -> resolution digest of a thread, oldest first."""
    if len(messages) < 2:
        raise ValueError("a digest needs at least two messages")
    first = messages[0]
    end = _resolution_index(messages)
    last = messages[end]
    header = (
        f'Thread "{subject}": {len(messages)} messages, {_span(messages)}, between '
        f"{_names(messages)}."
    )
    problem = _take(informative_sentences(first.text), PROBLEM_WORDS)
    resolution = _take(informative_sentences(last.text), RESOLUTION_WORDS, prefer_cues=True)
    closing = messages[end + 1 :]
    used = _count(header) + _count(" ".join(problem)) + _count(" ".join(resolution)) + 8
    middle = messages[1:end]
    findings = _findings(middle, subject, first.text, budget=max(MAX_WORDS - used, 0))

    parts = [header, f"Problem ({_who(first)}): " + (" ".join(problem) or "(no text)")]
    if findings:
        parts.append("Investigation: " + " ".join(findings))
    parts.append(f"Resolution ({_who(last)}): " + (" ".join(resolution) or "(no text)"))
    if closing:
        parts[-1] += f" The thread ends with {_names(closing)} replying ({_span(closing)})."
    text = "\n\n".join(parts)
    return _trim(text, MAX_WORDS)


def digest_summary(subject: str, messages: Sequence[ThreadMessage]) -> str:
    """The digest's context summary: subject, span, the problem's and the resolution's gist
    (each given half of the room the head line leaves)."""
    problem = informative_sentences(messages[0].text)
    last = messages[_resolution_index(messages)]
    resolution = _take(informative_sentences(last.text), 40, prefer_cues=True)
    head = f'Email thread "{subject}", {len(messages)} messages, {_span(messages)}.'
    gist = [
        f"Problem: {problem[0]}" if problem else "",
        f"Resolution: {resolution[0]}" if resolution else "",
    ]
    gist = [g for g in gist if g]
    room = (SUMMARY_CHARS - len(head)) // max(len(gist), 1) - 1
    if room < 30:
        return clip(head, SUMMARY_CHARS)
    return clip(" ".join([head, *(clip(g, room) for g in gist)]), SUMMARY_CHARS)


def digest_document(
    thread_id: str,
    messages: Sequence[ThreadMessage],
    *,
    thread_hash: str,
    text: str | None = None,
    method: str = "extractive",
) -> SourceDocument:
    """The ``thread_digest`` document of a thread (``text`` overrides the extractive digest)."""
    subject = clean_subject(messages[0].subject)
    body = text or digest_text(subject, messages)
    first_date = next((m.date for m in messages if m.date), None)
    last_date = next((m.date for m in reversed(messages) if m.date), None)
    metadata = {
        "messages": " ".join(m.source_id for m in messages),
        "message_count": str(len(messages)),
        "thread_hash": thread_hash,
        "method": method,
    }
    if last_date:
        metadata["last_date"] = last_date.isoformat()
    return SourceDocument(
        kind="thread_digest",
        source_id=f"digest:{thread_id}",
        title=f"Thread digest: {subject}",
        sections=[Section("digest", body)],
        original=body.encode("utf-8"),
        archive_name=f"digest-{short_id(thread_id)}.txt",
        date=first_date,
        subject=subject,
        thread_id=thread_id,
        embedding_mode="full",
        summary=digest_summary(subject, messages),
        metadata=metadata,
    )


def _resolution_index(messages: Sequence[ThreadMessage]) -> int:
    """The last message with substance (a closing "thanks, it works" is not the resolution)."""
    for i in range(len(messages) - 1, 0, -1):
        if _count(" ".join(informative_sentences(messages[i].text))) >= SUBSTANTIVE_WORDS:
            return i
    return len(messages) - 1


def _findings(
    middle: Sequence[ThreadMessage], subject: str, problem: str, *, budget: int
) -> list[str]:
    """Per middle message its most informative sentences (thread terms, cue words, figures), in
    thread order, sharing ``budget`` words; attachments named."""
    if not middle or budget <= 0:
        return []
    keys = {w.lower() for w in _WORDS.findall(f"{subject} {problem}") if len(w) > 3}
    share = max(budget // len(middle), 25)
    out: list[str] = []
    used = 0
    for message in middle:
        sentences = informative_sentences(message.text)
        scored = sorted(
            range(len(sentences)),
            key=lambda i: (-_salience(sentences[i], keys), i),
        )
        chosen: list[int] = []
        words = 0
        for i in scored:
            n = _count(_cap(sentences[i]))
            if words + n > share and chosen:
                continue
            chosen.append(i)
            words += n
            if words >= share:
                break
        picked = [_cap(sentences[i]) for i in sorted(chosen)]
        if message.attachments:
            picked.append(f"Attached: {', '.join(message.attachments)}.")
        if not picked:
            continue
        entry = f"{_who(message)}: {' '.join(picked)}"
        if used + _count(entry) > budget and out:
            break
        out.append(entry)
        used += _count(entry)
    return out


def _salience(sentence: str, keys: set[str]) -> float:
    words = [w.lower() for w in _WORDS.findall(sentence)]
    overlap = len(keys & set(words))
    return overlap + 1.5 * len(_CUES.findall(sentence)) + 0.5 * any(c.isdigit() for c in sentence)


def _take(sentences: list[str], budget: int, *, prefer_cues: bool = False) -> list[str]:
    """Whole sentences up to ``budget`` words: in order, or (``prefer_cues``) those with cue
    words first, then restored to their order. The first sentence is always kept (cut if long)."""
    capped = [_cap(s) for s in sentences]
    if not capped:
        return []
    order = list(range(len(capped)))
    if prefer_cues:
        order.sort(key=lambda i: (-len(_CUES.findall(capped[i])), i))
    chosen: list[int] = []
    words = 0
    for i in order:
        n = _count(capped[i])
        if chosen and words + n > budget:
            continue
        chosen.append(i)
        words += n
    return [capped[i] for i in sorted(chosen)]


def _cap(sentence: str) -> str:
    words = sentence.split()
    return sentence if len(words) <= SENTENCE_WORDS else " ".join(words[:SENTENCE_WORDS]) + " …"


def _trim(text: str, max_words: int) -> str:
    words = text.split(" ")
    if _count(text) <= max_words:
        return text
    kept: list[str] = []
    n = 0
    for word in words:
        n += len(_WORDS.findall(word))
        if n > max_words:
            break
        kept.append(word)
    return " ".join(kept).rstrip(" ,;:") + " …"


def _count(text: str) -> int:
    return len(_WORDS.findall(text))


def _who(message: ThreadMessage) -> str:
    return f"{message.sender}, {message.date.isoformat()}" if message.date else message.sender


def _names(messages: Sequence[ThreadMessage]) -> str:
    names = list(dict.fromkeys(m.sender for m in messages))
    return ", ".join(names[:4]) + (f" and {len(names) - 4} others" if len(names) > 4 else "")


def _span(messages: Sequence[ThreadMessage]) -> str:
    dates = [m.date for m in messages if m.date]
    if not dates:
        return "undated"
    lo, hi = min(dates), max(dates)
    return lo.isoformat() if lo == hi else f"{lo.isoformat()} to {hi.isoformat()}"


# --- the pass over the store --------------------------------------------------------------


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
    their digest was made; feed them to :func:`archive.ingest.pipeline.ingest_documents`.

    Digests of threads that no longer qualify are deleted. With ``model`` the digest text is
    written by the chat model (extractive when the call fails).
    """
    threads = await _thread_members(store, min_messages)
    existing = await _existing_digests(store)
    for thread_id, (doc_id, _) in existing.items():
        if thread_id not in threads:
            await delete_document(store, doc_id)
            logger.info("deleted the digest of thread %s: it no longer qualifies", thread_id)
    changed = {
        thread_id: digest_hash
        for thread_id, members in threads.items()
        if existing.get(thread_id, ("", ""))[1] != (digest_hash := thread_hash(members))
    }
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
    return _trim(str(content).strip(), MAX_WORDS + 50)


async def _thread_members(store: Store, min_messages: int) -> dict[str, list[tuple[str, str]]]:
    """Threads with at least ``min_messages`` emails: (doc_id, content_hash) of their emails and
    attachments."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT d.thread_id, d.doc_id, d.content_hash FROM documents d
               WHERE d.kind IN ('email', 'attachment') AND d.thread_id IN (
                   SELECT thread_id FROM documents WHERE kind = 'email' AND thread_id IS NOT NULL
                   GROUP BY thread_id HAVING count(*) >= %s)""",
            (min_messages,),
        )
        rows = await cur.fetchall()
    threads: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        threads.setdefault(r["thread_id"], []).append((r["doc_id"], r["content_hash"]))
    return threads


async def _existing_digests(store: Store) -> dict[str, tuple[str, str]]:
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT thread_id, doc_id, metadata->>'thread_hash' AS hash FROM documents"
            " WHERE kind = 'thread_digest' AND thread_id IS NOT NULL"
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
            for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
                key = " ".join(sentence.split())
                if key and key not in seen:
                    seen.add(key)
                    fresh.append(key)
            if fresh:
                paragraphs.append(" ".join(fresh))
    return "\n\n".join(paragraphs)
