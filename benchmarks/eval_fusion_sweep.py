"""Sweep fusion, BM25 k1/b, the similarity floor and the candidate count on BEIR dev splits.

    python benchmarks/eval_fusion_sweep.py ../shared/data/beir/scifact:train \\
        ../shared/data/beir/ntsb_pc2narr:dev [--chunk-chars 1000] [--limit N]

Reuses the eval collections `bosun eval` builds (ingests them when missing: minutes). Each query is
embedded and searched on the HNSW index once; BM25 is recomputed in numpy from the collection's
own postings with the formula of archive/store/lexical.py (checked against the SQL on a sample), so
every configuration replays exactly what tools.hybrid.retrieve does — arms, candidate cut,
similarity floor, tools.fusion.fuse, best chunk per document — without new database round trips.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import math
import pickle
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.collections import DEFAULT_CHUNK_CHARS, open_eval_services
from agent.evaluation.harness import EVAL_CHUNKS, evaluate
from agent.evaluation.metrics import METRICS, aggregate_documents, score_query
from agent.settings import Settings
from agent.wiring import Services
from archive.store.candidates import bm25_search, dense_candidates
from archive.store.lexical import K1, B
from archive.store.search_filters import SearchFilters
from tools.fusion import FusionConfig, fuse
from tools.retrieval_config import RetrievalConfig

MAX_CANDIDATES = 200


@dataclass
class Corpus:
    """A snapshot of one eval collection: chunk order, documents, vectors, BM25 postings."""

    chunk_ids: list[str]
    index: dict[str, int]
    source_ids: list[str]
    vectors: np.ndarray  # normalised, one row per chunk
    lengths: np.ndarray  # bm25_len per chunk
    postings: dict[str, tuple[np.ndarray, np.ndarray]] = field(
        default_factory=dict
    )  # lexeme -> rows, tf
    df: dict[str, int] = field(default_factory=dict)

    def bm25(self, lexemes: list[str], k1: float, b: float) -> np.ndarray:
        """Okapi BM25 of every chunk, as archive/store/lexical.py computes it."""
        n = len(self.chunk_ids)
        avgdl = max(float(self.lengths.sum()) / max(n, 1), 1.0)
        norm = k1 * (1 - b + b * self.lengths / avgdl)
        scores = np.zeros(n, dtype=np.float64)
        for lexeme in lexemes:
            if lexeme not in self.postings:
                continue
            rows, tf = self.postings[lexeme]
            df = self.df[lexeme]
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            scores[rows] += idf * tf * (k1 + 1) / (tf + norm[rows])
        return scores


@dataclass
class QueryCache:
    """What one query needs for any configuration."""

    qid: str
    lexemes: list[str]
    dense: list[tuple[int, float]]  # HNSW hits (row, cosine), nearest first
    cosines: np.ndarray  # exact cosine of every chunk (what retrieve computes for candidates)


async def snapshot(services: Services, lexemes: set[str]) -> Corpus:
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT chunk_id, source_id, bm25_len, embedding FROM chunks ORDER BY chunk_id"
        )
        rows = await cur.fetchall()
        chunk_ids = [r["chunk_id"] for r in rows]
        vectors = np.stack([np.asarray(r["embedding"], dtype=np.float32) for r in rows])
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
        corpus = Corpus(
            chunk_ids=chunk_ids,
            index={c: i for i, c in enumerate(chunk_ids)},
            source_ids=[r["source_id"] for r in rows],
            vectors=vectors,
            lengths=np.asarray([r["bm25_len"] for r in rows], dtype=np.float64),
        )
        cur = await conn.execute(
            "SELECT lexeme, chunk_id, tf FROM bm25_postings WHERE lexeme = ANY(%s)",
            (sorted(lexemes),),
        )
        grouped: dict[str, tuple[list[int], list[int]]] = {}
        for r in await cur.fetchall():
            entry = grouped.setdefault(r["lexeme"], ([], []))
            entry[0].append(corpus.index[r["chunk_id"]])
            entry[1].append(r["tf"])
    for lexeme, (idx, tf) in grouped.items():
        corpus.postings[lexeme] = (np.asarray(idx), np.asarray(tf, dtype=np.float64))
        corpus.df[lexeme] = len(idx)
    return corpus


async def query_lexemes(services: Services, text: str) -> list[str]:
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT t.lexeme FROM unnest(to_tsvector('english', %s)) AS t", (text,)
        )
        return sorted(r["lexeme"] for r in await cur.fetchall())


async def load_or_build_cache(
    services: Services, dataset: BeirDataset, limit: int | None, folder: Path
) -> tuple[Corpus, list[QueryCache]]:
    """The cached arms of a previous run when the collection and queries are unchanged."""
    async with services.store.pool.connection() as conn:
        cur = await conn.execute("SELECT count(*) AS n, max(chunk_id) AS m FROM chunks")
        row = await cur.fetchone()
    key = (
        services.store.schema,
        dataset.split,
        row["n"] if row else 0,
        row["m"] if row else "",
        tuple(list(dataset.queries)[:limit]),
        MAX_CANDIDATES,
    )
    file = folder / f"sweep_cache_{services.store.schema}_{dataset.split}.pkl"
    cached = _read_cache(file, key)
    if cached is not None:
        return cached
    value = await build_cache(services, dataset, limit)
    _write_cache(file, key, value)
    return value


def _read_cache(file: Path, key: tuple) -> tuple[Corpus, list[QueryCache]] | None:
    if not file.is_file():
        return None
    with file.open("rb") as handle:
        stored_key, (corpus, caches) = pickle.load(handle)  # plain dicts: see _write_cache
    if stored_key != key:
        return None
    return Corpus(**corpus), [QueryCache(**q) for q in caches]


def _write_cache(file: Path, key: tuple, value: tuple[Corpus, list[QueryCache]]) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("wb") as handle:
        plain = (vars(value[0]), [vars(q) for q in value[1]])  # loadable from any __main__
        pickle.dump((key, plain), handle, protocol=pickle.HIGHEST_PROTOCOL)


async def build_cache(
    services: Services, dataset: BeirDataset, limit: int | None
) -> tuple[Corpus, list[QueryCache]]:
    items = list(dataset.queries.items())[:limit]
    lexemes = {qid: await query_lexemes(services, text) for qid, text in items}
    corpus = await snapshot(services, set(itertools.chain.from_iterable(lexemes.values())))
    caches = []
    for qid, text in items:
        vector = np.asarray(
            await asyncio.to_thread(services.embeddings.embed_query, text), dtype=np.float32
        )
        nearest = await dense_candidates(
            services.store, text, vector.tolist(), SearchFilters(), limit=MAX_CANDIDATES, floor=-1.0
        )
        hits = [(row["chunk_id"], float(row["cosine"])) for row in nearest]
        q = vector / (np.linalg.norm(vector) + 1e-12)
        caches.append(
            QueryCache(
                qid,
                lexemes[qid],
                [(corpus.index[c], cos) for c, cos in hits],
                corpus.vectors @ q,
            )
        )
    return corpus, caches


@dataclass(frozen=True)
class Config:
    """One replayed configuration of tools.hybrid.retrieve."""

    arms: str  # "bm25" | "dense" | "hybrid"
    k1: float = K1
    b: float = B
    candidates: int = 100
    floor: float = 0.3
    fusion: FusionConfig = field(default_factory=FusionConfig)

    def label(self) -> str:
        parts = [self.arms]
        if self.arms != "dense":
            parts.append(f"k1={self.k1:g} b={self.b:g}")
        if self.arms != "bm25":
            parts.append(f"floor={self.floor:g}")
        parts.append(f"cand={self.candidates}")
        if self.arms == "hybrid":
            f = self.fusion
            parts.append(
                f"convex w={f.lexical_weight:g}"
                if f.method == "convex"
                else f"rrf k={f.rrf_k} wlex={f.rrf_lexical_weight:g}"
            )
        return " ".join(parts)


def replay(config: Config, corpus: Corpus, q: QueryCache, bm25: np.ndarray | None) -> list[str]:
    """The document ranking retrieve() would give under ``config``."""
    lexical: dict[int, float] = {}
    dense: dict[int, float] = {}
    if bm25 is not None:
        top = np.argpartition(-bm25, min(config.candidates, len(bm25) - 1))[: config.candidates]
        lexical = {int(i): float(bm25[i]) for i in top if bm25[i] > 0}
    if config.arms != "bm25":
        dense = {i: cos for i, cos in q.dense[: config.candidates] if cos >= config.floor}
    ids = list(lexical.keys() | dense.keys())
    if config.arms == "hybrid":
        assert bm25 is not None
        lex = {i: float(bm25[i]) for i in ids}
        cos = {i: float(q.cosines[i]) for i in ids}
        scores = fuse(lex, cos, config.fusion)
    else:
        scores = lexical if config.arms == "bm25" else dense
    ranked = sorted(ids, key=lambda i: (-scores[i], corpus.chunk_ids[i]))[:EVAL_CHUNKS]
    return aggregate_documents([(corpus.source_ids[i], scores[i]) for i in ranked])


class Runner:
    """Replays configurations over one split's cached queries, remembering every result."""

    def __init__(self, corpus: Corpus, caches: list[QueryCache], qrels: dict) -> None:
        self.corpus, self.caches, self.qrels = corpus, caches, qrels
        self.bm25: dict[tuple[str, float, float], np.ndarray] = {}
        self.done: dict[Config, dict[str, float]] = {}

    def metrics(self, config: Config) -> dict[str, float]:
        if config not in self.done:
            self.done[config] = self._run(config)
        return self.done[config]

    def arms_best(self, config: Config) -> float:
        """nDCG@10 of the better single arm at ``config``'s k1/b, floor and candidates."""
        bm25 = Config("bm25", k1=config.k1, b=config.b, candidates=config.candidates)
        dense = Config("dense", floor=config.floor, candidates=config.candidates)
        return max(self.metrics(bm25)["ndcg@10"], self.metrics(dense)["ndcg@10"])

    def _run(self, config: Config) -> dict[str, float]:
        totals = dict.fromkeys(METRICS, 0.0)
        for q in self.caches:
            scores = None
            if config.arms != "dense":
                key = (q.qid, config.k1, config.b)
                if key not in self.bm25:
                    self.bm25[key] = self.corpus.bm25(q.lexemes, config.k1, config.b)
                scores = self.bm25[key]
            ranked = replay(config, self.corpus, q, scores)
            for name, value in score_query(ranked, self.qrels[q.qid]).items():
                totals[name] += value
        return {name: v / len(self.caches) for name, v in totals.items()}


async def check_against_sql(
    services: Services, dataset: BeirDataset, corpus: Corpus, caches: list[QueryCache], n: int = 20
) -> float:
    """Largest score difference between the numpy BM25 and the SQL on ``n`` queries."""
    worst = 0.0
    for q in caches[:n]:
        sql_hits = await bm25_search(
            services.store, dataset.queries[q.qid], SearchFilters(), limit=20
        )
        mine = corpus.bm25(q.lexemes, K1, B)
        for cid, score in sql_hits:
            worst = max(worst, abs(mine[corpus.index[cid]] - score))
    return worst


def grid(full: bool = False) -> list[Config]:
    """The configurations to replay: a focused set by default, everything with ``full``."""
    configs: list[Config] = []
    ks = (0.6, 0.9, 1.2, 1.5, 2.0) if full else (0.9, 1.2, 1.5, 2.0)
    bs = (0.3, 0.5, 0.75, 0.9) if full else (0.5, 0.75, 0.9)
    for k1, b in itertools.product(ks, bs):
        configs.append(Config("bm25", k1=k1, b=b))
    for floor in (0.0, 0.3):
        configs.append(Config("dense", floor=floor))
    for w in (0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9):
        configs.append(Config("hybrid", fusion=FusionConfig("convex", lexical_weight=w)))
    bm25_params = (
        ((0.9, 0.4), (1.5, 0.75), (2.0, 0.75), (1.2, 0.9))
        if full
        else ((1.2, 0.5), (1.5, 0.75), (1.2, 0.9))
    )
    for (k1, b), w in itertools.product(bm25_params, (0.5, 0.6, 0.7) if full else (0.6, 0.7)):
        configs.append(
            Config("hybrid", k1=k1, b=b, fusion=FusionConfig("convex", lexical_weight=w))
        )
    for k, wlex in itertools.product(
        (10, 20, 60) if full else (10, 60), (1.0, 1.5, 2.0, 3.0) if full else (1.0, 2.0, 3.0)
    ):
        configs.append(
            Config("hybrid", fusion=FusionConfig("rrf", rrf_k=k, rrf_lexical_weight=wlex))
        )
    for cand, floor, w in itertools.product((100, 200), (0.0, 0.3, 0.4), (0.6, 0.7)):
        configs.append(
            Config(
                "hybrid",
                candidates=cand,
                floor=floor,
                fusion=FusionConfig("convex", lexical_weight=w),
            )
        )
    return list(dict.fromkeys(configs))


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="+", help="DATASET_DIR:SPLIT")
    parser.add_argument("--chunk-chars", type=int, default=DEFAULT_CHUNK_CHARS)
    parser.add_argument("--limit", type=int, help="first N queries of each split")
    parser.add_argument("--full", action="store_true", help="the wide grid (slow: minutes)")
    parser.add_argument(
        "--verify",
        type=int,
        default=100,
        help="replay-vs-evaluate() check on the first N queries (0 to skip)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    settings = Settings.from_env()
    configs = grid(args.full)
    table: dict[str, Runner] = {}
    for spec in args.datasets:
        path, _, split = spec.partition(":")
        dataset = load_dataset(Path(path), split or None)
        async with open_eval_services(
            settings, dataset, chunk_chars=args.chunk_chars, progress=sys.stderr.isatty()
        ) as services:
            started = time.perf_counter()
            corpus, caches = await load_or_build_cache(
                services, dataset, args.limit, settings.home / "eval" / dataset.name
            )
            diff = await check_against_sql(services, dataset, corpus, caches)
            seconds = time.perf_counter() - started
            print(
                f"{dataset.name}/{dataset.split}: {len(caches)} queries, "
                f"{len(corpus.chunk_ids)} chunks, cached in {seconds:.0f} s;"
                f" numpy BM25 vs SQL max |diff| {diff:.2e}",
                file=sys.stderr,
            )
            runner = Runner(corpus, caches, dataset.qrels)
            if args.verify:
                head = Runner(corpus, caches[: args.verify], dataset.qrels)
                for cfg, options in (
                    (Config("hybrid"), RetrievalConfig()),
                    (Config("bm25"), RetrievalConfig(dense=False)),
                ):
                    real = await evaluate(services, dataset, options=options, limit=args.verify)
                    sim = head.metrics(cfg)
                    print(
                        f"  check {cfg.arms}: evaluate() nDCG@10 {real.metrics['ndcg@10']:.4f}"
                        f" replay {sim['ndcg@10']:.4f} on {args.verify} queries",
                        file=sys.stderr,
                    )
        for cfg in configs:
            runner.metrics(cfg)
        table[f"{dataset.name}/{dataset.split}"] = runner
    print_table(table, configs)
    return 0


def print_table(table: dict[str, Runner], configs: list[Config]) -> None:
    names = list(table)
    head = f"{'configuration':<58}" + "".join(f"{n[:24]:>26}" for n in names) + f"{'margin':>9}"
    print(head)
    print(f"{'':<58}" + "".join(f"{'nDCG@10  R@100  MRR@10':>26}" for _ in names))
    print("-" * len(head))
    for cfg in configs:
        cells, margins = "", []
        for name in names:
            m = table[name].metrics(cfg)
            cells += f"{m['ndcg@10']:>11.4f}{m['recall@100']:>7.3f}{m['mrr@10']:>8.3f}"
            if cfg.arms == "hybrid":
                margins.append(m["ndcg@10"] - table[name].arms_best(cfg))
        mark = f"{min(margins):>+9.4f}" if margins else ""
        print(f"{cfg.label():<58}{cells}{mark}")
    print(
        "\nmargin: hybrid nDCG@10 minus the better single arm with the same k1/b, floor and"
        " candidates; the smaller over the datasets"
    )


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
