"""The offline answer of a turn: the composer (:mod:`tools.compose`) fed from the graph state."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.embeddings import Embeddings

from graph.state import State
from tools import prompts
from tools.compose import AnswerRequest, compose_answer, embedder
from tools.filters import describe_dates


def offline_answer(
    state: State, query: str, *, scope: Sequence[str] = (), embeddings: Embeddings | None = None
) -> str:
    """Compose the answer to this turn's question from its passages: a follow-up is matched
    against its subject and its own aspect, and does not repeat the answers before it."""
    followup = state.get("followup")
    return compose_answer(
        AnswerRequest(
            question=state.get("question", ""),
            query=query,
            passages=state.get("passages", []),
            pool=state.get("candidates", []),
            scope=scope,
            said=followup["said"] if followup else (),
            subject_documents=followup.get("documents", []) if followup else (),
            year=state.get("ranked_year"),
            notes=date_notes(state),
            embed=embedder(embeddings.embed_documents) if embeddings is not None else None,
        )
    )


def date_notes(state: State) -> list[str]:
    """How dates were used: a year that ranks, or the date filter in force."""
    if (year := state.get("ranked_year")) is not None:
        return [prompts.YEAR_RANKED.format(year=year)]
    filters = state.get("filters", {})
    if filters.get("date_from") or filters.get("date_to"):
        return [prompts.DATES_FILTERED.format(dates=describe_dates(filters))]
    return []
