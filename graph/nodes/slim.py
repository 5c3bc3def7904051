"""End every turn with only what a later turn or a reader needs in the checkpoint."""

from __future__ import annotations

from archive.store.passages import Passage
from graph.state import State


def bare(passage: Passage) -> Passage:
    """``passage`` without its texts: ids, document fields and scores."""
    return Passage(**{**passage, "text": "", "summary": ""})  # type: ignore[typeddict-item]


async def slim(state: State) -> State:
    """Drop this turn's passage texts and laid-out context before the turn is checkpointed.

    No later turn reads them (each turn starts from :func:`graph.state.turn_defaults`); a reader
    keeps the ids, document fields and scores of what was retrieved and answered from, and the
    cited passages' snippets ride on the citations. Measured: benchmarks/checkpoint_size.py."""
    return {
        "ranked": [bare(p) for p in state.get("ranked", [])],
        "passages": [bare(p) for p in state.get("passages", [])],
        "passages_text": "",
    }
