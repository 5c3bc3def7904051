"""The pruned BM25 against the exact one on a BEIR split, at a chosen list depth.

    python benchmarks/bm25_depth.py ../shared/data/beir/ntsb_pc2narr --split dev --depth 1000

Reads the evaluation collection ``bosun eval`` built for the dataset (``eval_<folder>``) and, for
every query of the split, ranks chunks by BM25 alone, exact (every posting) and pruned (each
term's ``--depth`` highest-impact postings, the best ``--rescore`` completed exactly; see
archive/store/lexical.py). Prints recall@100 of the pruned chunk top 100 against the exact one
and nDCG@10 / Recall@100 of both against the qrels. On collections of ~10,000 chunks the default
depth (10,000) cuts no list, so the pruned statement returns the exact ranking; ``--depth 1000``
cuts lists at the same share of the collection as 10,000 does on 100,000 chunks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

import numpy as np

from agent.evaluation.beir import load_qrels, load_queries
from agent.evaluation.collections import collection_name
from agent.evaluation.metrics import aggregate_documents, ndcg_at_k, recall_at_k
from agent.settings import Settings
from agent.wiring import open_services
from archive.store import lexical
from archive.store.lexical import bm25_search
from archive.store.search_filters import SearchFilters


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--depth", type=int, default=lexical.DEPTH)
    parser.add_argument("--rescore", type=int, default=lexical.RESCORE)
    args = parser.parse_args()
    lexical.DEPTH, lexical.RESCORE = args.depth, args.rescore
    queries = load_queries(args.dataset, args.split)
    qrels = load_qrels(args.dataset, args.split)
    settings = Settings.from_env()
    out: dict[str, list[float]] = {}
    async with open_services(settings, collection=collection_name(args.dataset)) as services:
        store = services.store
        async with store.pool.connection() as conn:
            cur = await conn.execute("SELECT chunk_id, source_id FROM chunks")
            source = {r["chunk_id"]: r["source_id"] for r in await cur.fetchall()}
        for qid, text in queries.items():
            ranked = {}
            for mode in ("exact", "pruned"):
                store.bm25 = mode
                ranked[mode] = await bm25_search(store, text, SearchFilters(), limit=100)
                docs = aggregate_documents([(source[c], s) for c, s in ranked[mode]])
                out.setdefault(f"{mode}_ndcg@10", []).append(ndcg_at_k(docs, qrels.get(qid, {})))
                out.setdefault(f"{mode}_recall@100", []).append(
                    recall_at_k(docs, qrels.get(qid, {}))
                )
            exact = {c for c, _ in ranked["exact"]}
            pruned = {c for c, _ in ranked["pruned"]}
            out.setdefault("pruned_vs_exact_recall@100", []).append(
                len(exact & pruned) / len(exact) if exact else 1.0
            )
    result = {k: round(float(np.mean(v)), 4) for k, v in out.items()}
    result.update({"queries": len(queries), "depth": args.depth, "rescore": args.rescore})
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
