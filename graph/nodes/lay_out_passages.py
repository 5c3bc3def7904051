"""Lay out the passages for the answer: citation headers, bodies, thread groups."""

from __future__ import annotations

import time

from answers.layout import build_context as layout
from graph.state import State
from tools.timing import elapsed_ms


async def build_context(state: State) -> State:
    start = time.perf_counter()
    return {"context": layout(state.get("passages", [])), "timings": {"context": elapsed_ms(start)}}
