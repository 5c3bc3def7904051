"""Train the offline FeatureReranker on (query, candidate, label) triples.

Candidates are the top-40 hybrid retrieval results per query from the eval collections
(``eval_scifact`` from beir/scifact train, ``eval_ntsb_pc2narr`` from beir/ntsb_pc2narr dev; build
them with ``bosun eval``); a candidate is positive when its corpus document is judged relevant.
Off-topic questions (``benchmarks/questions/off_topic.jsonl``, split ``train``) add negatives
against both collections; their ``heldout`` split only measures the cutoff.

Two models share the features: a pointwise logistic regression (off-topic questions included) whose
best-candidate probability decides the cutoff, and a listwise ranker (softmax over each query's
candidates: linear weights, then boosted trees; ``adapt/reranker_training.py``) that orders the
candidates. One model serves both datasets.

The script first runs two-fold cross-validation over the queries of both datasets together and
prints nDCG@10 of the fused order, the pointwise model and the reranked order on the held-out fold
(also with the passage floor the graph applies), then fits the shipped model on every query,
calibrates the relevance cutoff and the passage floor, and with ``--write`` stores it all in
``providers/data/feature_reranker.json``.

    BOSUN_HOME=... python -m adapt.shipped_reranker   # collect (cached), fit, report
    python -m adapt.shipped_reranker --write           # ... and ship the model

Retrieved candidates are cached per dataset in ``benchmarks/out/rerank_candidates_<name>.pkl``
(``--refresh`` redoes). The report is :mod:`adapt.shipped_report`.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import pickle
import random
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from adapt.reranker_training import (
    FIXED,
    Trained,
    TrainingQuery,
    TrainOptions,
    choose_cutoff,
    dump_weights,
    fit_reranker,
    weights_payload,
)
from adapt.shipped_report import cross_validate, in_sample, sources, stop_rates
from agent.evaluation.beir import load_dataset
from providers.rerankers import rerank_text
from providers.rerankers.features import FEATURES
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights

ROOT = Path(__file__).resolve().parents[1]

DATA = ROOT.parent / "shared" / "data" / "beir"
SPLITS = (("scifact", "train"), ("ntsb_pc2narr", "dev"))
OFF_TOPIC = ROOT / "benchmarks" / "questions" / "off_topic.jsonl"
CACHE = ROOT / "benchmarks" / "out"  # rerank_candidates_<dataset>.pkl
WEIGHTS = ROOT / "providers" / "data" / "feature_reranker.json"
PARTIAL: dict[str, str] = {}  # dataset -> how much of its collection was stored (--partial runs)


# --- candidates ---------------------------------------------------------------------------------


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
    from tools.hybrid import retrieve
    from tools.retrieval_config import RetrievalConfig

    settings = Settings.from_env()
    off_topic = [json.loads(line) for line in OFF_TOPIC.read_text().splitlines() if line.strip()]
    options = RetrievalConfig(k=k)
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


# --- fitting ------------------------------------------------------------------------------------


def design(reranker: FeatureReranker, queries: list[Query]) -> list[np.ndarray]:
    return [
        reranker.features(q.text, [rerank_text(c) for c in q.candidates], candidates=q.candidates)  # type: ignore[arg-type]
        if q.candidates
        else np.zeros((0, len(FEATURES)))
        for q in queries
    ]


def labels(q: Query) -> np.ndarray:
    return np.array([1.0 if q.qrels.get(c["source_id"], 0) > 0 else 0.0 for c in q.candidates])


def train(
    queries: list[Query],
    xs: list[np.ndarray],
    idx: list[int],
    args: argparse.Namespace,
    factor: dict[str, float],
) -> Trained:
    """Fit on the queries ``idx`` (in-domain and off-topic), each dataset's queries weighing the
    same in total (times ``factor``), each off-topic run ``--off-topic-weight``."""
    in_domain = [i for i in idx if not queries[i].off_topic and len(queries[i].candidates)]
    per_dataset = Counter(queries[i].dataset for i in in_domain)
    largest = max(per_dataset.values())

    def weight(q: Query) -> float:
        if q.off_topic:
            return float(args.off_topic_weight)
        return factor.get(q.dataset, 1.0) * largest / per_dataset[q.dataset]

    options = TrainOptions(
        l2=args.l2, trees=args.trees, depth=args.depth, rate=args.rate, max_stop=args.max_stop
    )
    return fit_reranker(
        [
            TrainingQuery(
                xs[i],
                labels(queries[i]),
                sources(queries[i]),
                weight(queries[i]),
                queries[i].off_topic,
            )
            for i in idx
        ],
        options,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, default=40, help="candidates per query (default 40)")
    parser.add_argument("--seed", type=int, default=13, help="of the two-fold split")
    parser.add_argument("--l2", type=float, default=3.0, help="L2 penalty on the linear weights")
    parser.add_argument(
        "--trees",
        type=int,
        default=100,
        help="boosted trees of the ranker (0: linear; -1: no ranker)",
    )
    parser.add_argument("--depth", type=int, default=3, help="depth of each tree")
    parser.add_argument("--rate", type=float, default=0.1, help="learning rate of the trees")
    parser.add_argument(
        "--off-topic-weight",
        type=float,
        default=300.0,
        help="weight of each off-topic candidate relative to an in-domain one",
    )
    parser.add_argument(
        "--max-stop",
        type=float,
        default=0.01,
        help="in-domain share (training queries) the cutoff may stop",
    )
    parser.add_argument(
        "--max-drop",
        type=float,
        default=0.01,
        help="share of relevant training passages the passage floor may drop",
    )
    parser.add_argument("--refresh", action="store_true", help="re-retrieve the candidates")
    parser.add_argument(
        "--weight",
        action="append",
        default=None,
        metavar="DATASET=FACTOR",
        help="extra weight of a dataset's queries (default ntsb_pc2narr=3: the archive's domain)",
    )
    parser.add_argument(
        "--partial",
        action="store_true",
        help="accept a collection still being ingested (interim; see collect)",
    )
    parser.add_argument(
        "--datasets",
        nargs="+",
        default=[n for n, _ in SPLITS],
        help="train and report on these only (default: all)",
    )
    parser.add_argument(
        "--select",
        action="store_true",
        help="choose --l2 and --trees by nested cross-validation (adapt/shipped_selection.py); "
        "--write then writes only if the chosen options are not worse held out on any split",
    )
    parser.add_argument(
        "--summary",
        type=Path,
        metavar="FILE",
        help="with --select: write what it found as JSON (benchmarks/shipped_reranker.py)",
    )
    parser.add_argument("--write", action="store_true", help=f"write {WEIGHTS.relative_to(ROOT)}")
    args = parser.parse_args(argv)

    splits = [(n, s) for n, s in SPLITS if n in args.datasets]
    queries: list[Query] = []
    for name, split in splits:
        full = CACHE / f"rerank_candidates_{name}.pkl"
        partial = CACHE / f"rerank_candidates_{name}_partial.pkl"
        if full.exists() and not args.refresh:
            part: list[Query] = pickle.loads(full.read_bytes())
        elif args.partial and partial.exists() and not args.refresh:
            part = pickle.loads(partial.read_bytes())
            PARTIAL[name] = "partial collection (cached candidates)"
        else:
            part = asyncio.run(collect(name, split, args.k, args.partial))
            target = partial if name in PARTIAL else full
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(pickle.dumps(part))
        for q in part:
            q.candidates = q.candidates[: args.k]
        queries.extend(part)
    assign_folds(queries, args.seed)
    factor = {
        n: float(v) for n, v in (item.split("=", 1) for item in args.weight or ["ntsb_pc2narr=3"])
    }
    probe = FeatureReranker(weights=FeatureWeights(np.zeros(len(FEATURES)), 0.0, 0.5, 0.5, {}))
    xs = design(probe, queries)
    off_train = [i for i, q in enumerate(queries) if q.off_topic and not q.heldout]

    report = cross_validate(
        queries, xs, off_train, splits, args, lambda idx: train(queries, xs, idx, args, factor)
    )

    if args.select:
        from adapt import shipped_selection

        def fit(options: shipped_selection.Options, idx: list[int]) -> Trained:
            chosen = argparse.Namespace(**{**vars(args), "l2": options.l2, "trees": options.trees})
            return train(queries, xs, idx, chosen, factor)

        report.update(shipped_selection.select(queries, xs, off_train, splits, fit, report, args))

    # The shipped model: every in-domain query and the off-topic training questions.
    everything = [i for i, q in enumerate(queries) if not q.off_topic] + off_train
    model = train(queries, xs, everything, args, factor)
    scores = [
        model.weights.scores(x, sources(q)) if len(x) else np.zeros(0)
        for x, q in zip(xs, queries, strict=True)
    ]
    print(
        f"\nshipped model: trained on {len(everything) - len(off_train)} in-domain queries + "
        f"{len(off_train)} off-topic question runs\n"
    )
    report.update(in_sample(model, queries, scores, splits))
    cutoff = choose_cutoff(model.train_best, model.off_best, args.max_stop)
    floor = model.floor(cutoff, args.max_drop)
    rates = stop_rates(model, queries, scores, splits, args)

    if args.write:
        payload = weights_payload(
            replace(model.weights, pool=args.k),
            cutoff,
            floor,
            {
                "trained": dt.date.today().isoformat(),
                "script": "python -m adapt.shipped_reranker",
                "data": [f"beir/{n} {s}" for n, s in splits]
                + ["benchmarks/questions/off_topic.jsonl train"],
                "folds_seed": args.seed,
                "options": "chosen by nested cross-validation (--select)"
                if args.select
                else "as given",
                "l2": args.l2,
                "trees": args.trees,
                "depth": args.depth,
                "rate": args.rate,
                "off_topic_weight": args.off_topic_weight,
                "max_stop": args.max_stop,
                "max_drop": args.max_drop,
                "fixed_weights": FIXED,
                "dataset_weights": factor,
                "partial_collections": PARTIAL,
                "ndcg@10": report,
                "stop_rates": rates,
            },
        )
        WEIGHTS.write_text(dump_weights(payload))
        print(f"\nwrote {WEIGHTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
