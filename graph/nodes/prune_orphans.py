"""Repair the history before any model reads it: drop tool calls an interrupted run left behind."""

from __future__ import annotations

import logging
from typing import cast

from langchain_core.messages import AnyMessage

from checkpoints.prune import orphan_updates
from graph.state import State

logger = logging.getLogger(__name__)


async def prune_orphans(state: State) -> State:
    """Remove AI tool calls without a result and tool results without their call."""
    updates = orphan_updates(state.get("messages", []))
    if updates:
        logger.warning("pruned %d orphaned tool-call messages from the history", len(updates))
    # add_messages applies RemoveMessage entries as deletions
    return {"messages": cast(list[AnyMessage], updates), "pruned": len(updates)}
