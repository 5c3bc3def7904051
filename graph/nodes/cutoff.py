"""Stop before answering when the pipeline found nothing relevant enough."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from answers import prompts
from graph.state import State


async def cutoff(state: State) -> State:
    """Reply "no relevant documents" without calling a model (the pipeline decided to stop)."""
    reply = AIMessage(content=prompts.NO_RESULTS_REPLY, additional_kwargs={"citations": []})
    return {"cutoff": True, "messages": [reply], "rendered": prompts.NO_RESULTS_REPLY}
