"""The shipped reranker's fitting options chosen on training queries only: nested cross-validation
over :data:`GRID` (``python -m adapt.shipped_reranker --select``).

The outer folds are the report's two (``--seed``). For each, every option set is scored by an
inner two-fold cross-validation over the other fold's queries alone (inner folds by ``--seed`` +
1): the mean over the datasets of nDCG@10 of the reranked order. The best set, fitted on that
whole fold, scores the held-out fold once. Every in-domain query is thus scored by a model whose
weights and options never saw it, comparable with the plain cross-validation of fixed options
(:func:`adapt.shipped_report.cross_validate`). The shipped model's options are chosen by the
same rule one level up: the best two-fold cross-validated mean over every query.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from adapt.reranker_training import Trained
from adapt.shipped_report import ndcg, sources

if TYPE_CHECKING:
    from adapt.shipped_reranker import Query


@dataclass(frozen=True)
class Options:
    """The fitting options chosen between (the others stay as ``--`` arguments give them)."""

    l2: float  # L2 penalty on the linear weights (pointwise and listwise)
    trees: int  # boosted trees of the ranker (0: linear; -1: no ranker, pointwise order)

    def label(self) -> str:
        ranker = {-1: "no ranker", 0: "linear ranker"}.get(self.trees, f"{self.trees} trees")
        return f"l2 {self.l2:g}, {ranker}"


#: Every combination of three penalties and four rankers; ``Options(3.0, 100)`` is what the
#: shipped model was fitted with before the choice was made this way.
GRID = tuple(Options(l2, trees) for l2 in (1.0, 3.0, 10.0) for trees in (-1, 0, 50, 100))

#: Fits ``Options`` on the queries ``idx`` (in-domain and off-topic).
Fit = Callable[[Options, list[int]], Trained]


def halves(queries: Sequence[Query], idx: Sequence[int], seed: int) -> tuple[list[int], list[int]]:
    """``idx`` split in two by a hash of each query id (a query keeps its half whatever else
    changes)."""
    first: list[int] = []
    second: list[int] = []
    for i in idx:
        q = queries[i]
        (first if random.Random(f"{seed}:{q.dataset}:{q.qid}").random() < 0.5 else second).append(i)
    return first, second


def held_out_scores(
    queries: Sequence[Query], xs: Sequence[np.ndarray], model: Trained, idx: Sequence[int]
) -> dict[int, float]:
    """nDCG@10 of each query of ``idx`` reranked by ``model`` (0 for one without candidates,
    as :func:`cross_validate` counts it)."""
    return {
        i: ndcg(queries[i], model.weights.scores(xs[i], sources(queries[i])))
        if queries[i].candidates
        else ndcg(queries[i], None)
        for i in idx
    }


def cv_scores(
    queries: Sequence[Query],
    xs: Sequence[np.ndarray],
    idx: Sequence[int],
    off_train: list[int],
    options: Options,
    fit: Fit,
    seed: int,
) -> dict[int, float]:
    """Two-fold cross-validated nDCG@10 of every query of ``idx`` under ``options``."""
    first, second = halves(queries, idx, seed)
    scored: dict[int, float] = {}
    for train, test in ((first, second), (second, first)):
        scored.update(held_out_scores(queries, xs, fit(options, train + off_train), test))
    return scored


def objective(queries: Sequence[Query], scored: dict[int, float]) -> float:
    """The mean over datasets of their mean nDCG@10: each dataset counts the same."""
    per_dataset: dict[str, list[float]] = {}
    for i, value in scored.items():
        per_dataset.setdefault(queries[i].dataset, []).append(value)
    return statistics.fmean(statistics.fmean(v) for v in per_dataset.values())


def choose(
    queries: Sequence[Query],
    xs: Sequence[np.ndarray],
    idx: Sequence[int],
    off_train: list[int],
    fit: Fit,
    seed: int,
) -> tuple[Options, dict[Options, float]]:
    """The option set of :data:`GRID` with the best cross-validated :func:`objective` over the
    queries ``idx`` alone (the first of equals), and every set's objective."""
    table = {
        options: objective(queries, cv_scores(queries, xs, idx, off_train, options, fit, seed))
        for options in GRID
    }
    best = max(GRID, key=lambda o: (table[o], -GRID.index(o)))
    return best, table


@dataclass
class Selection:
    """What the nested cross-validation found."""

    chosen: list[Options]  # per outer fold (the fold the options were chosen on is the other)
    inner: list[dict[Options, float]]  # per outer fold: each option set's inner objective
    scores: dict[int, float]  # every in-domain query's held-out nDCG@10


def nested(
    queries: Sequence[Query],
    xs: Sequence[np.ndarray],
    off_train: list[int],
    fit: Fit,
    seed: int,
) -> Selection:
    """Options chosen on one outer fold (inner seed ``seed + 1``), fitted there and scored on
    the other fold once; both ways round. Outer folds: ``Query.heldout`` (seed ``seed``)."""
    selection = Selection([], [], {})
    for fold in (False, True):
        train = [i for i, q in enumerate(queries) if not q.off_topic and q.heldout != fold]
        test = [i for i, q in enumerate(queries) if not q.off_topic and q.heldout == fold]
        best, table = choose(queries, xs, train, off_train, fit, seed + 1)
        selection.chosen.append(best)
        selection.inner.append(table)
        selection.scores.update(held_out_scores(queries, xs, fit(best, train + off_train), test))
    return selection


def report(
    queries: Sequence[Query],
    selection: Selection,
    baseline: dict[str, dict[str, float]],
    splits: Sequence[tuple[str, str]],
) -> dict[str, dict[str, float]]:
    """Prints the inner tables, the options chosen and the held-out nDCG@10 against the plain
    cross-validation of the fixed options (``baseline``, :func:`cross_validate`'s report);
    returns the held-out figures per split."""
    for fold, (chosen, table) in enumerate(zip(selection.chosen, selection.inner, strict=True)):
        print(f"\ninner cross-validation on outer fold {1 - fold} (mean nDCG@10 over datasets)\n")
        print("| options | inner nDCG@10 |\n|---|---:|")
        for options, value in table.items():
            mark = " (chosen)" if options == chosen else ""
            print(f"| {options.label()}{mark} | {value:.4f} |")
    print("\n| split | queries | fixed options (plain CV) | chosen on train (nested) | delta |")
    print("|---|---:|---:|---:|---:|")
    out: dict[str, dict[str, float]] = {}
    for name, split in splits:
        values = [v for i, v in selection.scores.items() if queries[i].dataset == name]
        fixed = baseline[f"{name}/{split} held-out"]["ndcg@10_reranked"]
        mean = float(np.mean(values))
        print(
            f"| {name}/{split} | {len(values)} | {fixed:.4f} | {mean:.4f} | {mean - fixed:+.4f} |"
        )
        out[f"{name}/{split} held-out (nested)"] = {
            "queries": len(values),
            "ndcg@10_fused": baseline[f"{name}/{split} held-out"]["ndcg@10_fused"],
            "ndcg@10_fixed_options": fixed,
            "ndcg@10_chosen_options": round(mean, 4),
        }
    return out


def not_worse(held_out: dict[str, dict[str, float]]) -> bool:
    """Whether the chosen options' held-out nDCG@10 is at least the fixed options' on every split
    (compared at the four decimals both are reported with)."""
    return all(
        row["ndcg@10_chosen_options"] >= round(row["ndcg@10_fixed_options"], 4)
        for row in held_out.values()
    )


def summary(
    found: Selection,
    every_query: dict[Options, float],
    shipped: Options | None,
    held: dict[str, dict[str, float]],
) -> dict[str, object]:
    """What ``--summary`` writes (``benchmarks/shipped_reranker.py`` tabulates it): each option
    set's inner figure per outer fold and over every query, the choices, the held-out rows and
    the options shipped (None: the weights were kept)."""
    return {
        "options": [
            {
                "label": o.label(),
                "l2": o.l2,
                "trees": o.trees,
                "inner": [round(table[o], 4) for table in found.inner],
                "every_query": round(every_query[o], 4),
            }
            for o in GRID
        ],
        "chosen_per_fold": [o.label() for o in found.chosen],
        "shipped": shipped.label() if shipped else None,
        "held_out": held,
    }


def select(
    queries: Sequence[Query],
    xs: Sequence[np.ndarray],
    off_train: list[int],
    splits: Sequence[tuple[str, str]],
    fit: Fit,
    fixed: dict[str, dict[str, float]],
    args: argparse.Namespace,
) -> dict[str, dict[str, float]]:
    """``--select``: :func:`nested` against the fixed options' plain cross-validation
    (``fixed``), then :func:`choose` over every query. Sets ``args.l2``/``args.trees`` to that
    choice when the nested figures are :func:`not_worse` on every split, else turns ``--write``
    off (the weights are kept); writes ``args.summary`` when given. Returns the held-out rows."""
    found = nested(queries, xs, off_train, fit, args.seed)
    held = report(queries, found, fixed, splits)
    in_domain = [i for i, q in enumerate(queries) if not q.off_topic]
    best, table = choose(queries, xs, in_domain, off_train, fit, args.seed)
    print("\nover every query (two-fold, the report's folds):")
    for options, value in table.items():
        print(f"  {options.label():28s} {value:.4f}{'  (chosen)' if options == best else ''}")
    shipped = best if not_worse(held) else None
    if shipped is not None:
        args.l2, args.trees = shipped.l2, shipped.trees
        print(f"\nshipping {shipped.label()}")
    else:
        args.write = False
        print("\nthe chosen options are worse held out on a split: the weights are kept")
    if args.summary:
        args.summary.write_text(json.dumps(summary(found, table, shipped, held), indent=1) + "\n")
    return held


__all__ = [
    "GRID",
    "Options",
    "Selection",
    "choose",
    "nested",
    "not_worse",
    "report",
    "select",
    "summary",
]
