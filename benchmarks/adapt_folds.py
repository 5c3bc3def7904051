"""Held-out K-fold figures of `bosun adapt` on a BEIR split: every query scored by a model, a
reranker and a vocabulary fitted without it.

    python benchmarks/adapt_folds.py ../shared/data/beir/ntsb_pc2narr --split dev --folds 5 \\
        --negatives 800
    python benchmarks/adapt_folds.py ../shared/data/beir/scifact --split train --folds 5

For each fold K of N it runs the documented commands, in order: ``bosun adapt --queries
DATASET --split S --hold-out K/N`` (which undoes the previous fold's head first, so every fold
starts from the stock model), then ``bosun eval DATASET --split S --fold K/N`` with the default
layers and with ``--no-rerank``. Prints one markdown table: each fold's queries, nDCG@10 and
Recall@100, the hybrid order's nDCG@10, the adapt's wall time, and the query-weighted mean over
the folds (every query of the split is in exactly one fold). The eval collection must exist
(``bosun eval DATASET --split S`` builds it once) and is left on the stock model (``--keep``
leaves the last fold's model instead). Uses ``BOSUN_HOME`` like the CLI; takes a few minutes a
fold on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from agent.evaluation.collections import collection_name


@dataclass(frozen=True)
class FoldRun:
    fold: int
    queries: int
    ndcg: float
    recall: float
    fused_ndcg: float
    fused_recall: float
    adapt_s: float


def bosun(*args: str) -> dict:
    """Run one `bosun` command with ``--json`` and return its object (stderr passes through)."""
    done = subprocess.run(
        [sys.executable, "-m", "agent.cli", *args, "--json"],
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bosun {' '.join(args)} failed with exit code {done.returncode}")
    result: dict = json.loads(done.stdout)
    return result


def run_fold(
    dataset: Path, split: str, collection: str, fold: int, args: argparse.Namespace
) -> FoldRun:
    held_out = f"{fold}/{args.folds}"
    started = time.perf_counter()
    bosun(
        "adapt", "--collection", collection, "--queries", str(dataset), "--split", split,
        "--hold-out", held_out, "--negatives", str(args.negatives),
    )  # fmt: skip
    adapt_s = time.perf_counter() - started
    default = bosun("eval", str(dataset), "--split", split, "--fold", held_out)
    fused = bosun("eval", str(dataset), "--split", split, "--fold", held_out, "--no-rerank")
    print(
        f"fold {held_out}: nDCG@10 {default['ndcg@10']:.4f} (hybrid {fused['ndcg@10']:.4f}) "
        f"over {default['queries']} queries, adapt {adapt_s:.0f} s",
        file=sys.stderr,
        flush=True,
    )
    return FoldRun(
        fold, default["queries"], default["ndcg@10"], default["recall@100"],
        fused["ndcg@10"], fused["recall@100"], adapt_s,
    )  # fmt: skip


def table(runs: list[FoldRun], name: str, split: str) -> str:
    total = sum(r.queries for r in runs)

    def mean(value: str) -> float:
        return sum(getattr(r, value) * r.queries for r in runs) / total

    lines = [
        f"{name} {split}, held out over {len(runs)} folds",
        "",
        "| fold | queries | default nDCG@10 | Recall@100 | hybrid (no rerank) nDCG@10 | adapt s |",
        "|---|---|---|---|---|---|",
    ]
    for r in runs:
        lines.append(
            f"| {r.fold}/{len(runs)} | {r.queries} | {r.ndcg:.4f} | {r.recall:.4f} "
            f"| {r.fused_ndcg:.4f} | {r.adapt_s:.0f} |"
        )
    lines.append(
        f"| **query-weighted** | {total} | **{mean('ndcg'):.4f}** | {mean('recall'):.4f} "
        f"| {mean('fused_ndcg'):.4f} | {mean('adapt_s'):.0f} |"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="a BEIR dataset folder")
    parser.add_argument("--split", required=True, help="the split whose queries are folded")
    parser.add_argument("--folds", type=int, default=5, help="N of the K/N folds (default 5)")
    parser.add_argument("--negatives", type=int, default=400, help="bosun adapt --negatives")
    parser.add_argument("--keep", action="store_true", help="leave the last fold's model")
    args = parser.parse_args()
    if args.folds < 2:
        parser.error("--folds must be at least 2")
    collection = collection_name(args.dataset)
    try:
        runs = [
            run_fold(args.dataset, args.split, collection, k, args)
            for k in range(1, args.folds + 1)
        ]
    finally:
        if not args.keep:
            bosun("adapt", "--collection", collection, "--reset")
    print(table(runs, args.dataset.name, args.split))


if __name__ == "__main__":
    main()
