"""Stage timings in milliseconds, as the tools, the graph's nodes and the eval record them."""

from __future__ import annotations

import time


def elapsed_ms(start: float) -> float:
    """Milliseconds since ``start`` (a ``time.perf_counter()`` value), rounded to 0.01."""
    return round((time.perf_counter() - start) * 1000.0, 2)
