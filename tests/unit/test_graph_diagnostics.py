"""Per-turn diagnostics: one state key, merged across nodes, started afresh as one each turn."""

from __future__ import annotations

from typing import get_type_hints

from graph.state import Diagnostics, State, diagnostics_of, fresh_diagnostics, record, turn_defaults
from tests.fakes.clients import FakeReranker
from tests.unit.test_graph_turns import ask, setup


def test_nodes_add_to_the_turns_diagnostics() -> None:
    turn = record(
        fresh_diagnostics(), Diagnostics(intent_source="regex", timings={"classify": 1.0})
    )
    turn = record(turn, Diagnostics(degraded=["reranker failed"], timings={"search": 2.0}))
    turn = record(turn, Diagnostics(degraded=["chat model failed"], llm_called=True))
    assert turn["intent_source"] == "regex" and turn["llm_called"] is True
    assert turn["degraded"] == ["reranker failed", "chat model failed"]  # appended
    assert turn["timings"] == {"classify": 1.0, "search": 2.0}  # merged per stage
    assert record(None, None) == {} and diagnostics_of({}) == {}


def test_diagnostics_are_one_key_not_reset_by_hand() -> None:
    per_turn = set(get_type_hints(Diagnostics))
    assert not per_turn & set(get_type_hints(State))  # none of them at the top level
    assert not per_turn & set(turn_defaults())
    assert set(fresh_diagnostics()) == per_turn  # a fresh turn sets every one of them


async def test_the_next_turn_starts_with_fresh_diagnostics() -> None:
    graph, _, _ = setup(reranker=FakeReranker(fail=True))
    first = await ask(graph, "ballast pump leak on Baltic Trader")
    assert first["diagnostics"]["rerank"]["status"] == "failed"
    assert any("reranker failed" in note for note in first["diagnostics"]["degraded"])
    assert {"sanitize", "classify", "search"} <= set(first["diagnostics"]["timings"])

    second = await ask(graph, "thanks!")
    diagnostics = second["diagnostics"]
    assert diagnostics["degraded"] == [] and diagnostics["rerank"] == {}
    assert diagnostics["retrieved"] == 0 and diagnostics["expansion"]["method"] == "off"
    assert set(diagnostics["timings"]) == {"sanitize", "classify"}
    assert diagnostics["intent_source"] == "regex"
