"""The offline answer of a turn: extractive, from the passages it retrieved, always cited.

Used when no chat model is configured, when the chat model fails (the degraded path), and to
back up a model answer that cites nothing.
"""

from __future__ import annotations

from graph.followup import standalone_query
from graph.state import State
from tools.extractive import extractive_answer


def scope_of(state: State) -> list[str]:
    """Names the filters restrict to (vessels, IMO numbers, the report)."""
    filters = state.get("filters", {})
    names = [v["name"] for v in filters.get("vessels", [])]
    names += [imo for v in filters.get("vessels", []) if (imo := v.get("imo"))]
    if filters.get("report_no"):
        names.append(filters["report_no"])
    return [n for n in names if n]


def search_query(state: State) -> str:
    """What the turn searches for first: the question, with the one before if it is a follow-up."""
    return standalone_query(state.get("question", ""), state.get("messages", []))


def offline_answer(state: State) -> str:
    """The passages' sentences that best answer the turn's question, each cited."""
    return extractive_answer(search_query(state), state.get("passages", []), scope=scope_of(state))
