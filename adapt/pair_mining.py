"""Training pairs mined from what a collection holds, with no labels (`bosun adapt`).

Each rule pairs a short text that asks or states with a passage that answers or tells it, as the
archive wrote them:

- ``sections``: a report's probable cause / findings / summary ↔ its narrative / analysis; a
  report without such sections pairs each section's opening with the next section;
- ``thread``: a mail thread's first message ↔ its last reply (the resolving one), and a message's
  subject ↔ its body;
- ``title``: a headline-like title ↔ its document's first passage (SciFact: title ↔ abstract);
- ``cloze``: a sentence ↔ the rest of its passage (the inverse cloze task), for passages no other
  rule covers (BEIR narratives without their probable cause).

Positives are the text the collection embeds for that passage (:func:`embedding_text`), so the
model learns the space it is queried in. Hard negatives come from Bosun's own hybrid retrieval:
for an anchor, a passage ranked just below the top that belongs to another document.
"""

from __future__ import annotations

import logging
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.embeddings import Embeddings

from archive.ingest.reembed import stored_embedding_text
from archive.ingest.writer import reads_as_text
from archive.store.database import Store
from archive.store.search_filters import SearchFilters
from text.sentences import sentences as split_sentences
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

logger = logging.getLogger(__name__)

_STATES = re.compile(
    r"probable cause|finding|conclusion|summary|synopsis|abstract|overview|cause", re.I
)
MIN_WORDS = 6  # shorter anchors say too little to pair on
MAX_ANCHOR_CHARS = 600


@dataclass(frozen=True)
class Pair:
    """An anchor, a passage that answers it, and optionally a passage that looks close but does
    not (a hard negative)."""

    anchor: str
    positive: str
    negative: str | None = None
    source: str = ""  # how it was mined: "sections", "thread", "title", "cloze", "query"


@dataclass(frozen=True)
class MinedChunk:
    """One stored passage and what its document says about it."""

    chunk_id: str
    doc_id: str
    source_id: str
    ordinal: int
    kind: str
    section: str | None
    content: str
    title: str
    subject: str | None = None
    thread_id: str | None = None
    date: str | None = None
    embedding_mode: str = "full"
    summary: str = ""

    @property
    def embedded(self) -> str:
        """The text the collection embeds for this passage (as the writer does)."""
        return embedded_text(self.title, self.content, self.embedding_mode, self.summary)


def embedded_text(title: str, content: str, mode: str = "full", summary: str = "") -> str:
    """What the collection embeds for a passage, from its stored columns."""
    return stored_embedding_text(title, content, mode, summary)


def _words(text: str) -> int:
    return len(text.split())


def _anchor(text: str) -> str:
    return text.strip()[:MAX_ANCHOR_CHARS]


def section_pairs(chunks: Sequence[MinedChunk]) -> list[Pair]:
    """A report's stating sections ↔ its telling ones; else each section ↔ the next."""
    sections: dict[str, list[MinedChunk]] = defaultdict(list)
    for chunk in chunks:
        sections[chunk.section or ""].append(chunk)
    if len(sections) < 2:
        return []
    stating = [name for name in sections if _STATES.search(name)]
    telling = [name for name in sections if name not in stating]
    pairs: list[Pair] = []
    if stating and telling:
        for name in stating:
            anchor = _anchor(" ".join(c.content for c in sections[name]))
            if _words(anchor) < MIN_WORDS:
                continue
            for other in telling:
                pairs += [Pair(anchor, c.embedded, source="sections") for c in sections[other]]
        return pairs
    names = list(sections)
    for first, second in zip(names, names[1:], strict=False):
        anchor = _anchor(sections[first][0].content)
        if _words(anchor) >= MIN_WORDS:
            pairs.append(Pair(anchor, sections[second][0].embedded, source="sections"))
    return pairs


def title_pairs(chunks: Sequence[MinedChunk]) -> list[Pair]:
    """A headline-like title (or a mail subject) ↔ the document's first passage."""
    first = chunks[0]
    title = (first.subject or first.title or "").strip()
    title = re.sub(r"^(re|fwd?|aw|wg)\s*:\s*", "", title, flags=re.I)
    if _words(title) < 3 or not reads_as_text(title):
        return []
    # The positive must not contain the anchor verbatim (the embedded text carries the title).
    return [Pair(title, first.content, source="title")]


def thread_pairs(messages: Sequence[MinedChunk]) -> list[Pair]:
    """A thread's first message ↔ its last reply (first passages of each, by date)."""
    ordered = sorted(messages, key=lambda c: (c.date or "", c.doc_id))
    if len(ordered) < 2:
        return []
    question, answer = ordered[0], ordered[-1]
    if _words(question.content) < MIN_WORDS or _words(answer.content) < MIN_WORDS:
        return []
    return [Pair(_anchor(question.content), answer.embedded, source="thread")]


def cloze_pair(chunk: MinedChunk, rng: random.Random) -> Pair | None:
    """One sentence of the passage ↔ the passage without it (the inverse cloze task)."""
    sentences = split_sentences(chunk.content)
    choices = [i for i, s in enumerate(sentences) if _words(s) >= MIN_WORDS]
    if len(sentences) < 3 or not choices:
        return None
    pick = rng.choice(choices)
    rest = " ".join(s for i, s in enumerate(sentences) if i != pick)
    positive = embedded_text(chunk.title, rest, chunk.embedding_mode, "")
    return Pair(_anchor(sentences[pick]), positive, source="cloze")


def mine_chunks(
    chunks: Iterable[MinedChunk], *, seed: int = 13, cloze_per_doc: int = 1
) -> list[Pair]:
    """Every pair the rules find in ``chunks`` (any order), deterministic for a ``seed``."""
    rng = random.Random(seed)
    by_doc: dict[str, list[MinedChunk]] = defaultdict(list)
    threads: dict[str, list[MinedChunk]] = defaultdict(list)
    for chunk in chunks:
        by_doc[chunk.doc_id].append(chunk)
    pairs: list[Pair] = []
    for doc_id in sorted(by_doc):
        doc = sorted(by_doc[doc_id], key=lambda c: c.ordinal)
        if doc[0].thread_id and doc[0].kind == "email":
            threads[doc[0].thread_id].append(doc[0])
        found = section_pairs(doc) + title_pairs(doc)
        if not found:
            candidates = [p for c in doc if (p := cloze_pair(c, rng)) is not None]
            rng.shuffle(candidates)
            found = candidates[:cloze_per_doc]
        pairs += found
    for thread_id in sorted(threads):
        pairs += thread_pairs(threads[thread_id])
    return pairs


def count_sources(pairs: Iterable[Pair]) -> dict[str, int]:
    """How many pairs each rule gave (and how many carry a hard negative)."""
    counts: dict[str, int] = defaultdict(int)
    for pair in pairs:
        counts[pair.source] += 1
        if pair.negative:
            counts["hard_negatives"] += 1
    return dict(sorted(counts.items()))


_ROWS = """
SELECT c.chunk_id, c.doc_id, d.source_id, c.ordinal, c.kind, c.section, c.content, d.title,
       d.subject, d.thread_id, d.date::text AS date, d.embedding_mode, d.summary
FROM chunks c JOIN documents d USING (doc_id)
WHERE d.embedding_mode <> 'metadata_only'
ORDER BY c.doc_id, c.ordinal
"""


async def stored_chunks(store: Store) -> list[MinedChunk]:
    """Every embedded passage of the collection, with its document's fields."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(_ROWS)
        rows: list[Any] = await cur.fetchall()
    return [MinedChunk(**dict(row)) for row in rows]


async def add_hard_negatives(
    store: Store,
    embeddings: Embeddings,
    pairs: Sequence[Pair],
    doc_of: Mapping[str, str],
    *,
    skip: int = 2,
    depth: int = 10,
    seed: int = 13,
) -> list[Pair]:
    """Give each pair a hard negative: one of hybrid retrieval's ranks ``skip + 1 .. depth`` for
    its anchor that is another document's passage (the very top is skipped, where unlabelled
    duplicates of the positive sit); a pair that has one (from feedback) keeps it. ``doc_of``
    maps a positive's text to its document."""
    rng = random.Random(seed)
    options = RetrievalConfig(k=depth)
    out: list[Pair] = []
    for pair in pairs:
        if pair.negative is not None:  # feedback named one
            out.append(pair)
            continue
        found = await retrieve(store, embeddings, pair.anchor, SearchFilters(), options)
        own = doc_of.get(pair.positive)
        others = [p for p in found.candidates[skip:] if p["doc_id"] != own]
        if not others:
            out.append(pair)
            continue
        pick = rng.choice(others)
        negative = embedded_text(pick["title"], pick["text"], pick["embedding_mode"], "")
        out.append(replace(pair, negative=negative))
    return out
