"""Lay out the passages for the answer: citation headers, bodies, thread groups."""

from __future__ import annotations

import time

from answers.layout import build_context as layout
from graph.state import State
from tools.timing import elapsed_ms


async def lay_out_passages(state: State) -> State:
    start = time.perf_counter()
    text = layout(state.get("passages", []))
    return {"passages_text": text, "diagnostics": {"timings": {"context": elapsed_ms(start)}}}
