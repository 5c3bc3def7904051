"""Orphaned tool calls: an interrupted run can leave an AI tool call without its result (or a
result without its call); chat providers reject such a history, so it is repaired before every
model call instead of poisoning the conversation for good."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, RemoveMessage, ToolMessage


def _answered(messages: Sequence[BaseMessage]) -> set[str]:
    return {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}


def _called(messages: Sequence[BaseMessage]) -> set[str]:
    return {
        call_id
        for m in messages
        if isinstance(m, AIMessage)
        for call in m.tool_calls
        if (call_id := call.get("id"))
    }


def orphan_updates(messages: Sequence[AnyMessage]) -> list[BaseMessage]:
    """Updates for ``add_messages`` that repair the history.

    - a tool message whose call is gone: removed;
    - an AI message whose tool calls all lack results: removed when it has no text, else
      rewritten (same id) without the calls;
    - an AI message with some calls answered: rewritten keeping only those.
    """
    answered, called = _answered(messages), _called(messages)
    updates: list[BaseMessage] = []
    for message in messages:
        if isinstance(message, ToolMessage) and message.tool_call_id not in called:
            if message.id:
                updates.append(RemoveMessage(id=message.id))
        elif isinstance(message, AIMessage) and message.tool_calls:
            kept = [c for c in message.tool_calls if c.get("id") in answered]
            if len(kept) == len(message.tool_calls) or not message.id:
                continue
            if kept or _has_text(message):
                updates.append(_without_calls(message, kept))
            else:
                updates.append(RemoveMessage(id=message.id))
    return updates


def drop_orphans(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """``messages`` as a provider may receive them (a pure filter; state is not changed)."""
    answered, called = _answered(messages), _called(messages)
    out: list[AnyMessage] = []
    for message in messages:
        if isinstance(message, ToolMessage):
            if message.tool_call_id in called:
                out.append(message)
        elif isinstance(message, AIMessage) and message.tool_calls:
            kept = [c for c in message.tool_calls if c.get("id") in answered]
            if len(kept) == len(message.tool_calls):
                out.append(message)
            elif kept or _has_text(message):
                out.append(_without_calls(message, kept))
        else:
            out.append(message)
    return out


def _has_text(message: AIMessage) -> bool:
    return bool(message.text.strip())


def _without_calls(message: AIMessage, kept: list) -> AIMessage:  # type: ignore[type-arg]
    keep_ids = {c["id"] for c in kept}
    kwargs = dict(message.additional_kwargs)
    if "tool_calls" in kwargs:  # the provider's raw copy of the calls
        kwargs["tool_calls"] = [c for c in kwargs["tool_calls"] if c.get("id") in keep_ids]
        if not kwargs["tool_calls"]:
            del kwargs["tool_calls"]
    return message.model_copy(
        update={"tool_calls": kept, "invalid_tool_calls": [], "additional_kwargs": kwargs}
    )
