"""Orphaned tool calls are removed from a history before any model reads it."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage

from checkpoints.prune import drop_orphans, orphan_updates


def call(call_id: str) -> dict:  # type: ignore[type-arg]
    return {"name": "search_archive", "args": {"query": "q"}, "id": call_id, "type": "tool_call"}


def test_complete_history_is_untouched() -> None:
    history = [
        HumanMessage("q", id="h1"),
        AIMessage("", tool_calls=[call("c1")], id="a1"),
        ToolMessage("found", tool_call_id="c1", id="t1"),
        AIMessage("answer", id="a2"),
    ]
    assert orphan_updates(history) == []
    assert drop_orphans(history) == history


def test_dangling_call_and_stray_result_are_removed() -> None:
    history = [
        HumanMessage("q", id="h1"),
        AIMessage("", tool_calls=[call("c1")], id="a1"),  # interrupted: never answered
        ToolMessage("stray", tool_call_id="gone", id="t0"),  # its call no longer exists
        HumanMessage("again", id="h2"),
    ]
    updates = orphan_updates(history)
    assert {u.id for u in updates} == {"a1", "t0"}
    assert all(isinstance(u, RemoveMessage) for u in updates)
    assert [m.id for m in drop_orphans(history)] == ["h1", "h2"]


def test_partly_answered_or_texted_calls_are_rewritten() -> None:
    history = [
        HumanMessage("q", id="h1"),
        AIMessage("Let me look.", tool_calls=[call("c1"), call("c2")], id="a1"),
        ToolMessage("found", tool_call_id="c1", id="t1"),
    ]
    (update,) = orphan_updates(history)
    assert isinstance(update, AIMessage) and update.id == "a1"
    assert [c["id"] for c in update.tool_calls] == ["c1"]
    texted = [HumanMessage("q", id="h"), AIMessage("Thinking.", tool_calls=[call("c9")], id="a")]
    (rewritten,) = orphan_updates(texted)
    assert isinstance(rewritten, AIMessage) and rewritten.tool_calls == []
    assert rewritten.content == "Thinking."
