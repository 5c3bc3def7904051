"""The messages of a whole mail conversation, as passages that know their place in it: who
wrote each (the From name; a mailing list's "Ann via List" is Ann), the message it answers and
the messages it references. A fix or cause question is answered from the replies of the
conversation its best passage belongs to, not only from the chunks retrieval happened to rank.

A conversation is the passage's thread (Message-ID / In-Reply-To / References) plus the mails
of the same subject ("Re: X" is X) around its dates: a list archive that lacks a thread's first
message splits it into several threads, each rooted at a different missing message.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from archive.store.database import Store
from archive.store.passages import PASSAGE_COLUMNS, Passage, passage_of
from text.models import written_forms

#: Most chunks read for one conversation (the oldest are kept: the question and the replies).
MAX_THREAD_CHUNKS = 120
#: Mails of the same subject this many days around the thread's belong to its conversation.
SUBJECT_WINDOW = timedelta(days=120)
#: A mailing list rewrites From to "Name via List <list@...>": the name is the author.
_VIA = re.compile(r"\s+via\s+\S.*$", re.IGNORECASE)
#: Reply and forward prefixes and list tags ("Re: [USRP-users] RE: Fwd: X" is "X").
_PREFIXES = re.compile(
    r"^(?:\s*(?:\[[^\]]{0,60}\]|(?:re|fwd?|aw|sv|antw)\s*(?:\[\d+\])?\s*:|\w+\s*:\s*re\s*:))+",
    re.IGNORECASE,
)

_EMAILS = f"""SELECT {PASSAGE_COLUMNS}, d.metadata AS doc_metadata
    FROM chunks c JOIN documents d USING (doc_id)
    WHERE d.kind = 'email' AND ({{where}})
    ORDER BY d.date NULLS LAST, d.doc_id, c.ordinal LIMIT %(limit)s"""


def author_of(from_name: str, sender: str | None) -> str:
    """Who wrote a message: its From name without a list's " via List", else its address."""
    name = _VIA.sub("", from_name or "").strip().strip("\"'")
    return name or (sender or "").strip() or "unknown sender"


def author_key(author: str) -> str:
    """Who a message is from, comparable across spellings ("Marcus D. Leech" = "marcus d leech",
    and a From with no name, "tommytsui@w5tech.com", = "Tommy Tsui": an address counts by the
    part before its "@"; a note after the name, "Pedro Vieira (Gmail - Geral)", is no part of
    it)."""
    folded = re.sub(r"\s*\([^()]*\)\s*$", "", author.casefold().strip()) or author.casefold()
    if re.fullmatch(r"[^@\s]+@[^@\s]+", folded):
        folded = folded.split("@", 1)[0]
    return re.sub(r"[^a-z0-9]+", "", folded)


def root_subject(subject: str) -> str:
    """A subject without reply prefixes and list tags, case and spacing folded."""
    return " ".join(_PREFIXES.sub("", subject or "").split()).casefold()


async def thread_messages(
    store: Store, thread_ids: Sequence[str], *, limit: int = MAX_THREAD_CHUNKS
) -> dict[str, list[Passage]]:
    """For each of ``thread_ids``, every chunk of the emails of its conversation (attachments
    and digests aside), oldest first, each with ``author``, ``in_reply_to``, ``references``,
    ``conversation`` (the thread id asked for) and ``standing`` (how often its author answers
    others on the list, :func:`standings`); an unknown thread is absent."""
    out: dict[str, list[Passage]] = {}
    ranks: dict[str, float] | None = None
    for thread_id in dict.fromkeys(thread_ids):
        rows = await _rows(store, "d.thread_id = %(thread)s", {"thread": thread_id}, limit)
        subjects = {root_subject(r["subject"] or r["title"]) for r in rows} - {""}
        days = [r["date"] for r in rows if r["date"] is not None]
        if subjects and days:
            rows += await _same_subject(store, subjects, min(days), max(days), limit)
        members = _members(thread_id, rows, limit)
        if members:
            ranks = await standings(store) if ranks is None else ranks
            for member in members:
                member["standing"] = ranks.get(author_key(member["author"]), 0.0)
            out[thread_id] = members
    return out


#: Every email's thread, author and whether it answers another message: who answers whom.
_POSTS = """SELECT d.thread_id, d.metadata->>'from_name' AS from_name, d.sender,
        coalesce(d.metadata->>'in_reply_to', '') <> '' AS answers
    FROM documents d WHERE d.kind = 'email' AND d.thread_id IS NOT NULL
    ORDER BY d.thread_id, d.date NULLS LAST, d.doc_id"""


async def standings(store: Store) -> dict[str, float]:
    """How often each author (:func:`author_key`) answers others on the list, read from the
    archive itself: the share of the list's repliers who wrote in fewer threads opened by
    someone else (a thread's opener is its first message that answers none, else its first).
    An author who never answered another's thread is absent (standing 0)."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(_POSTS)
        rows: Any = await cur.fetchall()
    posts: dict[str, list[tuple[str, bool]]] = {}
    for row in rows:
        who = author_key(author_of(str(row["from_name"] or ""), row["sender"]))
        posts.setdefault(str(row["thread_id"]), []).append((who, bool(row["answers"])))
    answered: dict[str, int] = {}
    for thread in posts.values():
        opener = next((who for who, answers in thread if not answers), thread[0][0])
        for who in {who for who, _ in thread} - {opener}:
            answered[who] = answered.get(who, 0) + 1
    counts = sorted(answered.values())
    return {who: bisect_left(counts, n) / len(counts) for who, n in answered.items()}


async def _same_subject(
    store: Store, subjects: set[str], first: date, last: date, limit: int
) -> list[Any]:
    """Emails whose root subject is one of ``subjects``, dated around ``first``..``last``."""
    params: dict[str, Any] = {
        "since": first - SUBJECT_WINDOW,
        "until": last + SUBJECT_WINDOW,
        "patterns": [f"%{_escaped(s)}%" for s in subjects],
    }
    where = "d.date BETWEEN %(since)s AND %(until)s AND d.subject ILIKE ANY(%(patterns)s)"
    rows = await _rows(store, where, params, limit)
    return [r for r in rows if root_subject(r["subject"] or r["title"]) in subjects]


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


async def _rows(store: Store, where: str, params: dict[str, Any], limit: int) -> list[Any]:
    async with store.pool.connection() as conn:
        cur = await conn.execute(_EMAILS.format(where=where), {**params, "limit": limit})
        return list(await cur.fetchall())


def _members(conversation: str, rows: Sequence[Any], limit: int) -> list[Passage]:
    out: list[Passage] = []
    seen: set[str] = set()
    for row in rows:
        if row["chunk_id"] in seen or len(out) >= limit:
            continue
        seen.add(row["chunk_id"])
        meta = row["doc_metadata"]
        meta = meta if isinstance(meta, dict) else json.loads(meta or "{}")
        passage = passage_of(row)
        passage["author"] = author_of(str(meta.get("from_name") or ""), row["sender"])
        passage["in_reply_to"] = str(meta.get("in_reply_to") or "") or None
        passage["references"] = str(meta.get("references") or "").split()
        passage["conversation"] = conversation
        out.append(passage)
    return out


#: Most threads read for one pattern question over the list (the latest first).
MAX_TOPIC_THREADS = 60
#: Each English stem of the list's emails: the share of email chunks that hold it, and how
#: often a chunk that holds it says it.
_SHARES = """SELECT word, ndoc::float / greatest(1, (SELECT count(*) FROM chunks
        WHERE kind = 'email')) AS share, nentry::float / ndoc AS burst
    FROM ts_stat('SELECT to_tsvector(''english'', content) FROM chunks WHERE kind = ''email''')"""


#: Threads a way of matching a topic must find before a looser way is tried, and so few
#: that a pattern needs more (a pattern over fewer threads has nothing to group).
MIN_TOPIC_THREADS = 10
_TOPIC_THREADS = """SELECT c.thread_id, max(d.date) AS latest
    FROM chunks c JOIN documents d USING (doc_id)
    WHERE d.kind = 'email' AND c.thread_id IS NOT NULL
    GROUP BY c.thread_id
    HAVING to_tsvector('english', string_agg(c.content, ' ')) @@ ({query})
    ORDER BY latest DESC NULLS LAST, c.thread_id"""


#: How the threads of a topic were matched (:func:`_topic_threads`).
PHRASE, WORDS, MOST_WORDS, ANY_WORD = "phrase", "words", "most words", "any word"


async def _topic_threads(
    store: Store, topic: str, least: int, *, any_word: bool = False
) -> tuple[list[str], str]:
    """The threads that mention ``topic``, latest first, and how they were matched: the
    strictest way that finds ``least`` threads (:data:`MIN_TOPIC_THREADS`): its words as a
    phrase ("no devices found", an error message, a term), else all of its words anywhere in
    the thread, else, for three words or more, all but one of them ("external reference
    clock": "external clock", "reference clock"), else, with ``any_word`` and two words or
    more, any one of them (the words of things asked about together, "N310 and N320"). The
    last way tried stands when none finds that many."""
    words = topic.split()
    params: dict[str, Any] = {"topic": topic} | {f"w{i}": w for i, w in enumerate(words)}
    each = []  # each word's query, with the other ways a model name is written
    for i, word in enumerate(words):
        forms = written_forms(word)
        params |= {f"w{i}f{j}": form for j, form in enumerate(forms)}
        alternatives = [f"phraseto_tsquery('english', %(w{i}f{j})s)" for j in range(len(forms))]
        each.append(" || ".join([f"plainto_tsquery('english', %(w{i})s)", *alternatives]))
    all_words = "plainto_tsquery('english', %(topic)s)"
    if any(written_forms(w) for w in words):  # "B200mini" also as "B200 mini", "B200-mini"
        all_words = " && ".join(f"({q})" for q in each)
    ways = [(WORDS, all_words)]
    if len(words) > 1:
        ways.insert(0, (PHRASE, "phraseto_tsquery('english', %(topic)s)"))
    if len(words) >= 3:
        ways.append((MOST_WORDS, _all_but_one(each)))
    if any_word and len(words) > 1:
        ways.append((ANY_WORD, _any_of(each)))
    found: tuple[list[str], str] = ([], WORDS)
    for how, way in ways:
        async with store.pool.connection() as conn:
            cur = await conn.execute(_TOPIC_THREADS.format(query=way), params)
            rows: Any = await cur.fetchall()
        found = ([str(r["thread_id"]) for r in rows], how)
        if len(found[0]) >= least:
            break
    return found


def _all_but_one(each: Sequence[str]) -> str:
    """A text query that holds when all but one of the words' queries ``each`` do."""
    n = len(each)
    return " || ".join(
        "(" + " && ".join(f"({each[j]})" for j in range(n) if j != i) + ")" for i in range(n)
    )


def _any_of(each: Sequence[str]) -> str:
    """A text query that holds when any of the words' queries ``each`` does."""
    return " || ".join(f"({q})" for q in each)


@dataclass(frozen=True)
class TopicSet:
    """The conversations that mention a topic."""

    matched: int  # threads whose emails mention it
    conversations: dict[str, list[Passage]] = field(default_factory=dict)  # those read
    shares: dict[str, float] = field(default_factory=dict)  # stem -> share of email chunks
    #: stem -> its mean count in the email chunks that hold it (a topic's word comes in bursts:
    #: "dram" 1.9; talk is spread evenly: "maybe" 1.1)
    bursts: dict[str, float] = field(default_factory=dict)
    how: str = WORDS  # PHRASE | WORDS | MOST_WORDS: how the threads were matched


async def topic_conversations(
    store: Store,
    topic: str,
    *,
    limit: int = MAX_TOPIC_THREADS,
    least: int = MIN_TOPIC_THREADS,
    any_word: bool = False,
) -> TopicSet:
    """The conversations whose emails mention ``topic`` (:func:`_topic_threads`: PostgreSQL's
    English text search over each thread's emails together, digests aside: one message may
    name the device, another the problem): how many threads match, the latest
    ``limit`` of them as :func:`thread_messages` reads them (one conversation reached from two
    of its threads once), and each stem's share of the list's email chunks and burstiness
    (also when no thread matches); ``any_word``: a thread mentioning any one of its words
    matches at last (:func:`_topic_threads`)."""
    ids, how = await _topic_threads(store, topic, least, any_word=any_word)
    conversations = await thread_messages(store, ids[:limit])
    out: dict[str, list[Passage]] = {}
    seen: set[frozenset[str]] = set()
    for thread_id, members in conversations.items():
        key = frozenset(p["doc_id"] for p in members)
        if key not in seen:
            seen.add(key)
            out[thread_id] = members
    # the list's word statistics even when nothing matched: they tell which of the topic's
    # words the list talks about as subjects, for a narrower reading of the topic
    async with store.pool.connection() as conn:
        cur = await conn.execute(_SHARES)
        shares: Any = await cur.fetchall()
    return TopicSet(
        len(ids),
        out,
        {str(r["word"]): float(r["share"]) for r in shares},
        {str(r["word"]): float(r["burst"]) for r in shares},
        how,
    )
