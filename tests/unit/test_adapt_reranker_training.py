"""Fitting the feature reranker per adapted collection (adapt.reranker_training), the
queries `bosun adapt` fits it on (adapt.calibration) and how a collection loads it."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from adapt.queries import cross_fit_plan, off_topic_questions
from adapt.reranker_training import (
    TrainingQuery,
    TrainOptions,
    choose_cutoff,
    dump_weights,
    fit_reranker,
    weights_payload,
)
from agent.wiring import load_reranker
from archive.store.schema import StoreError
from providers.rerankers.base import POOL
from providers.rerankers.features import FEATURES
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights

ROOT = Path(__file__).resolve().parents[2]
SIGNAL = FEATURES.index("coverage")


def _query(rng: np.random.Generator, *, off_topic: bool = False) -> TrainingQuery:
    """Ten candidates; the relevant one (none off-topic) holds more of the query's words."""
    x = rng.normal(0.0, 0.1, (10, len(FEATURES)))
    y = np.zeros(10)
    if off_topic:
        x[:, SIGNAL] = rng.uniform(0.0, 0.2, 10)
    else:
        x[:, SIGNAL] = rng.uniform(0.1, 0.5, 10)
        hit = int(rng.integers(10))
        x[hit, SIGNAL], y[hit] = 0.9, 1.0
    return TrainingQuery(x, y, list(range(10)), 10.0 if off_topic else 1.0, off_topic)


def test_a_fitted_reranker_ranks_held_out_queries_and_separates_off_topic_ones() -> None:
    rng = np.random.default_rng(3)
    train = [_query(rng) for _ in range(60)] + [_query(rng, off_topic=True) for _ in range(10)]
    trained = fit_reranker(train, TrainOptions(trees=5))
    cutoff = trained.cutoff(0.01)
    held = [_query(rng) for _ in range(20)]
    assert all(
        int(np.argmax(trained.weights.scores(q.x, q.sources))) == int(np.argmax(q.y)) for q in held
    )
    off = [_query(rng, off_topic=True) for _ in range(10)]
    assert all(trained.weights.scores(q.x, q.sources).max() < cutoff for q in off)
    assert max(trained.off_best) < cutoff <= min(trained.train_best)
    assert trained.floor(cutoff, 0.01) <= cutoff


def test_the_weights_file_round_trips(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    trained = fit_reranker([_query(rng) for _ in range(30)], TrainOptions(trees=3))
    path = tmp_path / "weights.json"
    fitted = replace(trained.weights, pool=100)
    path.write_text(dump_weights(weights_payload(fitted, 0.2, 0.01, {"by": "test"})))
    loaded = FeatureWeights.load(path)
    assert loaded.cutoff == 0.2 and loaded.floor == 0.01 and loaded.info == {"by": "test"}
    assert loaded.pool == 100 and FeatureReranker(weights=loaded).pool == 100
    assert FeatureWeights.load().pool == POOL  # the shipped file names none: the default
    q = _query(rng)
    assert loaded.scores(q.x, q.sources) == pytest.approx(
        trained.weights.scores(q.x, q.sources), abs=1e-4
    )


def test_nothing_relevant_is_nothing_to_learn_from() -> None:
    rng = np.random.default_rng(5)
    with pytest.raises(ValueError, match="relevant"):
        fit_reranker([_query(rng, off_topic=True) for _ in range(3)], TrainOptions())


def test_the_cutoff_lies_between_off_topic_and_in_domain_best_scores() -> None:
    cutoff = choose_cutoff([0.5, 0.6, 0.7], [0.01, 0.02], 0.0)
    assert 0.02 < cutoff < 0.5
    assert choose_cutoff([0.5, 0.6], [], 0.0) == 0.5  # no off-topic questions: the quantile
    assert choose_cutoff([0.1, 0.6], [0.3], 0.0) == 0.1  # overlapping: the quantile


def test_the_bundled_off_topic_questions_are_the_train_split_only() -> None:
    rows = [
        json.loads(line)
        for line in (ROOT / "benchmarks/questions/off_topic.jsonl").read_text().splitlines()
        if line.strip()
    ]
    train = [r["question"] for r in rows if r.get("split") == "train"]
    assert off_topic_questions() == train and len(train) < len(rows)


def test_each_half_of_the_training_queries_is_left_out_of_its_own_head() -> None:
    queries = {f"q{i}": f"question {i}" for i in range(200)}
    relevant = {q: [f"d{q}"] for q in queries}
    plan = cross_fit_plan([], (queries, relevant, "set/dev without fold 1/2"))
    halves = [{q.text for q in half} for half in plan.halves]
    assert halves[0].isdisjoint(halves[1]) and halves[0] | halves[1] == set(queries.values())
    assert 70 < len(halves[0]) < 130
    for half, source in zip(halves, plan.head_sources, strict=True):
        assert half.isdisjoint(source[0].values())
        assert half | set(source[0].values()) == set(queries.values())
    by_text = {t: q for q, t in queries.items()}
    assert all(q.relevant == {f"d{by_text[q.text]}"} for q in plan.halves[0])
    again = cross_fit_plan([], (queries, relevant, "set/dev without fold 1/2"))
    assert again.halves == plan.halves


def test_a_collections_reranker_file_is_checked_against_its_recorded_sha256(
    tmp_path: Path,
) -> None:
    path = tmp_path / "feature-reranker.json"
    shipped = (ROOT / "providers/data/feature_reranker.json").read_bytes()
    path.write_bytes(shipped)
    sha = hashlib.sha256(shipped).hexdigest()
    assert load_reranker(path, sha, "c").cutoff == FeatureWeights.load().cutoff
    with pytest.raises(StoreError, match="does not match"):
        load_reranker(path, "0" * 64, "c")
    path.unlink()
    with pytest.raises(StoreError, match="missing"):
        load_reranker(path, sha, "c")
