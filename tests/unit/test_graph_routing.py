"""The routers: pure functions of the state."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage

from graph.routing import route_agent, route_count, route_filters, route_intent, route_relevance


def test_only_factual_questions_go_to_the_archive() -> None:
    assert route_intent({"intent": "factual_query"}) == "resolve_filters"
    for intent in ("greeting", "acknowledgement", "general"):
        assert route_intent({"intent": intent}) == "reply"  # type: ignore[typeddict-item]


def test_a_filter_problem_is_replied_to_instead_of_searching() -> None:
    assert route_filters({"filter_problem": "No vessel named X."}) == "reply"
    assert route_filters({"filter_problem": ""}) == "count_records"
    assert route_filters({}) == "count_records"


def test_a_counted_question_is_validated_and_the_others_search() -> None:
    assert route_count({"counted": True}) == "validate_citations"
    assert route_count({"counted": False}) == "agent"
    assert route_count({}) == "agent"


def test_tool_calls_search_and_answers_are_validated() -> None:
    call = AIMessage("", tool_calls=[{"name": "search_archive", "args": {"query": "q"}, "id": "1"}])
    assert route_agent({"messages": [HumanMessage("q"), call]}) == "search"
    assert route_agent({"messages": [HumanMessage("q"), AIMessage("answer")]}) == (
        "validate_citations"
    )


def test_the_pipelines_cutoff_decision_routes_the_turn() -> None:
    assert route_relevance({"relevance": {"stopped": True}}) == "cutoff"  # type: ignore[typeddict-item]
    assert route_relevance({"relevance": {"stopped": False}}) == "dedup"  # type: ignore[typeddict-item]


def test_a_model_answer_citing_no_passage_is_repaired_once() -> None:
    passages = [{"chunk_id": "a00000000001"}]
    base: dict[str, Any] = {"answer_source": "model", "passages": passages}

    def route(text: str, **state: Any) -> str:
        return route_agent({**base, **state, "messages": [AIMessage(text)]})  # type: ignore[typeddict-item]

    assert route("The liner was replaced.") == "repair_citations"
    assert route("Invented [C:ffffffffffff].") == "repair_citations"  # not one of the passages
    assert route("Replaced [C:a00000000001].") == "validate_citations"
    assert route("The liner was replaced.", repaired=True) == "validate_citations"  # once
    assert route("Offline.", answer_source="offline") == "validate_citations"
    assert route("Fallback.", answer_source="fallback") == "validate_citations"
    assert route("No passages.", passages=[]) == "validate_citations"
