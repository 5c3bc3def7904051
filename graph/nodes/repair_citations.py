"""The one repair step: re-ask the model once when its answer cites none of the passages."""

from __future__ import annotations

import time

from langchain_core.messages import AIMessage, HumanMessage

from graph import prompts
from graph.nodes.call_agent import ChatModel, MalformedReply, checked_reply, prompt_messages
from graph.state import State, diagnostics_of
from tools.timing import elapsed_ms


async def repair_citations(state: State, *, model: ChatModel | None) -> State:
    """Show the model its uncited answer and the passage ids, and ask for a cited rewrite (no
    tools). The rewrite replaces the answer; validation judges it (and backs it up offline)."""
    assert model is not None, "only a model answer is repaired (graph.routing.needs_repair)"
    start = time.perf_counter()
    answer = state["messages"][-1]
    assert isinstance(answer, AIMessage)
    ids = [p["chunk_id"] for p in state.get("passages", [])]
    ask = HumanMessage(
        content=prompts.REPAIR_PROMPT.format(ids=", ".join(ids), example=ids[0] if ids else "")
    )
    before: State = {**state, "messages": state["messages"][:-1]}
    reply = await model.ainvoke([*prompt_messages(before), answer, ask])
    if not isinstance(reply, AIMessage):
        raise MalformedReply(f"the chat model returned {type(reply).__name__}")
    rewritten = checked_reply(reply, tools_offered=False)
    earlier = diagnostics_of(state).get("timings", {}).get("repair", 0.0)
    return {
        "messages": [rewritten.model_copy(update={"id": answer.id})],  # replaces the answer
        "repaired": True,
        "diagnostics": {"timings": {"repair": round(earlier + elapsed_ms(start), 2)}},
    }
