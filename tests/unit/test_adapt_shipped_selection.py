"""The shipped reranker's options chosen on training queries only (adapt/shipped_selection.py):
nested cross-validation that never scores a query with a model, or options, that saw it."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from adapt import shipped_reranker, shipped_selection
from adapt.shipped_reranker import Query
from adapt.shipped_selection import GRID, Options, choose, halves, nested, not_worse
from tests.unit.test_adapt_shipped_reranker import _queries

GOOD = Options(1.0, 0)  # the fake fit's only options that find the relevant candidate


def _query(n: int, dataset: str, heldout: bool) -> Query:
    candidates = [
        {"doc_id": f"d{i}", "source_id": f"{n}:{i}", "score": 1.0 - i / 10} for i in range(5)
    ]
    return Query(dataset, f"q{n}", "text", {f"{n}:4": 1}, False, heldout, candidates)


@dataclass
class _Weights:
    trained_on: frozenset[int]
    good: bool
    queries: list[Query]

    def scores(self, x: np.ndarray, sources: list[str]) -> np.ndarray:
        n = int(sources[0].split(":")[0])
        assert n not in self.trained_on, f"query {n} scored by a model trained on it"
        relevant = np.array([s.endswith(":4") for s in sources], dtype=float)
        return relevant if self.good else -np.arange(len(sources), dtype=float)


@dataclass
class _Trained:
    weights: _Weights


def _setup() -> tuple[list[Query], list[np.ndarray], Any, list[set[int]]]:
    queries = [_query(n, ("scifact", "ntsb_pc2narr")[n % 2], n % 3 == 0) for n in range(48)]
    xs = [np.zeros((5, 1)) for _ in queries]
    fits: list[set[int]] = []

    def fit(options: Options, idx: list[int]) -> _Trained:
        fits.append(set(idx))
        return _Trained(_Weights(frozenset(idx), options == GOOD, queries))

    return queries, xs, fit, fits


def test_halves_split_by_query_id_whatever_else_is_there() -> None:
    queries, _, _, _ = _setup()
    first, second = halves(queries, range(48), seed=5)
    assert sorted(first + second) == list(range(48)) and first and second
    some, rest = halves(queries, range(0, 48, 2), seed=5)
    assert set(some) == {i for i in first if i % 2 == 0} and set(rest) <= set(second)


def test_choose_takes_the_options_with_the_best_cross_validated_ndcg() -> None:
    queries, xs, fit, _ = _setup()
    best, table = choose(queries, xs, list(range(48)), [], fit, seed=1)
    assert best == GOOD and table[GOOD] == pytest.approx(1.0)
    assert all(value < 1.0 for options, value in table.items() if options != GOOD)


def test_nested_scores_each_query_once_by_models_and_options_that_never_saw_it() -> None:
    queries, xs, fit, fits = _setup()
    found = nested(queries, xs, [], fit, seed=13)
    assert sorted(found.scores) == list(range(48))  # every query, once (the fake asserts the rest)
    assert found.chosen == [GOOD, GOOD]
    outer = [{i for i, q in enumerate(queries) if q.heldout == fold} for fold in (False, True)]
    # each outer fold's choice and fit used the other fold's queries alone
    per_fold = len(GRID) * 2 + 1
    for fold, calls in enumerate((fits[:per_fold], fits[per_fold:])):
        assert all(not (idx & outer[fold]) for idx in calls)


def test_not_worse_compares_at_the_reported_precision() -> None:
    row = {"queries": 10, "ndcg@10_fixed_options": 0.43564, "ndcg@10_chosen_options": 0.4356}
    assert not_worse({"a": row})
    assert not not_worse({"a": row, "b": {**row, "ndcg@10_chosen_options": 0.4355}})


def _builder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "rerank_candidates_scifact.pkl").write_bytes(
        pickle.dumps(_queries(random.Random(3)))
    )
    weights = tmp_path / "feature_reranker.json"
    monkeypatch.setattr(shipped_reranker, "CACHE", tmp_path)
    monkeypatch.setattr(shipped_reranker, "ROOT", tmp_path)
    monkeypatch.setattr(shipped_reranker, "WEIGHTS", weights)
    monkeypatch.setattr(shipped_selection, "GRID", (Options(3.0, 0), Options(1.0, 2)))
    return weights


def test_the_builder_ships_the_options_chosen_when_not_worse_held_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = _builder(tmp_path, monkeypatch)
    monkeypatch.setattr(shipped_selection, "not_worse", lambda held: True)
    summary = tmp_path / "summary.json"
    shipped_reranker.main(
        ["--datasets", "scifact", "--k", "10", "--select", "--write", "--summary", str(summary)]
    )

    out = capsys.readouterr().out
    assert "chosen on train (nested)" in out and "shipping l2 " in out
    info = json.loads(weights.read_text())["info"]
    assert info["options"] == "chosen by nested cross-validation (--select)"
    assert (info["l2"], info["trees"]) in {(3.0, 0), (1.0, 2)}
    found = json.loads(summary.read_text())
    assert [o["label"] for o in found["options"]] == ["l2 3, linear ranker", "l2 1, 2 trees"]
    assert all(len(o["inner"]) == 2 for o in found["options"])  # one figure per outer fold
    assert found["shipped"] == f"l2 {info['l2']:g}, " + (
        "linear ranker" if info["trees"] == 0 else f"{info['trees']} trees"
    )
    held = info["ndcg@10"]["scifact/train held-out (nested)"]
    assert found["held_out"]["scifact/train held-out (nested)"] == held
    # the benchmark tabulates the summary for docs/ (benchmarks/render.py)
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "shipped_reranker.py"
    done = subprocess.run(
        [sys.executable, str(script), "--run", f"select={summary}", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    doc = json.loads(done.stdout)
    tables = {t["id"]: t["rows"] for t in doc["tables"]}
    assert tables["held_out"][0][:2] == ["scifact/train", 60]
    assert tables["held_out"][0][4] == held["ndcg@10_chosen_options"]
    assert len(tables["options"]) == 2 and doc["shipped"] == found["shipped"]
    assert held["queries"] == 60
    assert (
        held["ndcg@10_fixed_options"]
        == info["ndcg@10"]["scifact/train held-out"]["ndcg@10_reranked"]
    )


def test_the_builder_keeps_the_weights_when_the_choice_is_worse_held_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    weights = _builder(tmp_path, monkeypatch)
    monkeypatch.setattr(shipped_selection, "not_worse", lambda held: False)
    summary = tmp_path / "summary.json"
    shipped_reranker.main(
        ["--datasets", "scifact", "--k", "10", "--select", "--write", "--summary", str(summary)]
    )

    assert "the weights are kept" in capsys.readouterr().out
    assert not weights.exists()
    assert json.loads(summary.read_text())["shipped"] is None
