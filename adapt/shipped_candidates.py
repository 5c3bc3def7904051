"""The candidates the shipped reranker is fitted on (:mod:`adapt.shipped_reranker`): the top-k
hybrid retrieval results of each query of the evaluation collections ``bosun eval`` builds, and of
each off-topic question against them, cached in ``benchmarks/out/rerank_candidates_<name>.pkl``.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.evaluation.beir import load_dataset

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "beir"
OFF_TOPIC = ROOT / "benchmarks" / "questions" / "off_topic.jsonl"
CACHE = ROOT / "benchmarks" / "out"  # rerank_candidates_<dataset>.pkl
PARTIAL: dict[str, str] = {}  # dataset -> how much of its collection was stored (--partial runs)


def cached(passage: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of a retrieved passage the reranker reads (a plain dict: any script unpickles
    it)."""
    keys = ("doc_id", "source_id", "title", "subject", "text", "bm25", "cosine", "score")
    return {key: passage[key] for key in keys}


@dataclass
class Query:
    dataset: str  # scifact | ntsb_pc2narr
    qid: str
    text: str
    qrels: dict[str, int]  # empty for off-topic questions
    off_topic: bool
    heldout: bool
    candidates: list[dict[str, Any]]  # cached() passages, best first


async def collect(name: str, split: str, k: int, partial: bool = False) -> list[Query]:
    """The top ``k`` candidates of every query and off-topic question from ``name``'s collection.

    ``partial``: the collection may still be ingesting; only queries whose relevant documents are
    all stored are kept (an interim measure, recorded in the weights file)."""
    from agent.evaluation.collections import collection_name
    from agent.settings import Settings
    from agent.wiring import open_services
    from archive.store.search_filters import SearchFilters
    from archive.store.vessels import collection_counts
    from tools.hybrid import RetrievalOptions, retrieve

    settings = Settings.from_env()
    off_topic = [json.loads(line) for line in OFF_TOPIC.read_text().splitlines() if line.strip()]
    options = RetrievalOptions(k=k)
    queries: list[Query] = []
    dataset = load_dataset(DATA / name, split)
    collection = collection_name(name)
    async with open_services(settings, collection=collection) as services:
        counts = await collection_counts(services.store)
        stored: set[str] | None = None
        if counts["documents"] < dataset.corpus_size:
            if not partial:
                raise SystemExit(
                    f"collection {collection} holds {counts['documents']} of "
                    f"{dataset.corpus_size} documents: run `bosun eval {DATA / name}` first"
                )
            async with services.store.pool.connection() as conn:
                cur = await conn.execute("SELECT DISTINCT source_id FROM chunks")
                stored = {row["source_id"] for row in await cur.fetchall()}
            PARTIAL[name] = f"{len(stored)} of {dataset.corpus_size} documents"
            print(f"  {name}: partial collection, {PARTIAL[name]}", file=sys.stderr)

        store, embeddings = services.store, services.embeddings

        async def search(text: str) -> list[dict[str, Any]]:
            found = await retrieve(store, embeddings, text, SearchFilters(), options)
            return [cached(c) for c in found.candidates]

        for i, (qid, text) in enumerate(dataset.queries.items()):
            if stored is not None and not set(dataset.qrels[qid]) <= stored:
                continue
            queries.append(
                Query(name, qid, text, dataset.qrels[qid], False, False, await search(text))
            )
            if i % 200 == 0:
                print(f"  {name}: {i}/{len(dataset.queries)}", file=sys.stderr)
        for j, record in enumerate(off_topic):
            queries.append(
                Query(
                    name,
                    f"off{j}",
                    record["question"],
                    {},
                    True,
                    record.get("split") == "heldout",
                    await search(record["question"]),
                )
            )
    return queries


def assign_folds(queries: list[Query], seed: int) -> None:
    """Split each dataset's in-domain queries into two folds (``heldout`` marks fold 1), by a hash
    of the query id so a query keeps its fold whatever else changes."""
    for q in queries:
        if not q.off_topic:
            q.heldout = random.Random(f"{seed}:{q.dataset}:{q.qid}").random() < 0.5


def load_queries(
    splits: Sequence[tuple[str, str]], k: int, *, refresh: bool, partial: bool
) -> list[Query]:
    """The top ``k`` candidates of every query of ``splits``, from the cache in
    ``benchmarks/out`` or (``refresh``, or none cached) retrieved and cached."""
    queries: list[Query] = []
    for name, split in splits:
        full = CACHE / f"rerank_candidates_{name}.pkl"
        partial_file = CACHE / f"rerank_candidates_{name}_partial.pkl"
        if full.exists() and not refresh:
            part: list[Query] = pickle.loads(full.read_bytes())
        elif partial and partial_file.exists() and not refresh:
            part = pickle.loads(partial_file.read_bytes())
            PARTIAL[name] = "partial collection (cached candidates)"
        else:
            part = asyncio.run(collect(name, split, k, partial))
            target = partial_file if name in PARTIAL else full
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(pickle.dumps(part))
        for q in part:
            q.candidates = q.candidates[:k]
        queries.extend(part)
    return queries
