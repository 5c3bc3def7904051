"""One conversation turn as a LangGraph graph: ``build_graph(clients)``."""

from graph.builder import Clients, build_graph
from graph.context import Context
from graph.state import InputState, State

__all__ = ["Clients", "Context", "InputState", "State", "build_graph"]
