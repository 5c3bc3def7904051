"""Do the pairs `bosun adapt` mines from the collection help next to labels? One held-out fold.

    python benchmarks/adapt_mining.py ../shared/data/beir/ntsb_pc2narr --split dev --fold 1/2 \\
        --limit 250 [--json]

Runs, on the dataset's eval collection (``bosun eval DATASET --split S`` builds it once): the
stock model scored on fold K (``bosun eval --fold K/N``); ``bosun adapt --queries DATASET --split
S --hold-out K/N --no-calibrate`` (labels and mined pairs) scored on it; the same with
``--no-mining`` (labels only) scored on it. The head only (the shipped reranker orders the
candidates in every row), so the rows differ by the training pairs alone. The collection must
start on the stock model and is left on it. Prints a markdown table (``--json``: one object).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from agent.evaluation.collections import collection_name


def bosun(*args: str) -> dict[str, Any]:
    """Run one `bosun` command with ``--json`` and return its object (stderr passes through)."""
    done = subprocess.run(
        [sys.executable, "-m", "agent.cli", *args, "--json"],
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bosun {' '.join(args)} failed with exit code {done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="a BEIR dataset folder")
    parser.add_argument("--split", required=True, help="the split whose queries are folded")
    parser.add_argument("--fold", default="1/2", help="the held-out fold K/N (default 1/2)")
    parser.add_argument("--limit", type=int, help="score the fold's first N queries only")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    collection = collection_name(args.dataset)
    data = ["--split", args.split]
    scored = [str(args.dataset), *data, "--fold", args.fold]
    if args.limit:
        scored += ["--limit", str(args.limit)]
    trained = ["--collection", collection, "--queries", str(args.dataset), *data]
    trained += ["--hold-out", args.fold, "--no-calibrate"]
    rows: list[dict[str, Any]] = []
    try:
        rows.append({"model": "stock", **_metrics(bosun("eval", *scored)), "adapt_s": 0.0})
        for name, extra in (("labels + mined pairs", []), ("labels only", ["--no-mining"])):
            started = time.perf_counter()
            report = bosun("adapt", *trained, *extra)
            adapt_s = round(time.perf_counter() - started, 1)
            row = {"model": name, **_metrics(bosun("eval", *scored)), "adapt_s": adapt_s}
            row["pairs"] = report.get("training", {}).get("pairs")
            rows.append(row)
            print(f"{name}: {row}", file=sys.stderr, flush=True)
    finally:
        bosun("adapt", "--collection", collection, "--reset")
    result = {"dataset": args.dataset.name, "split": args.split, "fold": args.fold, "rows": rows}
    print(json.dumps(result) if args.json else _table(result))


def _metrics(evaluated: dict[str, Any]) -> dict[str, Any]:
    keys = ("queries", "ndcg@10", "recall@100")
    return {k: evaluated[k] for k in keys}


def _table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['dataset']} {result['split']}, fold {result['fold']} held out (head only)",
        "",
        "| model | queries | nDCG@10 | Recall@100 | adapt s |",
        "|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        lines.append(
            f"| {r['model']} | {r['queries']} | {r['ndcg@10']:.4f} | {r['recall@100']:.4f} "
            f"| {r['adapt_s']:.0f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
