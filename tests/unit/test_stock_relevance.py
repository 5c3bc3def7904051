"""The cutoff on a headed collection is decided on the stock model's view of the candidates
(tools.stock_relevance): the head's vectors mapped back through W⁻¹, the shipped reranker."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from adapt.linear_head import save_head
from archive.store.search_filters import SearchFilters
from providers.linear_head import apply_head, load_head
from providers.rerankers.base import POOL
from tests.fakes.clients import FakeBackend, FakeReranker, passage
from tools.pipeline import Pipeline, run_pipeline
from tools.relevance import COSINE_FLOOR, COSINE_RESCUE
from tools.retrieval_config import RetrievalConfig
from tools.stock_relevance import StockJudge

RNG = np.random.default_rng(11)
DIM = 384
HEAD = (np.eye(DIM) + 0.05 * RNG.standard_normal((DIM, DIM))).astype(np.float32)
STOCK_QUERY = RNG.standard_normal(DIM)
STOCK_QUERY /= np.linalg.norm(STOCK_QUERY)


def at_cosine(c: float) -> np.ndarray:
    """A unit stock vector at cosine ``c`` from the stock query."""
    other = RNG.standard_normal(DIM)
    other -= (other @ STOCK_QUERY) * STOCK_QUERY
    return c * STOCK_QUERY + np.sqrt(1 - c * c) * other / np.linalg.norm(other)


class HeadedEmbeddings(Embeddings):
    """The headed model: every query embeds to the stock query through the head."""

    def embed_query(self, text: str) -> list[float]:
        return apply_head(HEAD, STOCK_QUERY[None, :])[0].tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]


def judge_over(stock: Mapping[str, np.ndarray]) -> StockJudge:
    """A judge whose store holds the head's vectors of ``stock`` (chunk id -> stock vector)."""
    stored = {cid: apply_head(HEAD, v[None, :])[0] for cid, v in stock.items()}

    async def vectors(ids: Sequence[str]) -> dict[str, np.ndarray]:
        return {i: stored[i] for i in ids if i in stored}

    return StockJudge.of_head(HEAD, HeadedEmbeddings(), vectors)


@pytest.mark.parametrize(("stock_cosine", "stopped"), [(0.6, False), (0.2, True)])
async def test_the_judge_decides_on_the_stock_cosines_the_head_maps_back(
    stock_cosine: float, stopped: bool
) -> None:
    # The pool's own (adapted) cosine is the same 0.9 in both cases: only the stock view differs.
    pool = [passage("a00000000001", "crew rotation schedule memo", cosine=0.9)]
    judge = judge_over({"a00000000001": at_cosine(stock_cosine)})
    decided = await judge.relevance(
        "zebra migration", "zebra migration", pool, cutoff=None, floor=None
    )
    assert decided["judge"] == "stock"
    assert decided["best_cosine"] == pytest.approx(stock_cosine, abs=1e-3)
    assert decided["stopped"] is stopped
    assert decided["rescued_by_cosine"] is (stock_cosine >= COSINE_RESCUE)
    assert decided["below_cosine_floor"] is (stock_cosine < COSINE_FLOOR)
    assert decided["threshold"] == judge.reranker.default_cutoff  # the shipped reranker's


async def test_a_candidate_deleted_since_retrieval_is_left_out() -> None:
    pool = [
        passage("a00000000001", "crew rotation schedule memo", cosine=0.9),
        passage("a00000000002", "ballast pump overhaul", cosine=0.9),
    ]
    judge = judge_over({"a00000000002": at_cosine(0.6)})
    decided = await judge.relevance("q", "q", pool, cutoff=None, floor=None)
    assert decided["best_cosine"] == pytest.approx(0.6, abs=1e-3) and not decided["stopped"]
    gone = await judge_over({}).relevance("q", "q", pool, cutoff=None, floor=None)
    assert gone["stopped"] is True and gone["applied"] is False


async def test_the_judge_sees_only_the_candidates_the_shipped_reranker_would_order() -> None:
    # A fitted reranker may order more candidates than the shipped one (bosun adapt: 100); the
    # stock decision stays on the first ``POOL`` of the fused order, as on a stock collection.
    judge = judge_over({f"a{i:011d}": at_cosine(0.2 if i < POOL else 0.9) for i in range(100)})
    pool = [passage(f"a{i:011d}", "ballast pump", cosine=0.5) for i in range(100)]
    decided = await judge.relevance("q", "q", pool, cutoff=None, floor=None)
    assert judge.reranker.pool == POOL
    assert decided["best_cosine"] == pytest.approx(0.2, abs=1e-3) and decided["stopped"]


async def test_the_pipeline_orders_by_its_reranker_and_stops_by_the_judge() -> None:
    passages = [
        passage("a00000000001", "ballast pump leak", doc_id="A"),
        passage("a00000000002", "ballast pump", doc_id="B"),
    ]
    stock = {"a00000000001": at_cosine(0.2), "a00000000002": at_cosine(0.25)}
    # The fake reranker alone would keep both (cutoff 0.1, overlap scores 2/3 and 1/3).
    question = "ballast pump leak"
    plain = Pipeline(FakeBackend(passages=passages), FakeReranker(default_floor=0.0))
    judged = Pipeline(
        FakeBackend(passages=passages), FakeReranker(default_floor=0.0), judge=judge_over(stock)
    )
    before = await run_pipeline(plain, question, SearchFilters(), RetrievalConfig())
    after = await run_pipeline(judged, question, SearchFilters(), RetrievalConfig())
    assert not before.relevance["stopped"]
    assert after.relevance["stopped"] and after.relevance["judge"] == "stock"
    assert [p["chunk_id"] for p in after.ranked] == [p["chunk_id"] for p in before.ranked]
    assert after.kept == before.kept  # the answer's passages stay the fitted reranker's
    overridden = await run_pipeline(
        judged, question, SearchFilters(), RetrievalConfig(score_cutoff=0.0)
    )
    assert overridden.relevance["threshold"] == 0.0 and not overridden.relevance["stopped"]


def test_a_head_file_round_trips_and_a_bad_one_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "m.head.npy"
    save_head(HEAD, path)
    assert np.array_equal(load_head(path.read_bytes()), HEAD)
    for bad in (np.ones((3, 4)), np.zeros((4, 4)), np.full((2, 2), np.nan)):
        save_head(bad, path)
        with pytest.raises(ValueError, match="square|invertible"):
            load_head(path.read_bytes())


class NoCosineBackend(FakeBackend):
    """Retrieval after the query embedding failed: BM25 hits with no cosines."""

    async def retrieve(self, query, filters, options):  # type: ignore[no-untyped-def]
        found = await super().retrieve(query, filters, options)
        found.candidates = [{**p, "cosine": 0.0} for p in found.candidates]  # type: ignore[misc]
        return found


async def test_without_cosines_the_pipeline_decides_as_before_and_never_asks_the_judge() -> None:
    async def no_vectors(ids: Sequence[str]) -> dict[str, np.ndarray]:
        raise AssertionError("the judge was asked with no cosines to judge by")

    passages = [passage("a00000000001", "ballast pump leak")]
    judge = StockJudge.of_head(HEAD, HeadedEmbeddings(), no_vectors)
    pipeline = Pipeline(NoCosineBackend(passages=passages), FakeReranker(), judge=judge)
    ranking = await run_pipeline(pipeline, "ballast pump leak", SearchFilters(), RetrievalConfig())
    assert ranking.rerank["status"] == "ok" and "judge" not in ranking.relevance


async def test_the_judge_maps_vectors_on_one_blas_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenBLAS's threads spin after a product and slowed the next query's embedding two-fold.
    from threadpoolctl import threadpool_info, threadpool_limits

    from tools import stock_relevance

    threads: list[int] = []

    def spy(weights: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        threads.extend(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")
        return apply_head(weights, vectors)

    monkeypatch.setattr(stock_relevance, "apply_head", spy)
    pool = [passage("a00000000001", "crew rotation schedule memo", cosine=0.9)]
    with threadpool_limits(limits=2, user_api="blas"):  # the process's own setting: two
        await judge_over({"a00000000001": at_cosine(0.6)}).relevance(
            "q", "q", pool, cutoff=None, floor=None
        )
    assert threads and set(threads) == {1}
