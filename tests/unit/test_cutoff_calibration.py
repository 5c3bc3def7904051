"""The cutoff's cosine thresholds mapped to an adapted embedder (tools.calibration) and used by
the pipeline when the collection records them."""

from __future__ import annotations

import numpy as np
import pytest

from archive.store.search_filters import SearchFilters
from tests.fakes.clients import FakeBackend, FakeReranker, passage
from tools.calibration import best_cosines, map_threshold, map_thresholds, sample_rows
from tools.pipeline import Pipeline, Switches, run_pipeline
from tools.relevance import STOCK_COSINES, CosineThresholds, decide

RNG = np.random.default_rng(7)
STOCK = np.sort(RNG.uniform(0.2, 0.8, 200))
IN_DOMAIN = np.arange(200) >= 60  # the highest 140 are in-domain probes


def test_the_same_cosines_map_each_threshold_to_itself() -> None:
    mapped = map_thresholds(STOCK, STOCK.copy(), IN_DOMAIN)
    assert mapped == CosineThresholds(STOCK_COSINES.rescue, STOCK_COSINES.floor)


def test_a_model_that_raises_every_cosine_raises_the_thresholds_as_much() -> None:
    mapped = map_thresholds(STOCK, STOCK + 0.07, IN_DOMAIN)
    assert mapped.rescue == pytest.approx(STOCK_COSINES.rescue + 0.07, abs=1e-3)
    assert mapped.floor == pytest.approx(STOCK_COSINES.floor + 0.07, abs=1e-3)


def test_thresholds_follow_the_quantiles_not_the_values() -> None:
    # A monotone but non-linear change of scale: each threshold keeps its rank among the probes.
    adapted = STOCK**2
    weights = np.full(len(STOCK), 1.0)
    for t in (0.38, 0.48):
        assert map_threshold(STOCK, adapted, weights, t) == pytest.approx(t**2, abs=2e-3)


def test_a_threshold_beyond_every_probe_keeps_its_distance_from_the_last() -> None:
    weights = np.ones(3)
    assert map_threshold(np.array([0.1, 0.2, 0.3]), np.array([0.4, 0.5, 0.6]), weights, 0.35) == (
        pytest.approx(0.65)
    )


def test_calibration_needs_both_kinds_of_probe() -> None:
    with pytest.raises(ValueError, match="off-topic"):
        map_thresholds(STOCK, STOCK, np.ones(len(STOCK), dtype=bool))


def test_best_cosines_can_leave_out_each_probes_own_passage() -> None:
    passages = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])
    probes = np.array([[1.0, 0.0], [0.0, 2.0]])
    assert best_cosines(probes, passages) == pytest.approx([1.0, 1.0])
    left_out = best_cosines(probes, passages, exclude=np.array([0, -1]), block=2)
    assert left_out == pytest.approx([0.6, 1.0])


def test_a_large_collection_is_sampled_the_same_way_each_time() -> None:
    rows = sample_rows(np.zeros((50, 2)), limit=10)
    assert len(rows) == 10 and list(rows) == sorted(rows)
    assert list(rows) == list(sample_rows(np.zeros((50, 2)), limit=10))
    assert len(sample_rows(np.zeros((5, 2)), limit=10)) == 5


def test_decide_reads_the_collections_thresholds() -> None:
    adapted = CosineThresholds(rescue=0.7, floor=0.5)
    assert decide(0.05, 0.6, 0.1, empty=False)["rescued_by_cosine"] is True
    assert decide(0.05, 0.6, 0.1, empty=False, cosines=adapted)["stopped"] is True
    distant = decide(0.05, 0.45, 0.01, empty=False, cosines=adapted)
    assert distant["below_cosine_floor"] is True and distant["stopped"] is True


async def test_the_pipeline_applies_its_cosine_thresholds() -> None:
    # The fake backend's cosine is the share of the question's words a passage holds (2/3).
    passages = [passage("a00000000000", "ballast pump leak", doc_id="A")]
    outcomes = {}
    for name, cosines in (("stock", STOCK_COSINES), ("adapted", CosineThresholds(0.7, 0.5))):
        pipeline = Pipeline(
            FakeBackend(passages=passages), FakeReranker(default_cutoff=0.9), None, cosines
        )
        ranking = await run_pipeline(pipeline, "ballast pump zebra", SearchFilters(), Switches())
        outcomes[name] = ranking.relevance
    assert outcomes["stock"]["rescued_by_cosine"] is True and not outcomes["stock"]["stopped"]
    assert outcomes["adapted"]["rescued_by_cosine"] is False and outcomes["adapted"]["stopped"]
