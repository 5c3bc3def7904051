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
(``--refresh`` redoes).
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
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
from adapt.shipped_candidates import PARTIAL, Query, assign_folds, load_queries
from agent.evaluation.metrics import aggregate_documents, ndcg_at_k, percentile
from providers.rerankers import rerank_text
from providers.rerankers.features import FEATURES
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights

ROOT = Path(__file__).resolve().parents[1]

SPLITS = (("scifact", "train"), ("ntsb_pc2narr", "dev"))
WEIGHTS = ROOT / "providers" / "data" / "feature_reranker.json"


# --- fitting ------------------------------------------------------------------------------------


def design(reranker: FeatureReranker, queries: list[Query]) -> list[np.ndarray]:
    return [
        reranker.features(q.text, [rerank_text(c) for c in q.candidates], candidates=q.candidates)  # type: ignore[arg-type]
        if q.candidates
        else np.zeros((0, len(FEATURES)))
        for q in queries
    ]


def sources(q: Query) -> list[str]:
    return [c["source_id"] for c in q.candidates]


def labels(q: Query) -> np.ndarray:
    return np.array([1.0 if q.qrels.get(c["source_id"], 0) > 0 else 0.0 for c in q.candidates])


# --- reporting ----------------------------------------------------------------------------------


def ndcg(q: Query, scores: np.ndarray | None) -> float:
    """nDCG@10 over documents (each at its best chunk) in fused order, or by ``scores``."""
    if scores is None:
        pairs = [(c["source_id"], c["score"]) for c in q.candidates]
    else:
        pairs = [
            (c["source_id"], float(s))
            for c, s in zip(q.candidates, scores, strict=True)
            if np.isfinite(s)
        ]
    return ndcg_at_k(aggregate_documents(pairs), q.qrels, 10)


def floored(scores: np.ndarray, floor: float) -> np.ndarray:
    """As the graph's rerank node leaves them: passages below ``floor`` dropped (scored -inf,
    which :func:`ndcg` leaves out), the best always kept."""
    kept = scores >= floor
    kept[int(np.argmax(scores))] = True
    return np.where(kept, scores, -np.inf)


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


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--k", type=int, default=40, help="candidates per query (default 40)")
    parser.add_argument("--seed", type=int, default=13, help="of the two-fold split")
    parser.add_argument("--l2", type=float, default=3.0, help="L2 penalty on the linear weights")
    trees = "boosted trees of the ranker (0: linear; -1: no ranker)"
    parser.add_argument("--trees", type=int, default=100, help=trees)
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
    partial = "accept a collection still being ingested (interim; see collect)"
    parser.add_argument("--partial", action="store_true", help=partial)
    parser.add_argument(
        "--datasets",
        nargs="+",
        default=[n for n, _ in SPLITS],
        help="train and report on these only (default: all)",
    )
    parser.add_argument("--write", action="store_true", help=f"write {WEIGHTS.relative_to(ROOT)}")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    splits = [(n, s) for n, s in SPLITS if n in args.datasets]
    queries = load_queries(splits, args.k, refresh=args.refresh, partial=args.partial)
    assign_folds(queries, args.seed)
    factor = {
        n: float(v) for n, v in (item.split("=", 1) for item in args.weight or ["ntsb_pc2narr=3"])
    }
    probe = FeatureReranker(weights=FeatureWeights(np.zeros(len(FEATURES)), 0.0, 0.5, 0.5, {}))
    xs = design(probe, queries)
    off_train = [i for i, q in enumerate(queries) if q.off_topic and not q.heldout]
    report = cross_validate(queries, xs, off_train, splits, args, factor)

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
        info = {
            "trained": dt.date.today().isoformat(),
            "script": "python -m adapt.shipped_reranker",
            "data": [f"beir/{n} {s}" for n, s in splits]
            + ["benchmarks/questions/off_topic.jsonl train"],
            "folds_seed": args.seed,
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
        }
        payload = weights_payload(replace(model.weights, pool=args.k), cutoff, floor, info)
        WEIGHTS.write_text(dump_weights(payload))
        print(f"\nwrote {WEIGHTS.relative_to(ROOT)}")


def cross_validate(
    queries: list[Query],
    xs: list[np.ndarray],
    off_train: list[int],
    splits: Sequence[tuple[str, str]],
    args: argparse.Namespace,
    factor: dict[str, float],
) -> dict[str, dict[str, float]]:
    """Two-fold cross-validation: every in-domain query is scored by a model that never saw it;
    prints nDCG@10 per split and the off-topic stop rate, returns the figures."""
    held_scores: dict[int, np.ndarray] = {}
    held_pointwise: dict[int, np.ndarray] = {}
    held_stopped: dict[int, bool] = {}
    held_floored: dict[int, np.ndarray] = {}
    off_stopped: list[float] = []
    for fold in (False, True):
        train_idx = [i for i, q in enumerate(queries) if not q.off_topic and q.heldout != fold]
        model = train(queries, xs, train_idx + off_train, args, factor)
        cutoff = choose_cutoff(model.train_best, model.off_best, args.max_stop)
        plain = replace(model.weights, ranker=None)
        for i, q in enumerate(queries):
            if q.off_topic and q.heldout and q.candidates:
                off_stopped.append(float(plain.scores(xs[i], sources(queries[i])).max() < cutoff))
            if q.off_topic or q.heldout != fold or not q.candidates:
                continue
            held_scores[i] = model.weights.scores(xs[i], sources(queries[i]))
            held_floored[i] = floored(held_scores[i], model.floor(cutoff, args.max_drop))
            held_pointwise[i] = plain.scores(xs[i], sources(queries[i]))
            held_stopped[i] = float(held_scores[i].max()) < cutoff

    print(
        f"\ntwo-fold cross-validation over queries (seed {args.seed}), {args.k} candidates, "
        f"{args.trees} trees of depth {args.depth}\n"
    )
    print("| split | queries | fused | pointwise logistic | reranked | delta | + floor | stopped |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    report: dict[str, dict[str, float]] = {}
    for name, split in splits:
        idx = [i for i, q in enumerate(queries) if q.dataset == name and not q.off_topic]
        fused = float(np.mean([ndcg(queries[i], None) for i in idx]))
        point = float(np.mean([ndcg(queries[i], held_pointwise.get(i)) for i in idx]))
        ranked = float(np.mean([ndcg(queries[i], held_scores.get(i)) for i in idx]))
        floor = float(np.mean([ndcg(queries[i], held_floored.get(i)) for i in idx]))
        stopped = float(np.mean([held_stopped.get(i, False) for i in idx]))
        print(
            f"| {name}/{split} held-out | {len(idx)} | {fused:.4f} | {point:.4f} | "
            f"{ranked:.4f} | {ranked - fused:+.4f} | {floor:.4f} | "
            f"{100 * stopped:.1f}% |"
        )
        report[f"{name}/{split} held-out"] = {
            "queries": len(idx),
            "ndcg@10_fused": round(fused, 4),
            "ndcg@10_pointwise": round(point, 4),
            "ndcg@10_reranked": round(ranked, 4),
            "ndcg@10_reranked_floor": round(floor, 4),
            "stopped": round(stopped, 4),
        }
    print(
        f"\noff-topic held-out questions stopped (cross-validated): "
        f"{100 * float(np.mean(off_stopped)):.1f}% of {len(off_stopped)} runs"
    )
    return report


def in_sample(
    model: Trained,
    queries: list[Query],
    scores: list[np.ndarray],
    splits: Sequence[tuple[str, str]],
) -> dict[str, dict[str, float]]:
    """Prints the shipped model's weights and its in-sample nDCG@10 per split; returns those."""
    report: dict[str, dict[str, float]] = {}
    print("| feature | pointwise weight | listwise weight |\n|---|---:|---:|")
    ranker = model.weights.ranker
    for j, name in enumerate(FEATURES):
        listwise = f"{ranker.weights[j] / ranker.scale[j]:+.3f}" if ranker else "-"
        print(f"| {name} | {model.weights.weights[j]:+.3f} | {listwise} |")
    print(f"| (bias) | {model.weights.bias:+.3f} | |")
    if ranker:
        print(f"\nranker: {len(ranker.trees)} trees, slope {ranker.slope:.3f}")
    print("\n| split | queries | nDCG@10 fused | nDCG@10 reranked (in-sample) |")
    print("|---|---:|---:|---:|")
    for name, split in splits:
        idx = [i for i, q in enumerate(queries) if q.dataset == name and not q.off_topic]
        fused = float(np.mean([ndcg(queries[i], None) for i in idx]))
        ranked = float(np.mean([ndcg(queries[i], scores[i]) for i in idx]))
        print(f"| {name}/{split} all | {len(idx)} | {fused:.4f} | {ranked:.4f} |")
        report[f"{name}/{split} all (in-sample)"] = {
            "queries": len(idx),
            "ndcg@10_fused": round(fused, 4),
            "ndcg@10_reranked": round(ranked, 4),
        }
    return report


def stop_rates(
    model: Trained,
    queries: list[Query],
    scores: list[np.ndarray],
    splits: Sequence[tuple[str, str]],
    args: argparse.Namespace,
) -> dict[str, float]:
    """Prints the cutoff and floor chosen and how many questions of each set they stop; returns
    the stop rates."""

    def best(i: int) -> float:
        return float(scores[i].max()) if len(scores[i]) else 0.0

    cutoff = choose_cutoff(model.train_best, model.off_best, args.max_stop)
    floor = model.floor(cutoff, args.max_drop)
    print(
        f"\ncutoff {cutoff:.4f} (training: highest off-topic best {max(model.off_best):.4f}, "
        f"in-domain {100 * args.max_stop:g}th percentile best "
        f"{percentile(model.train_best, 100 * args.max_stop):.4f}); passage floor {floor:.5f} "
        f"({100 * args.max_drop:g}th percentile of relevant passages)\n"
    )
    print("| question set | runs | best < cutoff (stopped) | best score p50 | min | max |")
    print("|---|---:|---:|---:|---:|---:|")
    rates: dict[str, float] = {}
    sets: list[tuple[str, Any]] = []
    for name, _ in splits:
        sets += [
            (
                f"off-topic held-out vs {name}",
                lambda q, n=name: q.off_topic and q.heldout and q.dataset == n,
            ),
            (
                f"off-topic train vs {name}",
                lambda q, n=name: q.off_topic and not q.heldout and q.dataset == n,
            ),
            (f"in-domain {name} (in-sample)", lambda q, n=name: not q.off_topic and q.dataset == n),
        ]
    sets += [("off-topic held-out (all)", lambda q: q.off_topic and q.heldout)]
    for label, sel in sets:
        bests = [best(i) for i, q in enumerate(queries) if sel(q)]
        if not bests:
            continue
        stopped = sum(1 for s in bests if s < cutoff) / len(bests)
        rates[label] = round(stopped, 4)
        print(
            f"| {label} | {len(bests)} | {100 * stopped:.1f}% | {percentile(bests, 50):.4f} | "
            f"{min(bests):.4f} | {max(bests):.4f} |"
        )
    worst = sorted(
        ((best(i), q.dataset, q.text) for i, q in enumerate(queries) if q.off_topic and q.heldout),
        reverse=True,
    )[:8]
    print(f"\nhighest held-out off-topic best scores (cutoff {cutoff:.4f}):")
    for value, dataset, text in worst:
        print(f"  {value:.4f}  {dataset:13s}  {text}")

    return rates


if __name__ == "__main__":
    main()
