"""The one retrieval configuration: defaults declared once, bad values refused by name."""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any

import pytest

from agent.evaluation.layers import LayeredSearch, Layers
from graph.context import Context
from tests.fakes.clients import FakeBackend, FakeReranker
from tools.fusion import FusionConfig
from tools.pipeline import Pipeline
from tools.retrieval_config import RESULTS, ConfigError, RetrievalConfig


def test_the_graph_context_is_a_retrieval_config_with_the_same_defaults() -> None:
    context, config = Context(), RetrievalConfig()
    assert isinstance(context, RetrievalConfig)
    for field in fields(RetrievalConfig):
        assert getattr(context, field.name) == getattr(config, field.name), field.name
    assert context.as_dict() == config.as_dict()  # the graph's own knobs stay out of the tool


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"pool": 0}, "RetrievalConfig.pool"),
        ({"k": "40"}, "RetrievalConfig.k"),
        ({"arm_rows": None}, "RetrievalConfig.arm_rows"),
        ({"similarity_floor": 1.5}, "RetrievalConfig.similarity_floor"),
        ({"similarity_floor": "0.3"}, "RetrievalConfig.similarity_floor"),
        ({"score_cutoff": math.nan}, "RetrievalConfig.score_cutoff"),
        ({"rerank_floor": math.inf}, "RetrievalConfig.rerank_floor"),
        ({"rerank": "yes"}, "RetrievalConfig.rerank"),
        ({"lexical": False, "dense": False}, "at least one retrieval arm"),
        ({"fusion": {"method": "convex", "weight": 1}}, "RetrievalConfig.fusion"),
    ],
)
def test_a_bad_value_is_refused_naming_the_field(change: dict[str, Any], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        RetrievalConfig(**change)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"max_passages": 0}, "Context.max_passages"),
        ({"max_searches": True}, "Context.max_searches"),
        ({"dedup": 1}, "Context.dedup"),
        ({"pool": -3}, "Context.pool"),  # the inherited checks name the context
    ],
)
def test_the_context_refuses_bad_values_too(change: dict[str, Any], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace(".", r"\.")):
        Context(**change)


def test_plain_data_round_trips_and_unknown_keys_are_refused() -> None:
    config = RetrievalConfig(lexical=False, pool=12, fusion=FusionConfig("rrf", rrf_k=10))
    assert RetrievalConfig.from_dict(config.as_dict()) == config
    assert RetrievalConfig.from_dict(None) == RetrievalConfig()
    with pytest.raises(ConfigError, match="no field 'hybrid'"):
        RetrievalConfig.from_dict({"hybrid": False})


def test_results_are_k_else_the_pool_else_the_bare_default() -> None:
    assert RetrievalConfig(k=5).results(40) == 5
    assert RetrievalConfig().results(40) == 40
    assert RetrievalConfig().results() == RESULTS


def test_eval_layers_run_on_the_context_they_are_given() -> None:
    search = LayeredSearch(
        Pipeline(FakeBackend([]), FakeReranker()),
        Layers(lexical=False, rerank=False),
        30,
        context=Context(pool=7, similarity_floor=0.5),
    )
    config = search.config
    assert (config.lexical, config.rerank, config.k) == (False, False, 30)
    assert (config.pool, config.similarity_floor) == (7, 0.5)
    with pytest.raises(ConfigError, match="at least one retrieval arm"):
        Layers(lexical=False, dense=False)
