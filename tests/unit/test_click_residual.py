"""The click residual (tools.click_residual, adapt.residual_fit): inverse-propensity weights of
the place a click was shown at, a correction learnt on some questions that carries over to
questions and documents it never saw, the refusal of a residual that scores worse on the
questions held back from it, and its file beside the click memory."""

from __future__ import annotations

import numpy as np
import pytest

from adapt.feedback import Shown, turn_labels
from adapt.memory_fit import MIN_MOVABLE, Fitted, Pool, Ranked
from adapt.residual_fit import (
    MAX_WEIGHT,
    ClickPairs,
    FittedResidual,
    fit_residual,
    ips_weight,
    propensity,
    reordered,
)
from providers.rerankers.features import FEATURES
from tests.fakes.feedback_checks import nested_check
from tools.click_memory import ClickMemory, RecalledClicks
from tools.click_residual import ClickResidual

WIDTH = len(FEATURES)
SIGNAL = FEATURES.index("title")  # the feature that marks the relevant passage below


def test_a_click_weighs_one_over_the_chance_its_place_was_looked_at() -> None:
    assert [propensity(k) for k in (1, 2, 4)] == [1.0, 0.5, 0.25]
    assert [ips_weight(k) for k in (1, 2, 5)] == [1.0, 2.0, 5.0]
    assert ips_weight(40) == MAX_WEIGHT  # clipped
    assert ips_weight(3, power=0.0) == 1.0  # no position bias assumed: every click alike
    with pytest.raises(ValueError, match="counted from 1"):
        propensity(0)


def _pool(relevant_at: int, n: int, signal: bool, rng: np.random.Generator) -> np.ndarray:
    features = rng.normal(0.0, 1.0, size=(n, WIDTH))
    features[:, SIGNAL] = 0.0
    if signal:
        features[relevant_at, SIGNAL] = 1.0
    return features


def _question(
    name: str, relevant_at: int, shown_at: int, rng: np.random.Generator, *, signal: bool = True
) -> Ranked:
    """A pool of eight passages of eight documents, the reranker's scores falling; the relevant
    document at ``relevant_at`` (0-based), its passage opened at place ``shown_at``."""
    n = 8
    chunks = tuple(f"{name}-c{i}" for i in range(n))
    sources = tuple(f"{name}-d{i}" for i in range(n))
    base = np.linspace(0.9, 0.2, n)
    pool = Pool(
        chunks, base, _pool(relevant_at, n, signal, rng), ((chunks[relevant_at], shown_at),)
    )
    return Ranked(name, frozenset({sources[relevant_at]}), sources, n, pool)


def test_the_weight_of_a_pair_follows_the_place_its_click_was_shown_at() -> None:
    rng = np.random.default_rng(0)
    questions = ClickPairs([_question("a", 0, 1, rng), _question("b", 0, 4, rng)])
    first, fourth = questions.pairs
    assert first is not None and fourth is not None
    # Each click's weight is shared over its seven pairs (one per other document of the pool).
    assert first[2].sum() == pytest.approx(1.0) and fourth[2].sum() == pytest.approx(4.0)
    assert len(first[2]) == 7


def test_the_best_place_a_positive_was_shown_at_is_kept_with_its_label() -> None:
    rows = [
        Shown("t1", "q", "c1", "d1", 3, opened=True),
        Shown("t1", "q", "c2", "d2", 1),
        Shown("t2", "q", "c1", "d1", 2, downloaded=True),
    ]
    (label,) = turn_labels(rows)
    assert label.clicked == (("c1", 2),) and label.negatives == {"c2"}


def test_a_feature_that_marks_what_users_opened_is_learnt_and_lifts_unseen_questions() -> None:
    rng = np.random.default_rng(1)
    # The reranker puts the relevant document second to fifth; the users open it there.
    ranked = [_question(f"q{i}", 1 + i % 4, 2 + i % 4, rng) for i in range(60)]
    fitted = fit_residual(ranked)
    assert fitted.residual is not None and fitted.installable
    assert fitted.check.gain > 0.2 and fitted.check.worse == 0
    assert fitted.report()["pairs"] == fitted.pairs > 0
    # New questions, new documents, the relevant one anywhere in the pool: it comes first.
    for i, at in enumerate((1, 2, 3)):
        new = _question(f"new{i}", at, at + 1, rng)
        assert reordered(new, fitted.residual)[0] == f"new{i}-d{at}"


def test_a_residual_worse_on_the_held_back_questions_is_refused() -> None:
    rng = np.random.default_rng(2)
    # The reranker already puts what users opened first and no feature says more: a correction
    # can only lose on questions it was not fitted on.
    ranked = [_question(f"q{i}", 0, 1, rng, signal=False) for i in range(60)]
    fitted = fit_residual(ranked)
    assert not fitted.installable
    assert fitted.check.gain <= 0.0
    # Whatever was fitted, a held-back slice that loses keeps it out.
    some = ClickResidual(np.ones(WIDTH), np.zeros(WIDTH), np.ones(WIDTH), 1.0)
    lost = FittedResidual(some, Fitted(None, [1.0, 1.0, 0.2], [0.9, 0.9, 1.0]), 0.1, 10)
    assert lost.check.gain > 0 and not lost.installable  # one up, two down: not better
    worse = FittedResidual(some, Fitted(None, [1.0, 1.0], [0.6, 1.0]), 0.1, 10)
    assert not worse.installable


def test_a_residual_lifting_what_can_move_and_keeping_the_first_ones_is_installed() -> None:
    some = ClickResidual(np.ones(WIDTH), np.zeros(WIDTH), np.ones(WIDTH), 1.0)
    lifts = nested_check(first=200, fell=4, rose=5, sank=3, still=4)
    assert FittedResidual(some, lifts, 0.1, 900).installable
    drops = nested_check(first=200, fell=30, rose=5, sank=3, still=4)
    assert not FittedResidual(some, drops, 0.1, 900).installable
    few = nested_check(first=40, fell=0, rose=MIN_MOVABLE - 1, sank=0, still=0)
    assert not FittedResidual(some, few, 0.1, 90).installable


def _passage(i: int, title: str, rerank: float) -> dict[str, object]:
    return {
        "chunk_id": f"c{i}",
        "source_id": f"d{i}",
        "doc_id": f"d{i}",
        "title": title,
        "subject": None,
        "text": f"narrative number {i} of the archive",
        "cosine": 0.5,
        "bm25": 1.0,
        "score": 0.5,
        "rerank": rerank,
    }


async def test_the_memory_file_carries_the_residual_and_the_pipeline_applies_it() -> None:
    weights = np.zeros(WIDTH)
    weights[SIGNAL] = 5.0  # title overlap with the question outweighs the reranker
    spread = np.ones(WIDTH)
    residual = ClickResidual(weights, np.zeros(WIDTH), spread, 0.1)
    memory = ClickMemory(np.zeros((0, 3), np.float32), (), 0.5, 0.0, residual)
    again = ClickMemory.from_bytes(memory.to_bytes())
    assert again.residual is not None and np.allclose(again.residual.weights, weights)
    assert (
        ClickMemory.from_bytes(ClickMemory(np.zeros((0, 3)), (), 0.5, 0.0).to_bytes()).residual
        is None
    )
    passages = [_passage(0, "weather", 0.9), _passage(1, "engine fire", 0.8)]

    class Embedder:
        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0, 0.0]

    recalled = RecalledClicks(again, Embedder())  # type: ignore[arg-type]
    order = await recalled.reorder("engine fire on the ship", passages)  # type: ignore[arg-type]
    assert [p["chunk_id"] for p in order] == ["c1", "c0"]
    with pytest.raises(ValueError, match="needs"):
        ClickResidual(np.zeros(3), np.zeros(3), np.ones(3), 1.0)
