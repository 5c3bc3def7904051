"""What Bosun's BM25 would score if it ranked documents instead of their best passage.

    python benchmarks/bm25_scoring_unit.py [--limit N] [--json]

On the shared dev splits (SciFact ``train``, ntsb_pc2narr ``dev``), with the product's own
terms — PostgreSQL's ``to_tsvector('english', title || E'\\n' || text)``, exactly what
``bm25_terms_of`` indexes, query terms distinct as the BM25 statement reads them — and its
formula (Lucene idf, k1 1.2, b 0.75), computed here in numpy over the same 1,000-character
chunks ``bosun eval`` stores (overlap 150). Only the scoring unit changes:

- ``best chunk``: a document scores its best chunk (what the product does);
- ``document, whole text``: one BM25 document per corpus document (what bm25s is given);
- ``document, sum of its chunks``: a document's term counts and length summed over its chunks
  (what chunk postings give without reading the text again; the overlap counts twice);
- ``rescored chunk top 300``: the documents of the best 300 chunks, reordered by the previous
  line's document score (a second stage over the passage index).

It needs a database for ``to_tsvector`` (the eval collection's, under ``$BOSUN_HOME``; nothing is
written) and no embeddings. The side-by-side with the product itself is
``benchmarks/bm25_parity.py``.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from collections.abc import Sequence

import numpy as np
from bm25_parity import bm25s_scores, command_of, split_arguments, splits
from render import Table, emit

from agent.evaluation.beir import BeirDataset
from agent.evaluation.collections import DEFAULT_CHUNK_CHARS, DEFAULT_OVERLAP, collection_name
from agent.evaluation.metrics import ndcg_at_k, recall_at_k
from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.chunking import chunk_document
from archive.store.database import Store
from archive.store.lexical import K1, B

_TERMS = """SELECT u.i, v.lexeme, coalesce(array_length(v.positions, 1), 1) AS tf
FROM unnest(%s::text[]) WITH ORDINALITY AS u(t, i)
CROSS JOIN LATERAL unnest(to_tsvector('english', u.t)) AS v"""

RESCORED = 300  # chunks whose documents the second stage reorders


async def terms(store: Store, texts: Sequence[str], batch: int = 2000) -> list[Counter[str]]:
    """PostgreSQL's English lexemes of each text with their counts."""
    out: list[Counter[str]] = [Counter() for _ in texts]
    async with store.pool.connection() as conn:
        for start in range(0, len(texts), batch):
            cur = await conn.execute(_TERMS, (list(texts[start : start + batch]),))
            for row in await cur.fetchall():
                out[start + row["i"] - 1][row["lexeme"]] = row["tf"]
    return out


class Index:
    """BM25 over bags of terms, the product's formula."""

    def __init__(self, units: Sequence[Counter[str]]) -> None:
        self.n = len(units)
        self.length = np.array([sum(u.values()) for u in units], dtype=np.float64)
        self.avgdl = max(float(self.length.mean()), 1.0)
        self.postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        lists: dict[str, list[tuple[int, int]]] = {}
        for i, unit in enumerate(units):
            for term, tf in unit.items():
                lists.setdefault(term, []).append((i, tf))
        for term, pairs in lists.items():
            ids, tfs = np.array(pairs, dtype=np.int64).T
            self.postings[term] = (ids, tfs.astype(np.float64))

    def scores(self, query: Sequence[str]) -> np.ndarray:
        out = np.zeros(self.n)
        for term in dict.fromkeys(query):
            if term not in self.postings:
                continue
            ids, tf = self.postings[term]
            idf = np.log(1 + (self.n - len(ids) + 0.5) / (len(ids) + 0.5))
            norm = K1 * (1 - B + B * self.length[ids] / self.avgdl)
            out[ids] += idf * tf * (K1 + 1) / (tf + norm)
        return out


def top(scores: np.ndarray, k: int = 100) -> list[int]:
    order = np.argsort(-scores, kind="stable")[:k]
    return [int(i) for i in order if scores[i] > 0]


async def study(
    store: Store, dataset: BeirDataset, limit: int | None
) -> list[tuple[str, float, float]]:
    """(scoring unit, nDCG@10, Recall@100) of each variant of the module's docstring."""
    ids, whole, chunk_texts, owner = [], [], [], []
    for doc in dataset.documents():
        body = " ".join(s.text for s in doc.sections)
        whole.append(f"{doc.title}\n{body}")
        for chunk in chunk_document(doc, max_chars=DEFAULT_CHUNK_CHARS, overlap=DEFAULT_OVERLAP):
            chunk_texts.append(f"{doc.title}\n{chunk.text}")
            owner.append(len(ids))
        ids.append(doc.source_id)
    chunk_terms = await terms(store, chunk_texts)
    summed: list[Counter[str]] = [Counter() for _ in ids]
    for i, bag in zip(owner, chunk_terms, strict=True):
        summed[i].update(bag)
    chunks, documents, sums = Index(chunk_terms), Index(await terms(store, whole)), Index(summed)
    queries = list(dataset.queries.items())[:limit]
    query_terms = await terms(store, [text for _, text in queries])
    owners = np.array(owner)
    rankings: dict[str, list[list[str]]] = {}
    for bag in query_terms:
        best: dict[int, float] = {}
        by_chunk = chunks.scores(list(bag))
        for i in top(by_chunk, 1000):
            best.setdefault(int(owners[i]), float(by_chunk[i]))
        summed_scores = sums.scores(list(bag))
        pool = list(dict.fromkeys(int(owners[i]) for i in top(by_chunk, RESCORED)))
        ranked = {
            "best chunk (the product)": list(best)[:100],
            "document, whole text": top(documents.scores(list(bag))),
            "document, sum of its chunks": top(summed_scores),
            f"rescored chunk top {RESCORED}": sorted(pool, key=lambda d: -summed_scores[d])[:100],
        }
        for name, docs in ranked.items():
            rankings.setdefault(name, []).append([ids[d] for d in docs])
    out = []
    for name, ranked_lists in rankings.items():
        pairs = list(zip(queries, ranked_lists, strict=True))
        ndcg = sum(ndcg_at_k(r, dataset.qrels[q], 10) for (q, _), r in pairs) / len(pairs)
        recall = sum(recall_at_k(r, dataset.qrels[q], 100) for (q, _), r in pairs) / len(pairs)
        out.append((name, ndcg, recall))
    return out


async def main() -> int:
    args = split_arguments(__doc__.splitlines()[0])
    settings = Settings.from_env()
    rows: list[list[object]] = []
    for name, dataset in splits(args):
        ndcg, recall = bm25s_scores(dataset, args.limit)
        rows.append(
            [name, "bm25s (whole text, its tokens, k1 1.5)", round(ndcg, 4), round(recall, 4)]
        )
        async with open_services(settings, collection=collection_name(dataset.name)) as services:
            for unit, ndcg, recall in await study(services.store, dataset, args.limit):
                rows.append([name, unit, round(ndcg, 4), round(recall, 4)])
    columns = ["split", "scoring unit", "nDCG@10", "Recall@100"]
    command = command_of("bm25_scoring_unit.py", args)
    emit(command, [Table("units", columns, rows)], as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
