"""The topic ontology: salient phrases per chunk, pooled into one table with their embeddings.

Offline and deterministic: a chunk's candidate phrases are the runs of content words between
stop words and punctuation (RAKE), scored by the corpus-level IDF of their words (the BM25 tables
already hold every stem's document frequency) and preferring multi-word terms. Each distinct
surface form is one topic row, embedded once ("fragments and synonyms kept as separate rows":
"cylinder liner", "liner crack" and "liners" stay apart, and the query-time matcher pools them
by taking the top-K nearest, see :mod:`tools.topics`).

Call :func:`build_topics` after ingest; it reads only chunks it has not read before.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.embeddings import Embeddings

from archive.ingest.topic_writes import AHEAD, NameVectors, TopicBatch, write_batch
from archive.ingest.workers import Embedder, in_process
from archive.store.database import Store
from text.words import STOP_WORDS

logger = logging.getLogger(__name__)

#: Topics kept per chunk.
TOPICS_PER_CHUNK = 5
#: Longest phrase, in words.
MAX_PHRASE_WORDS = 3
#: Words in more than this share of the chunks are too common to name a topic.
MAX_DOCUMENT_SHARE = 0.15
#: Chunks read per database round trip.
BATCH_CHUNKS = 400

_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
_BREAK = re.compile(r"[.,;:!?()\[\]{}<>\"“”|/\\=*#@&+~^$%_\n\t]|\s-\s|--")
_TOKEN = re.compile(r"\S+")
# URLs, e-mail addresses, paths and file names: no topic, and a phrase boundary.
_NOT_PROSE = re.compile(
    r"(?:https?://|www\.)\S+|\S+@\S+|\S*[/\\]\S+|\b[\w-]+\.(?:[a-z]{1,4})\b(?=[\s,;:)]|$)",
    re.IGNORECASE,
)

#: Words that never start, end or sit inside a topic phrase: the stop words, and words as empty
#: in a topic (adverbs, quantifiers, greetings and mail chatter).
PHRASE_BREAKS = STOP_WORDS | frozenset(
    """
    able across actually afterwards almost alone along already also although always among another
    anyhow anyone anything anyway anywhere around ask asked back basically became become becomes
    beforehand behind beside besides best beyond bit cannot cheers could dear done due eg either
    else elsewhere enough etc even ever every everyone everything everywhere except fine first
    former formerly get gets getting good got great hello hence hereafter hereby herein hey hi hope
    however ie indeed keep kind know last latter least left less let lets like look looking looks
    lot lots made make many may maybe meanwhile might mine moreover mostly much must namely need
    needed neither never nevertheless new next nobody none noone nothing nowhere often ok okay old
    one onto others otherwise per perhaps please probably put quite rather re really regards right
    said say says see seem seemed seeming seems several since somehow someone something sometime
    sometimes somewhere sort still sure thank thanks thereafter thereby therefore therein thereupon
    thing things think though thought throughout thru thus together told toward towards tried try
    upon us used using via want wanted way ways well whatever whence whenever whereafter whereas
    whereby wherein whereupon wherever whether whither whoever whole whose within without would yes
    yet
    """.split()  # noqa: SIM905 - a word list reads better as text
)


@dataclass(frozen=True)
class TopicStats:
    """What one topic pass did."""

    chunks: int  # chunks read
    links: int  # chunk-topic links written
    new_topics: int  # topic names embedded and added to the ontology
    seconds: float


# --- extraction (pure) --------------------------------------------------------------------


def words_of(text: str) -> list[str]:
    """Lower-case words of ``text`` (letters, inner hyphens and apostrophes)."""
    return [w.lower().replace("’", "'") for w in _WORD.findall(text)]


def candidate_phrases(text: str) -> list[tuple[str, ...]]:
    """Runs of content words between stop words and punctuation, cut to at most three words
    (a longer run gives its word pairs); tokens with digits, URLs, e-mail addresses, paths and
    file names break a run."""
    phrases: list[tuple[str, ...]] = []
    for segment in _BREAK.split(_NOT_PROSE.sub(" | ", text)):
        run: list[str] = []
        for token in _TOKEN.findall(segment):
            word = token.lower().replace("’", "'").strip("'-")
            if (
                not _WORD.fullmatch(word)
                or ("'" in word and not word.endswith("'s"))  # don't, wouldn't, haven't
                or len(word) < 3
                or word in PHRASE_BREAKS
                or word.endswith("'s")
                and word[:-2] in PHRASE_BREAKS
            ):
                phrases.extend(_cut(run))
                run = []
            else:
                run.append(word.removesuffix("'s"))
        phrases.extend(_cut(run))
    return phrases


def _cut(run: list[str]) -> list[tuple[str, ...]]:
    if not run:
        return []
    if len(run) <= MAX_PHRASE_WORDS:
        return [tuple(run)]
    return [tuple(run[i : i + 2]) for i in range(len(run) - 1)]


def extract_topics(
    text: str, idf: Callable[[str], float | None], *, limit: int = TOPICS_PER_CHUNK
) -> list[tuple[str, float]]:
    """The ``limit`` most salient phrases of ``text`` with their scores, best first.

    ``idf(word)`` is the word's inverse document frequency in the corpus, or None when the word
    must not be part of a topic (unknown to the corpus, or too common). A phrase scores the mean
    IDF of its words times ``sqrt(occurrences)`` times ``1 + 0.5 * (words - 1)``; a phrase inside
    a better one already chosen is skipped. Ties break alphabetically, so the result is stable.
    """
    counts = Counter(candidate_phrases(text))
    scored: list[tuple[float, str]] = []
    for phrase, n in counts.items():
        weights = [idf(w) for w in phrase]
        if any(w is None or w <= 0 for w in weights):
            continue
        mean = sum(w for w in weights if w is not None) / len(weights)
        score = mean * math.sqrt(n) * (1.0 + 0.5 * (len(phrase) - 1))
        scored.append((score, " ".join(phrase)))
    scored.sort(key=lambda item: (-item[0], item[1]))
    chosen: list[tuple[str, float]] = []
    for score, name in scored:
        if any(f" {name} " in f" {kept} " for kept, _ in chosen):
            continue
        chosen.append((name, round(score, 4)))
        if len(chosen) == limit:
            break
    return chosen


def idf_table(
    stems: Mapping[str, str | None], df: Mapping[str, int], n_chunks: int
) -> Callable[[str], float | None]:
    """``idf(word)`` from each word's stem and the stems' document frequencies.

    Words whose stem is unknown (a stop word of the text-search configuration), that occur in a
    single chunk (typos, one-off tokens) or in more than :data:`MAX_DOCUMENT_SHARE` of the chunks
    get None.
    """
    n = max(n_chunks, 1)

    def idf(word: str) -> float | None:
        stem = stems.get(word)
        freq = df.get(stem, 0) if stem else 0
        if freq == 0 or (freq < 2 and n >= 50) or (freq > MAX_DOCUMENT_SHARE * n and n >= 20):
            return None
        return math.log(1.0 + (n - freq + 0.5) / (freq + 0.5))

    return idf


# --- the pass over the store --------------------------------------------------------------


async def build_topics(
    store: Store,
    embeddings: Embeddings,
    *,
    doc_ids: Sequence[str] | None = None,
    per_chunk: int = TOPICS_PER_CHUNK,
    batch: int = BATCH_CHUNKS,
    on_batch: Callable[[int], object] | None = None,
    embed: Embedder | None = None,
) -> TopicStats:
    """Extract topics of every chunk not read before (of ``doc_ids`` only, when given), add new
    topic names to the ontology with their embeddings, and link the chunks to their topics.

    Documents indexed by metadata only (images, binaries) get no topics. ``on_batch`` is
    told how many chunks each batch read (a progress bar's ``update``). ``embed``: where the
    new names are embedded (default: ``embeddings`` in a thread; a worker pool shares them out).

    A pass that reads at least as many chunks as the ontology ever had names (a first ingest)
    drops the names' vector index and builds it once at the end (:func:`_bulk_index`).

    Pipelined: while one batch is written, the names of the next :data:`AHEAD` batches embed.
    The result is that of one batch after the other: batches are read, extracted and written in
    the same order, and nothing changes the corpus statistics during the pass (it runs under the
    collection's exclusive ingest lock, or alone).
    """
    loop = asyncio.get_running_loop()
    started = loop.time()
    names = NameVectors(embed or in_process(embeddings))
    tally = TopicStats(0, 0, 0, 0.0)
    n_chunks = await _chunk_total(store)
    await _bulk_index(store)
    queue: deque[TopicBatch] = deque()
    after = ""
    try:
        while rows := await _unscanned(store, after, batch, doc_ids):
            after = rows[-1]["chunk_id"]
            queue.append(await _extract(store, rows, n_chunks, per_chunk, names))
            while len(queue) > AHEAD:
                tally = await _written(store, queue.popleft(), names, tally, on_batch)
        while queue:
            tally = await _written(store, queue.popleft(), names, tally, on_batch)
    finally:
        names.cancel()
    await _ensure_index(store)  # also after a pass stopped between the drop and the build
    return replace(tally, seconds=loop.time() - started)


async def _bulk_index(store: Store) -> None:
    """Drop the names' vector index when this pass reads at least as many chunks as the
    ontology ever had names (its highest topic id): such a pass (a first ingest) adds names by
    the tens of thousands, ~2 per chunk on NTSB, and building the index once afterwards is ~5x
    cheaper than inserting each name (34,322 NTSB names: 38.5 s inserted one by one, 8.1 s
    built). Adding a few documents to a large collection never rebuilds it."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT (SELECT count(*) FROM topic_pending) AS pending,"
            " (SELECT coalesce(max(topic_id), 0) FROM topics) AS names"
        )
        row = await cur.fetchone()
        if row is not None and row["pending"] > 0 and row["pending"] >= row["names"]:
            logger.info("topics: %d chunks to read, %d names: index built after", *row.values())
            await conn.execute("DROP INDEX IF EXISTS topics_embedding_hnsw")


async def _ensure_index(store: Store) -> None:
    """The names' vector index, as migration 003 made it (a no-op when it is there)."""
    async with store.pool.connection() as conn:
        await conn.execute(
            "CREATE INDEX IF NOT EXISTS topics_embedding_hnsw ON topics"
            " USING hnsw (embedding vector_cosine_ops)"
        )


async def _extract(
    store: Store, rows: list[dict[str, Any]], n_chunks: int, per_chunk: int, names: NameVectors
) -> TopicBatch:
    """The topics of each chunk of ``rows``; names the ontology lacks start embedding."""
    texts = {r["chunk_id"]: f"{r['title']}\n{r['content']}" for r in rows if r["indexed"]}
    stems, df = await _stems_and_df(store, {w for t in texts.values() for w in words_of(t)})
    idf = idf_table(stems, df, n_chunks)
    found = {cid: extract_topics(text, idf, limit=per_chunk) for cid, text in texts.items()}
    batch = TopicBatch([r["chunk_id"] for r in rows], found)
    batch.missing = await _missing(store, batch.names)
    names.want(batch.missing)
    return batch


async def _written(
    store: Store,
    batch: TopicBatch,
    names: NameVectors,
    tally: TopicStats,
    on_batch: Callable[[int], object] | None,
) -> TopicStats:
    """Write ``batch`` and add it to ``tally``."""
    new = await names.take(batch.missing)  # those an earlier batch did not add already
    links = await write_batch(store, batch, new)
    if on_batch is not None:
        on_batch(len(batch.scanned))
    tally = TopicStats(
        tally.chunks + len(batch.scanned), tally.links + links, tally.new_topics + len(new), 0.0
    )
    logger.info(
        "topics: %d chunks read, %d links, %d new topics",
        tally.chunks,
        tally.links,
        tally.new_topics,
    )
    return tally


async def _chunk_total(store: Store) -> int:
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT n_chunks FROM bm25_stats")
        row = await cur.fetchone()
        return int(row["n_chunks"]) if row else 0


async def _unscanned(
    store: Store, after: str, limit: int, doc_ids: Sequence[str] | None
) -> list[dict[str, Any]]:
    # topic_pending holds the chunks not yet read (a trigger adds every chunk stored), so the
    # pass reads only those, not every chunk of the collection (migration 008).
    query = """SELECT c.chunk_id, c.title, c.content, d.embedding_mode <> 'metadata_only' AS indexed
               FROM topic_pending t JOIN chunks c USING (chunk_id) JOIN documents d USING (doc_id)
               WHERE t.chunk_id > %(after)s
                 {docs}
               ORDER BY t.chunk_id LIMIT %(limit)s"""
    params: dict[str, object] = {"after": after, "limit": limit}
    if doc_ids is not None:
        params["docs"] = list(doc_ids)
    query = query.format(docs="AND c.doc_id = ANY(%(docs)s)" if doc_ids is not None else "")
    async with store.pool.connection() as conn:
        cur = await conn.execute(query, params)  # type: ignore[arg-type]
        return [dict(row) for row in await cur.fetchall()]  # type: ignore[call-overload]


async def _stems_and_df(
    store: Store, words: set[str]
) -> tuple[dict[str, str | None], dict[str, int]]:
    """Each word's English stem (as the BM25 index tokenises it) and each stem's chunk count."""
    if not words:
        return {}, {}
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT w.word, s.lexeme, t.df
               FROM unnest(%s::text[]) AS w(word)
               LEFT JOIN LATERAL (
                   SELECT lexeme FROM unnest(to_tsvector('english', w.word)) LIMIT 1
               ) s ON true
               LEFT JOIN bm25_terms t ON t.lexeme = s.lexeme""",
            (sorted(words),),
        )
        rows = await cur.fetchall()
    stems = {r["word"]: r["lexeme"] for r in rows}
    df = {r["lexeme"]: int(r["df"]) for r in rows if r["lexeme"] and r["df"] is not None}
    return stems, df


async def _missing(store: Store, names: set[str]) -> list[str]:
    """``names`` the ontology lacks, sorted."""
    if not names:
        return []
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT name FROM topics WHERE name = ANY(%s)", (sorted(names),))
        return sorted(names - {r["name"] for r in await cur.fetchall()})
