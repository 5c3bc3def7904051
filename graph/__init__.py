"""One conversation turn as a LangGraph graph: ``build_graph(clients)``.

The names below load on first use (PEP 562), so importing a light submodule such as
``graph.sanitization`` (the CLI's argument checks) does not import LangGraph.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graph.builder import Clients, build_graph
    from graph.context import Context
    from graph.state import InputState, State

__all__ = ["Clients", "Context", "InputState", "State", "build_graph"]

_HOMES = {
    "Clients": "graph.builder",
    "build_graph": "graph.builder",
    "Context": "graph.context",
    "InputState": "graph.state",
    "State": "graph.state",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'graph' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
