"""Query expansion: bridge the gap between the user's words and the archive's terminology.

The expanded text feeds both retrieval arms; the original question still goes to the answer.

- :class:`PseudoRelevanceExpander` (offline, corpus-driven): RM3-style pseudo-relevance feedback.
  The top BM25 passages for the query are taken as relevant; their terms are weighted by
  ``sum over passages of P(passage | query) * tf / length``, times the term's IDF, in SQL over the
  BM25 postings; the best terms the query lacks are appended in their most frequent surface form.
- :class:`TopicExpander` (offline): the names of the ontology topics nearest the query.
- :class:`LLMExpander`: a chat model rewrites the query into the archive's terms
  (:data:`tools.prompts.QUERY_EXPANSION_PROMPT`), e.g. "pilot confused in clouds" ->
  "spatial disorientation, VFR into IMC"; another expander (or none) stands in when it fails.

Every expander is also an ``async (query) -> str`` callable, the ``Expander`` the search tool takes.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable

from archive.store.candidates import bm25_search
from archive.store.database import Store
from archive.store.search_filters import SearchFilters
from tools import prompts
from tools.topics import match_topics

logger = logging.getLogger(__name__)

_TERM = re.compile(r"[a-z]{3,}")  # a word, not an identifier or a number
#: An LLM rewrite longer than this many characters is cut (the model ignored the instructions).
MAX_REWRITE_CHARS = 300


@dataclass(frozen=True)
class Expansion:
    """What an expander did to a query."""

    original: str  # the user's query, for the answer
    text: str  # what both retrieval arms search with
    terms: tuple[str, ...] = ()  # what was added
    method: str = "none"  # prf | topics | llm | none

    def record(self) -> dict[str, object]:
        """The expansion as plain data for the graph state and the trace."""
        return {
            "stage": "expand",
            "method": self.method,
            "text": self.text,
            "terms": list(self.terms),
        }


class QueryExpander(Protocol):
    """Rewrites a query for retrieval."""

    async def expand(self, query: str) -> Expansion: ...

    async def __call__(self, query: str) -> str: ...


class _Callable:
    """``await expander(query)`` -> the expanded text (the search tool's ``Expander``)."""

    async def expand(self, query: str) -> Expansion:  # pragma: no cover - overridden
        raise NotImplementedError

    async def __call__(self, query: str) -> str:
        return (await self.expand(query)).text


@dataclass(frozen=True)
class PRFConfig:
    """Pseudo-relevance feedback settings (docs/retrieval.md, "Studies", for measurements)."""

    feedback: int = 10  # top BM25 passages taken as relevant
    terms: int = 5  # terms appended
    min_df: int = 2  # a term must occur in this many passages of the corpus
    max_df_share: float = 0.1  # and in at most this share of them
    temperature: float = 1.0  # softmax temperature over the feedback passages' BM25 scores


# The feedback passages' postings with each term's document frequency, and the query's lexemes.
_POSTINGS = """
SELECT p.chunk_id, p.lexeme, p.tf, p.len, t.df,
       (SELECT n_chunks FROM bm25_stats) AS n,
       p.lexeme IN (SELECT lexeme FROM unnest(to_tsvector('english', %(query)s))) AS in_query
FROM bm25_postings p JOIN bm25_terms t USING (lexeme)
WHERE p.chunk_id = ANY(%(ids)s)
"""

# The most frequent surface word of each lexeme in the feedback passages.
_SURFACE = """
SELECT DISTINCT ON (s.lexeme) s.lexeme, w.word
FROM chunks c
CROSS JOIN LATERAL regexp_split_to_table(lower(c.content), '[^a-z]+') AS w(word)
CROSS JOIN LATERAL (SELECT lexeme FROM unnest(to_tsvector('english', w.word)) LIMIT 1) s
WHERE c.chunk_id = ANY(%(ids)s) AND s.lexeme = ANY(%(lexemes)s)
GROUP BY s.lexeme, w.word
ORDER BY s.lexeme, count(*) DESC, length(w.word), w.word
"""


@dataclass(frozen=True)
class FeedbackPassage:
    """A passage taken as relevant: its weight P(passage | query), term counts and length."""

    weight: float
    tf: dict[str, int]  # lexeme -> occurrences
    length: int  # BM25 length (terms)


def rank_feedback_terms(
    passages: Sequence[FeedbackPassage],
    df: dict[str, int],
    n_chunks: int,
    *,
    exclude: set[str],
    config: PRFConfig,
) -> list[tuple[str, float]]:
    """RM3's P(w | R) = sum_d P(d | q) * tf(w, d) / |d|, times idf(w), best first.

    Terms in ``exclude`` (the query's own), identifiers and numbers, terms in fewer than
    ``min_df`` passages of the corpus or in more than ``max_df_share`` of them are skipped.
    """
    n = max(n_chunks, 1)
    weights: dict[str, float] = {}
    for passage in passages:
        for lexeme, tf in passage.tf.items():
            weights[lexeme] = weights.get(lexeme, 0.0) + passage.weight * tf / max(
                passage.length, 1
            )
    ranked = []
    for lexeme, weight in weights.items():
        freq = df.get(lexeme, 0)
        if (
            lexeme in exclude
            or not _TERM.fullmatch(lexeme)
            or freq < config.min_df
            or freq > config.max_df_share * n
        ):
            continue
        ranked.append((lexeme, weight * math.log(1 + (n - freq + 0.5) / (freq + 0.5))))
    ranked.sort(key=lambda item: (-item[1], item[0]))
    return ranked[: config.terms]


class PseudoRelevanceExpander(_Callable):
    """RM3-style pseudo-relevance feedback over the collection's BM25 postings (offline)."""

    def __init__(
        self,
        store: Store,
        config: PRFConfig | None = None,
        *,
        filters: SearchFilters | None = None,
    ) -> None:
        self.store = store
        self.config = config or PRFConfig()
        self.filters = filters or SearchFilters()

    async def expand(self, query: str) -> Expansion:
        terms = await self.feedback_terms(query)
        if not terms:
            return Expansion(query, query, (), "none")
        return Expansion(query, f"{query} {' '.join(terms)}", tuple(terms), "prf")

    async def feedback_terms(self, query: str) -> list[str]:
        """The surface words of the best feedback terms ``query`` lacks, best first."""
        cfg = self.config
        hits = await bm25_search(self.store, query, self.filters, limit=cfg.feedback)
        if not hits:
            return []
        ids = [cid for cid, _ in hits]
        weights = dict(zip(ids, softmax([s for _, s in hits], cfg.temperature), strict=True))
        async with self.store.pool.connection() as conn:
            cur = await conn.execute(_POSTINGS, {"ids": ids, "query": query})
            rows = await cur.fetchall()
        if not rows:
            return []
        passages: dict[str, FeedbackPassage] = {}
        df: dict[str, int] = {}
        exclude: set[str] = set()
        for row in rows:
            cid = row["chunk_id"]
            if cid not in passages:
                passages[cid] = FeedbackPassage(weights[cid], {}, row["len"])
            passages[cid].tf[row["lexeme"]] = row["tf"]
            df[row["lexeme"]] = row["df"]
            if row["in_query"]:
                exclude.add(row["lexeme"])
        ranked = rank_feedback_terms(
            list(passages.values()), df, int(rows[0]["n"]), exclude=exclude, config=cfg
        )
        if not ranked:
            return []
        lexemes = [lexeme for lexeme, _ in ranked]
        async with self.store.pool.connection() as conn:
            cur = await conn.execute(_SURFACE, {"ids": ids, "lexemes": lexemes})
            surface = {row["lexeme"]: row["word"] for row in await cur.fetchall()}
        present = {w.lower() for w in re.findall(r"[A-Za-z]+", query)}
        words = [surface.get(lexeme, lexeme) for lexeme in lexemes]
        return [w for w in dict.fromkeys(words) if w not in present]


class TopicExpander(_Callable):
    """Appends the names of the ontology topics nearest the query (offline)."""

    def __init__(
        self, store: Store, embeddings: Embeddings, *, top_k: int = 3, threshold: float = 0.55
    ) -> None:
        self.store = store
        self.embeddings = embeddings
        self.top_k = top_k
        self.threshold = threshold

    async def expand(self, query: str) -> Expansion:
        vector = await asyncio.to_thread(self.embeddings.embed_query, query)
        topics = await match_topics(self.store, vector, top_k=self.top_k, threshold=self.threshold)
        lowered = query.lower()
        names = [t.name for t in topics if t.name not in lowered]
        if not names:
            return Expansion(query, query, (), "none")
        return Expansion(query, f"{query} {' '.join(names)}", tuple(names), "topics")


@dataclass
class LLMExpander(_Callable):
    """A chat model rewrites the query into the archive's terminology. A failing call
    propagates: the pipeline's policy (:mod:`providers.resilience`, ``expansion.error``)
    searches with the question as asked."""

    model: BaseChatModel | Runnable
    keep_original: bool = True  # search with "<query> <rewrite>" rather than the rewrite alone
    _cache: dict[str, Expansion] = field(default_factory=dict, repr=False)

    async def expand(self, query: str) -> Expansion:
        if query in self._cache:
            return self._cache[query]
        reply = await self.model.ainvoke(prompts.QUERY_EXPANSION_PROMPT.format(query=query))
        content = reply.content if hasattr(reply, "content") else reply
        rewrite = " ".join(str(content).split())[:MAX_REWRITE_CHARS].strip(" \"'")
        if not rewrite:
            return Expansion(query, query, (), "none")
        text = f"{query} {rewrite}" if self.keep_original else rewrite
        result = Expansion(query, text, (rewrite,), "llm")
        if len(self._cache) < 1024:
            self._cache[query] = result
        return result


def build_expander(
    store: Store,
    *,
    chat_model: BaseChatModel | Runnable | None = None,
    offline: QueryExpander | None = None,
) -> QueryExpander | None:
    """The expander to use: the chat model's rewrite when a model is configured, else
    ``offline``; None means no expansion.

    No offline expander is on by default: pseudo-relevance feedback lowered nDCG@10 on both dev
    splits (hybrid, 10 passages, 3 terms: scifact train 0.7325 -> 0.7096, ntsb_pc2narr dev
    0.4271 -> 0.4012; docs/retrieval.md, "Studies").
    """
    if chat_model is not None:
        return LLMExpander(chat_model)
    return offline


def archive_expander(
    store: Store, chat_model: BaseChatModel | Runnable | None
) -> QueryExpander | None:
    """The product's expander over ``store``: the chat model's rewrite when one is configured,
    else pseudo-relevance feedback on the archive (run only when a run switches expansion on)."""
    return build_expander(store, chat_model=chat_model, offline=PseudoRelevanceExpander(store))


def softmax(scores: Sequence[float], temperature: float = 1.0) -> list[float]:
    """Weights summing to 1 from scores (higher score, higher weight)."""
    if not scores:
        return []
    top = max(scores)
    exps = [math.exp((s - top) / max(temperature, 1e-6)) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
