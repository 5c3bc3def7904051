"""How the chunk size changes BM25 quality on BEIR splits (documents ranked by their best chunk).

    python benchmarks/eval_chunk_size.py ../shared/data/beir/scifact:train \\
        ../shared/data/beir/ntsb_pc2narr:dev [--sizes 600,1000,1500,2000,4000,0]

No embeddings needed: every corpus document is cut with archive.ingest.chunking at each size (0 =
the whole document as one chunk), tokenised by PostgreSQL's ``english`` text search exactly as the
BM25 triggers do (title + chunk), and ranked with the Okapi BM25 of archive/store/lexical.py.
Only the PostgreSQL server is used (the embedded one under BOSUN_HOME, or DATABASE_URL).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import psycopg

from agent.evaluation.beir import load_dataset
from agent.evaluation.metrics import METRICS, aggregate_documents, score_query
from agent.settings import Settings
from archive.ingest.chunking import chunk_document
from archive.store.lexical import K1, B

TOP = 100


def lexemes(conn: psycopg.Connection, texts: list[str]) -> list[dict[str, int]]:
    """Term frequencies of each text as ``bm25_terms_of`` computes them."""
    out: list[dict[str, int]] = [{} for _ in texts]
    for start in range(0, len(texts), 2000):
        rows = conn.execute(
            """SELECT x.i, t.lexeme, coalesce(array_length(t.positions, 1), 1)
               FROM unnest(%s::text[]) WITH ORDINALITY AS x(t, i),
                    unnest(to_tsvector('english', x.t)) AS t""",
            (texts[start : start + 2000],),
        ).fetchall()
        for i, lexeme, tf in rows:
            out[start + i - 1][lexeme] = tf
    return out


class Index:
    def __init__(self, tfs: list[dict[str, int]]) -> None:
        self.n = len(tfs)
        self.lengths = np.asarray([sum(t.values()) for t in tfs], dtype=np.float64)
        postings: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for row, terms in enumerate(tfs):
            for lexeme, tf in terms.items():
                postings[lexeme][0].append(row)
                postings[lexeme][1].append(tf)
        self.postings = {
            k: (np.asarray(r), np.asarray(t, np.float64)) for k, (r, t) in postings.items()
        }

    def scores(self, query: dict[str, int], k1: float, b: float) -> np.ndarray:
        avgdl = max(float(self.lengths.sum()) / max(self.n, 1), 1.0)
        norm = k1 * (1 - b + b * self.lengths / avgdl)
        out = np.zeros(self.n)
        for lexeme in query:
            if lexeme in self.postings:
                rows, tf = self.postings[lexeme]
                idf = math.log(1 + (self.n - len(rows) + 0.5) / (len(rows) + 0.5))
                out[rows] += idf * tf * (k1 + 1) / (tf + norm[rows])
        return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="+", help="DATASET_DIR:SPLIT")
    parser.add_argument("--sizes", default="600,1000,1500,2000,4000,0")
    parser.add_argument("--k1", type=float, default=K1)
    parser.add_argument("--b", type=float, default=B)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    uri = Settings.from_env().database_uri()
    print(
        f"BM25 k1={args.k1:g} b={args.b:g}; documents ranked by their best chunk (size 0 ="
        " whole document)\n"
    )
    print(
        f"{'dataset':<24}{'chunk chars':>12}{'chunks':>9}{'nDCG@10':>9}{'R@10':>8}"
        f"{'R@100':>8}{'MRR@10':>8}"
    )
    with psycopg.connect(uri) as conn:
        for spec in args.datasets:
            path, _, split = spec.partition(":")
            dataset = load_dataset(Path(path), split or None)
            docs = list(dataset.documents())
            queries = list(dataset.queries.items())
            query_terms = lexemes(conn, [text for _, text in queries])
            for size in sizes:
                owners: list[str] = []
                texts: list[str] = []
                for doc in docs:
                    if size:
                        chunks = [
                            c.text
                            for c in chunk_document(
                                doc, max_chars=size, overlap=min(150, size // 4)
                            )
                        ]
                    else:
                        chunks = ["\n\n".join(s.text for s in doc.sections)]
                    for text in chunks:
                        owners.append(doc.source_id)
                        texts.append(f"{doc.title}\n{text}")
                index = Index(lexemes(conn, texts))
                totals = dict.fromkeys(METRICS, 0.0)
                for (qid, _), terms in zip(queries, query_terms, strict=True):
                    s = index.scores(terms, args.k1, args.b)
                    top = np.argsort(-s, kind="stable")[:TOP]
                    ranked = aggregate_documents([(owners[i], s[i]) for i in top if s[i] > 0])
                    for name, value in score_query(ranked, dataset.qrels[qid]).items():
                        totals[name] += value
                m = {k: v / len(queries) for k, v in totals.items()}
                print(
                    f"{dataset.name + '/' + dataset.split:<24}{size or 'doc':>12}"
                    f"{len(texts):>9}{m['ndcg@10']:>9.4f}{m['recall@10']:>8.3f}"
                    f"{m['recall@100']:>8.3f}{m['mrr@10']:>8.3f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
