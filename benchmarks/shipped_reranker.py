"""The shipped reranker's options chosen on training queries only, held out: tabulates the
``--summary`` file of ``python -m adapt.shipped_reranker --select`` (nested cross-validation,
:mod:`adapt.shipped_selection`)::

    BOSUN_HOME=... python -m adapt.shipped_reranker --select --write --summary selection.json
    python benchmarks/shipped_reranker.py --run select=selection.json [--json]

Two tables: ``held_out``, every in-domain query's nDCG@10 scored by a model (and options) that
never saw it, the fixed options' plain two-fold cross-validation beside the options chosen on
the training fold; ``options``, each option set's inner figure (the mean over the datasets of
nDCG@10) per outer fold, and over every query.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import Table, emit, runs_parser  # noqa: E402

COMMAND = "python benchmarks/shipped_reranker.py --run select=selection.json --json"


def tables(summary: dict[str, Any]) -> list[Table]:
    held = [
        [
            split.removesuffix(" held-out (nested)"),
            row["queries"],
            row["ndcg@10_fused"],
            row["ndcg@10_fixed_options"],
            row["ndcg@10_chosen_options"],
            round(row["ndcg@10_chosen_options"] - row["ndcg@10_fixed_options"], 4),
        ]
        for split, row in summary["held_out"].items()
    ]
    held_columns = [
        "split (nDCG@10 held out)",
        "queries",
        "fused, not reranked",
        "fixed options: l2 3, 100 trees",
        "options chosen on the training fold",
        "difference",
    ]
    chosen = summary["chosen_per_fold"]
    options = [
        [
            (label := o["label"])
            + "".join(f" (chosen to score fold {f})" for f, c in enumerate(chosen) if c == label)
            + (" (shipped)" if label == summary["shipped"] else ""),
            *o["inner"],
            o["every_query"],
        ]
        for o in summary["options"]
    ]
    option_columns = [
        "options",
        "inner CV on fold 1 (scores fold 0)",
        "inner CV on fold 0 (scores fold 1)",
        "two-fold CV, every query",
    ]
    return [Table("held_out", held_columns, held), Table("options", option_columns, options)]


def main() -> None:
    parser = runs_parser(
        __doc__.splitlines()[0],
        "LABEL=FILE",
        "the --summary file of `python -m adapt.shipped_reranker --select` (one run)",
    )
    args = parser.parse_args()
    if len(args.run) != 1:
        parser.error("one --run: the summary of one selection")
    _, path = args.run[0].split("=", 1)
    summary = json.loads(Path(path).read_text())
    shipped = summary["shipped"] or "none: the weights were kept"
    emit(COMMAND, tables(summary), as_json=args.json, shipped=shipped)


if __name__ == "__main__":
    main()
