"""benchmarks/adapt_folds.py: the held-out figure is the query-weighted mean of the folds."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("adapt_folds", ROOT / "benchmarks/adapt_folds.py")
assert _spec is not None and _spec.loader is not None
adapt_folds = importlib.util.module_from_spec(_spec)
sys.modules["adapt_folds"] = adapt_folds  # dataclasses resolve their module by name
_spec.loader.exec_module(adapt_folds)


def test_the_mean_weighs_each_fold_by_its_queries() -> None:
    runs = [
        adapt_folds.FoldRun(1, 300, 0.6, 0.9, 0.5, 0.8, 100.0),
        adapt_folds.FoldRun(2, 100, 0.2, 0.5, 0.1, 0.4, 140.0),
    ]
    text = adapt_folds.table(runs, "ntsb_pc2narr", "dev")
    last = text.splitlines()[-1]
    # (300 * 0.6 + 100 * 0.2) / 400 = 0.5, not the plain mean 0.4
    assert last.startswith("| **query-weighted** | 400 | **0.5000** | 0.8000 | 0.4000 | 110 |")
    assert "| 2/2 | 100 | 0.2000 | 0.5000 | 0.1000 | 140 |" in text
