"""What ``python -m adapt.shipped_reranker`` prints and records in the weights file: nDCG@10 of
the fused order, the pointwise model and the reranked order on held-out folds and in-sample, the
cutoff and floor chosen and how many questions of each set they stop."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from adapt.reranker_training import Trained, choose_cutoff
from agent.evaluation.metrics import aggregate_documents, ndcg_at_k, percentile
from providers.rerankers.features import FEATURES

if TYPE_CHECKING:
    from adapt.shipped_reranker import Query


def sources(q: Query) -> list[str]:
    return [c["source_id"] for c in q.candidates]


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


def cross_validate(
    queries: list[Query],
    xs: list[np.ndarray],
    off_train: list[int],
    splits: Sequence[tuple[str, str]],
    args: argparse.Namespace,
    fit: Callable[[list[int]], Trained],
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
        model = fit(train_idx + off_train)
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


__all__ = ["cross_validate", "in_sample", "sources", "stop_rates"]
