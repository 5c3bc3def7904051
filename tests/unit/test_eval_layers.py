"""`bosun eval` through the agent's layers: configurations, the search hook, the ablation table."""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import pytest

from agent.evaluation.command import LayerRun, add_eval_parser, format_ablation, layers_of
from agent.evaluation.harness import EvalResult
from agent.evaluation.layers import ABLATION, SHIPPED, LayeredSearch, Layers, ablation_of
from agent.wiring import Calibration
from archive.store.search_filters import SearchFilters
from graph.context import Context
from providers.rerankers.trees import FeatureWeights
from tests.fakes.clients import FakeBackend, FakeReranker, fleet_fixture
from tools.pipeline import Pipeline
from tools.retrieval_config import RetrievalConfig


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bosun")
    add_eval_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["eval", "data/scifact", *argv])


def test_eval_runs_the_product_defaults_unless_switched() -> None:
    assert layers_of(parse()) == Layers() == Layers(rerank=True, expand=False, topics=False)
    assert Layers().label == "hybrid+rerank" and Layers().is_default
    switched = layers_of(
        parse("--lexical-only", "--no-rerank", "--expand", "--topics", "--score-cutoff", "0.2")
    )
    assert switched.label == "bm25+expand+topics+cutoff=0.2"
    assert switched.switches() == {
        "no_hybrid": False,
        "lexical_only": True,
        "rerank": False,
        "expand": True,
        "topics": True,
        "score_cutoff": 0.2,
    }
    assert parse("--ablation").ablation


def test_the_ablation_covers_each_arm_fusion_and_each_layer_over_the_default() -> None:
    labels = [layers.label for layers in ABLATION]
    assert labels == [
        "bm25",
        "dense",
        "hybrid",
        "hybrid+rerank",
        "hybrid+rerank+expand",
        "hybrid+rerank+topics",
    ]
    assert sum(layers.is_default for layers in ABLATION) == 1
    with pytest.raises(ValueError, match="arm"):
        Layers(lexical=False, dense=False)


def test_a_collection_with_a_fitted_reranker_adds_the_shipped_one_as_a_row() -> None:
    stock = SimpleNamespace(calibration=Calibration())
    assert ablation_of(stock) == list(ABLATION)  # type: ignore[arg-type]
    adapted = SimpleNamespace(calibration=Calibration(reranker=FeatureWeights.load()))
    rows = ablation_of(adapted)  # type: ignore[arg-type]
    assert rows[rows.index(Layers()) + 1] == SHIPPED and len(rows) == len(ABLATION) + 1
    assert SHIPPED.label == "hybrid+rerank(shipped)" and not SHIPPED.is_default
    assert SHIPPED.switches()["shipped_reranker"] is True
    assert "shipped_reranker" not in Layers().switches()  # earlier runs' switches unchanged


def _search(layers: Layers, reranker: FakeReranker, pool: int = 40) -> LayeredSearch:
    passages, registry, docs = fleet_fixture()
    backend = FakeBackend(passages, registry, docs)
    return LayeredSearch(Pipeline(backend, reranker), layers, 100, context=Context(pool=pool))


async def test_rerank_reorders_the_agents_pool_and_counts_the_cutoff() -> None:
    search = _search(Layers(), FakeReranker(default_cutoff=0.9), pool=2)
    fused = await search.pipeline.backend.retrieve(
        "engine leak pump ballast", SearchFilters(), RetrievalConfig()
    )
    result = await search("engine leak pump ballast")
    ids = [c["chunk_id"] for c in result.candidates]
    fused_ids = [c["chunk_id"] for c in fused.candidates]
    assert sorted(ids[:2]) == sorted(fused_ids[:2]) and ids[2:] == fused_ids[2:]
    assert ids[0] == "a00000000002"  # the ballast pump passage: the reranker's best
    scores = [c["score"] for c in result.candidates]
    assert scores == sorted(scores, reverse=True)
    assert {"rerank", "cutoff"} <= set(result.timings_ms)
    assert (search.queries, search.stopped) == (1, 0)  # rescued: close in meaning
    await search("weather forecast tomorrow")
    assert (search.queries, search.stopped) == (2, 1)  # nothing retrieved


async def test_layers_off_keep_the_fused_order_and_record_topic_decisions() -> None:
    reranker = FakeReranker()
    search = _search(Layers(rerank=False, topics=True), reranker)
    search.pipeline.backend.topics = {"ballast pump": {"a00000000002"}}  # type: ignore[attr-defined]
    result = await search("ballast pump engine")
    assert reranker.calls == 0 and "rerank" not in result.timings_ms
    assert [c["chunk_id"] for c in result.candidates] == ["a00000000002"]
    await search("cylinder liner")
    assert search.topic_decisions == {"strict": 1, "dropped": 1}


def _run(layers: Layers, ndcg: float, stopped: int = 0) -> LayerRun:
    metrics = {"ndcg@10": ndcg, "recall@10": 0.5, "recall@100": 0.9, "mrr@10": 0.4}
    latency = {"total": {"p50": 10.0, "p95": 20.0}}
    if layers.rerank:
        latency["rerank"] = {"p50": 3.0, "p95": 4.5}
    search = _search(layers, FakeReranker())
    search.stopped = stopped
    return LayerRun(layers, EvalResult("scifact", "train", metrics, latency), search)


def test_ablation_table_shows_change_against_the_default_and_stage_costs() -> None:
    runs = [
        _run(Layers(rerank=False), 0.70),
        _run(Layers(), 0.75, stopped=3),
        _run(Layers(expand=True), 0.72),
    ]
    text = format_ablation(runs, collection="eval_scifact")
    assert "| hybrid | 0.7000 | -0.0500 |" in text
    assert "| hybrid+rerank (default) | 0.7500 | +0.0000 | 0.5000 | 0.9000 | 0.4000 | 3 |" in text
    assert "| hybrid+rerank+expand | 0.7200 | -0.0300 |" in text
    assert "| hybrid | – | – | – | – | 10.0 / 20.0 |" in text
    assert "| hybrid+rerank | – | – | 3.0 / 4.5 | – | 10.0 / 20.0 |" in text
    summary = runs[1].summary()
    assert summary["configuration"] == "hybrid+rerank" and summary["default"] is True
    assert summary["stopped_by_cutoff"] == 3
