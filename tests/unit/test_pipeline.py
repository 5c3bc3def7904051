"""The retrieval pipeline (retrieve → rerank → floor → cutoff) and the relevance rule, on fakes."""

from __future__ import annotations

import pytest

from archive.store.search_filters import SearchFilters
from tests.fakes.clients import FakeBackend, FakeReranker, passage
from tools.pipeline import Pipeline, run_pipeline
from tools.relevance import decide
from tools.retrieval_config import RetrievalConfig

PASSAGES = [
    passage("a00000000000", "cargo hold inspection ballast", doc_id="A"),
    passage("a00000000001", "ballast pump leak in engine room", doc_id="B"),
    passage("a00000000002", "pump seal renewed after the ballast leak", doc_id="C"),
]


def pipeline(reranker: FakeReranker | None = None) -> Pipeline:
    return Pipeline(FakeBackend(passages=list(PASSAGES)), reranker or FakeReranker())


async def test_rerank_orders_floors_and_records_scores() -> None:
    ranking = await run_pipeline(
        pipeline(), "ballast pump leak", SearchFilters(), RetrievalConfig(rerank_floor=0.5)
    )
    assert [p["chunk_id"] for p in ranking.kept] == ["a00000000001", "a00000000002"]
    assert ranking.ranked[: len(ranking.kept)] == ranking.kept  # the floor only trims the end
    assert ranking.rerank["status"] == "ok" and ranking.rerank["dropped"] == 1
    assert ranking.rerank["scores"][0] == 1.0 and ranking.kept[0]["rerank"] == 1.0
    assert ranking.relevance["stopped"] is False and ranking.relevance["best"] == 1.0


async def test_the_floor_keeps_one_when_all_fall_below_it() -> None:
    ranking = await run_pipeline(
        pipeline(), "ballast zebra", SearchFilters(), RetrievalConfig(rerank_floor=0.9)
    )
    assert len(ranking.kept) == 1 and len(ranking.ranked) == 3


async def test_rerank_off_keeps_the_fused_order() -> None:
    reranker = FakeReranker()
    ranking = await run_pipeline(
        pipeline(reranker), "ballast pump", SearchFilters(), RetrievalConfig(rerank=False)
    )
    assert reranker.calls == 0 and ranking.rerank["status"] == "off"
    assert ranking.kept == ranking.ranked and all(p["rerank"] is None for p in ranking.kept)
    assert ranking.relevance["applied"] is False and ranking.relevance["stopped"] is False


async def test_a_reranker_failure_keeps_the_fused_order_and_says_so() -> None:
    ranking = await run_pipeline(
        pipeline(FakeReranker(fail=True)), "ballast pump", SearchFilters(), RetrievalConfig()
    )
    assert ranking.rerank["status"] == "failed"
    assert [p["chunk_id"] for p in ranking.kept] == [p["chunk_id"] for p in ranking.ranked]
    assert ranking.degraded and "fused order kept" in ranking.degraded[0]
    assert ranking.relevance["stopped"] is False  # fused scores have no absolute scale


async def test_the_pool_is_reranked_and_the_rest_follows_in_fused_order() -> None:
    switches = RetrievalConfig(pool=1, k=3)
    ranking = await run_pipeline(pipeline(), "ballast pump leak", SearchFilters(), switches)
    assert len(ranking.ranked) == 3 and len(ranking.kept) == 1
    assert ranking.ranked[0]["rerank"] is not None
    assert all(p["rerank"] is None for p in ranking.ranked[1:])


@pytest.mark.parametrize(("run_pool", "reranked"), [(None, 2), (1, 1), (3, 3)])
async def test_the_pool_is_the_rerankers_own_unless_the_run_sets_it(
    run_pool: int | None, reranked: int
) -> None:
    # A reranker `bosun adapt` fitted on its own pool (here 2) orders that many candidates.
    switches = RetrievalConfig(pool=run_pool, k=3)
    ranking = await run_pipeline(
        pipeline(FakeReranker(pool=2)), "ballast pump leak", SearchFilters(), switches
    )
    assert len(ranking.ranked) == 3
    assert sum(p["rerank"] is not None for p in ranking.ranked) == reranked


async def test_nothing_retrieved_stops_the_turn() -> None:
    ranking = await run_pipeline(pipeline(), "zebra giraffe", SearchFilters(), RetrievalConfig())
    assert ranking.kept == [] and ranking.rerank["status"] == "empty"
    assert ranking.relevance["stopped"] is True


def test_below_the_cutoff_stops_unless_a_passage_is_close_in_meaning() -> None:
    assert decide(0.05, 0.2, 0.1, empty=False)["stopped"] is True
    rescued = decide(0.05, 0.6, 0.1, empty=False)
    assert rescued["stopped"] is False and rescued["rescued_by_cosine"] is True
    assert decide(0.05, 0.2, 0.0, empty=False, calibrated=False)["stopped"] is False


def test_a_distant_best_passage_stops_unless_the_reranker_is_sure_or_overridden() -> None:
    distant = decide(0.05, 0.2, 0.01, empty=False)
    assert distant["stopped"] is True and distant["below_cosine_floor"] is True
    near = decide(0.05, 0.4, 0.01, empty=False)
    assert near["stopped"] is False and near["below_cosine_floor"] is False
    assert decide(0.6, 0.2, 0.01, empty=False)["stopped"] is False  # e.g. an exact report number
    overridden = decide(0.05, 0.2, 0.02, empty=False, calibrated=False)
    assert overridden["stopped"] is False  # --score-cutoff replaces the whole calibrated rule


@pytest.mark.parametrize(("cutoff", "threshold", "stopped"), [(None, 0.5, True), (0.0, 0.0, False)])
async def test_the_cutoff_is_the_rerankers_own_unless_overridden(
    cutoff: float | None, threshold: float, stopped: bool
) -> None:
    reranker = FakeReranker(default_cutoff=0.5)
    switches = RetrievalConfig(score_cutoff=cutoff)
    ranking = await run_pipeline(
        pipeline(reranker), "ballast zebra giraffe", SearchFilters(), switches
    )
    assert ranking.relevance["threshold"] == threshold
    assert ranking.relevance["stopped"] is stopped


async def test_only_a_model_name_the_collection_does_not_hold_as_written_gets_its_other_forms() -> (
    None
):
    backend = FakeBackend(
        passages=[
            passage("a00000000010", "PA-28 engine lost power on climb", doc_id="P"),
            passage("a00000000011", "R-66 rotor inspection", doc_id="R"),
        ]
    )
    ranking = await run_pipeline(
        Pipeline(backend, FakeReranker()), "PA28 power loss", SearchFilters(), RetrievalConfig()
    )
    assert backend.queries[-1][0] == "PA28 power loss PA-28"
    assert ranking.kept[0]["doc_id"] == "P"
    await run_pipeline(
        Pipeline(backend, FakeReranker()), "R-66 rotor", SearchFilters(), RetrievalConfig()
    )
    assert backend.queries[-1][0] == "R-66 rotor"


async def test_the_click_memory_reorders_after_the_cutoff_decided_on_the_order_without_it() -> None:
    import numpy as np

    from tools.click_memory import ClickMemory, RecalledClicks

    class Embedder:
        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0]

    config = RetrievalConfig(rerank_floor=0.0)
    plain = await run_pipeline(pipeline(), "ballast pump leak", SearchFilters(), config)
    last = plain.ranked[-1]["source_id"]
    memory = ClickMemory(np.asarray([[1.0, 0.0]], np.float32), ((last,),), 0.5, 5.0)
    lifted = Pipeline(
        FakeBackend(passages=list(PASSAGES)),
        FakeReranker(),
        memory=RecalledClicks(memory, Embedder()),  # type: ignore[arg-type]
    )
    ranking = await run_pipeline(lifted, "ballast pump leak", SearchFilters(), config)
    assert ranking.ranked[0]["source_id"] == last and ranking.kept[0]["source_id"] == last
    assert sorted(p["chunk_id"] for p in ranking.ranked) == sorted(
        p["chunk_id"] for p in plain.ranked
    )
    assert ranking.relevance == plain.relevance and "memory" in ranking.timings


async def test_the_click_residual_reorders_after_the_cutoff_and_admits_nothing() -> None:
    import numpy as np

    from providers.rerankers.features import FEATURES
    from tools.click_memory import ClickMemory, RecalledClicks
    from tools.click_residual import ClickResidual

    class Embedder:
        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0]

    config = RetrievalConfig()
    plain = await run_pipeline(pipeline(), "ballast pump leak", SearchFilters(), config)
    width = len(FEATURES)
    weights = np.zeros(width)
    weights[FEATURES.index("rank_prior")] = -100.0  # the fused order's last passage first
    residual = ClickResidual(weights, np.zeros(width), np.ones(width), 1.0)
    memory = ClickMemory(np.zeros((0, 2), np.float32), (), 0.5, 0.0, residual)
    corrected = Pipeline(
        FakeBackend(passages=list(PASSAGES)),
        FakeReranker(),
        memory=RecalledClicks(memory, Embedder()),  # type: ignore[arg-type]
    )
    ranking = await run_pipeline(corrected, "ballast pump leak", SearchFilters(), config)
    assert [p["chunk_id"] for p in ranking.ranked] != [p["chunk_id"] for p in plain.ranked]
    assert sorted(p["chunk_id"] for p in ranking.kept) == sorted(p["chunk_id"] for p in plain.kept)
    assert ranking.relevance == plain.relevance
