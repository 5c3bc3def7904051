"""The queries `bosun adapt` fits the reranker on, how they are split so that each is embedded by
a head that never saw it (cross-fitting), and the (query, passage) pairs made of them for the
head and the collection's vocabulary.

They are the training queries (``--queries`` without the ``--hold-out`` fold) or, without them,
the question-like anchors mined from the collection (a report's probable cause or findings, a
thread's first message) with the documents they are about as the relevant ones; plus the
bundled train split of the off-topic questions. No test query is used.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources

from adapt.pair_mining import MinedChunk, Pair, mine_chunks
from adapt.translation import fit_translation
from providers.rerankers.translation import TranslationModel

MAX_QUERIES = 1000  # in-domain queries the reranker is fitted on at most
QUESTION_RULES = ("sections", "thread")  # mined pairs whose anchor reads like a question
EXCLUDE_CHARS = 200  # a candidate holding this much of a mined anchor is the anchor's own passage


#: (query id -> text, query id -> relevant corpus ids, description) of ``--queries``.
QuerySource = tuple[dict[str, str], dict[str, list[str]], str]


@dataclass(frozen=True)
class LabelledQuery:
    """A training query: its text, its relevant documents (source ids) and, for a mined
    anchor, the text that marks its own passage (left out: it would teach exact copies)."""

    text: str
    relevant: frozenset[str]
    own: str = ""


@dataclass(frozen=True)
class CrossFitPlan:
    """The training queries split in two halves; each half is embedded by a head fitted
    without it, so the reranker and the thresholds are fitted on cosines of queries the
    embedder never saw (as the queries it will be asked are). Fitted on the head's own training
    queries instead, the reranker learnt that a relevant passage's cosine is far higher than it
    is for a new question (measured: held-out nDCG@10 0.41 against 0.68 in-sample, pc2narr
    fold 1)."""

    halves: tuple[list[LabelledQuery], list[LabelledQuery]]
    head_sources: tuple[QuerySource, QuerySource]  # each half's head is fitted on these
    skip_anchors: tuple[frozenset[str], frozenset[str]]  # ... and without these mined anchors
    described: str  # what the halves are


def cross_fit_plan(
    chunks: list[MinedChunk], query_source: QuerySource, *, limit: int = MAX_QUERIES
) -> CrossFitPlan:
    """The training queries (``--queries`` without the held-out fold, else the mined
    question-like anchors) in two halves by a hash of the id or text, at most ``limit`` in
    all."""
    queries, relevant, described = query_source
    if queries:
        halves = tuple(
            [
                LabelledQuery(t, frozenset(relevant.get(q, ())))
                for q, t in queries.items()
                if _half(q) == h
            ][: limit // 2]
            for h in (0, 1)
        )
        sources = tuple(
            ({q: t for q, t in queries.items() if _half(q) != h}, relevant, f"{described}, half")
            for h in (0, 1)
        )
        return CrossFitPlan(
            (halves[0], halves[1]),
            (sources[0], sources[1]),
            (frozenset(), frozenset()),
            f"{described}, cross-fitted in two halves",
        )
    relevant_to = _relevant_sources(chunks)
    anchors: dict[str, LabelledQuery] = {}
    for pair in mine_chunks(chunks):
        if pair.source in QUESTION_RULES and pair.anchor not in anchors:
            own = pair.anchor[:EXCLUDE_CHARS]
            anchors[pair.anchor] = LabelledQuery(pair.anchor, relevant_to[pair.positive], own)
    split = [[a for a in anchors.values() if _half(a.text) == h][: limit // 2] for h in (0, 1)]
    return CrossFitPlan(
        (split[0], split[1]),
        (query_source, query_source),
        (frozenset(a.text for a in split[0]), frozenset(a.text for a in split[1])),
        f"mined anchors ({', '.join(QUESTION_RULES)}), cross-fitted in two halves",
    )


def _relevant_sources(chunks: list[MinedChunk]) -> dict[str, frozenset[str]]:
    """For each passage's embedded text, the documents a question it answers is about: its own,
    or every message (and digest) of its mail thread."""
    threads: dict[str, set[str]] = {}
    for chunk in chunks:
        if chunk.thread_id:
            threads.setdefault(chunk.thread_id, set()).add(chunk.source_id)
    return {
        c.embedded: frozenset(threads[c.thread_id] if c.thread_id else {c.source_id})
        for c in chunks
    }


def _half(key: str) -> int:
    digest = hashlib.sha256(f"rerank:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 2


def query_pairs(
    chunks: list[MinedChunk], queries: dict[str, str], relevant: dict[str, list[str]]
) -> list[Pair]:
    """(query, passage of a relevant document) for every training query (BEIR corpus ids are
    the documents' source ids)."""
    by_source: dict[str, list[MinedChunk]] = {}
    for chunk in chunks:
        by_source.setdefault(chunk.source_id, []).append(chunk)
    pairs = []
    for qid, text in queries.items():
        for source_id in relevant.get(qid, []):
            for chunk in by_source.get(source_id, [])[:2]:
                pairs.append(Pair(text, chunk.embedded, source="query"))
    return pairs


def vocabulary_model(
    chunks: list[MinedChunk], query_source: QuerySource, skip_anchors: frozenset[str]
) -> TranslationModel:
    """The collection's vocabulary (:mod:`providers.rerankers.translation`), fitted on the
    question-like pairs of the head with the same training data: the mined anchors that read
    like questions (without ``skip_anchors``) and the training queries, each with the passages
    that answer it."""
    queries, relevant, _ = query_source
    pairs = [
        p
        for p in mine_chunks(chunks)
        if p.source in QUESTION_RULES and p.anchor not in skip_anchors
    ]
    pairs += query_pairs(chunks, queries, relevant)
    texts = [(p.anchor, p.positive) for p in pairs]
    return fit_translation(texts, (c.embedded for c in chunks))


def off_topic_questions() -> list[str]:
    """The bundled off-topic questions (the train split of
    ``benchmarks/questions/off_topic.jsonl``; its held-out split is never fitted on)."""
    text = resources.files("adapt").joinpath("data/off_topic_train.jsonl").read_text("utf-8")
    return [json.loads(line)["question"] for line in text.splitlines() if line.strip()]


__all__ = [
    "CrossFitPlan",
    "LabelledQuery",
    "QuerySource",
    "cross_fit_plan",
    "off_topic_questions",
    "query_pairs",
    "vocabulary_model",
]
