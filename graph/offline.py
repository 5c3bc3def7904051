"""The offline answer of a turn: the composer (:mod:`answers`) fed from the graph state,
from the passages the turn retrieved, every sentence cited.

Used when no chat model is configured, when the chat model fails (the degraded path), and to
back up a model answer that cites nothing.
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings

from answers import AnswerRequest, compose_answer, embedder, prompts
from answers.followup_answer import named_first, record_facts
from graph.followup import standalone_query
from graph.state import State
from tools.filters import describe_dates


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


def offline_answer(state: State, *, embeddings: Embeddings | None = None) -> str:
    """Compose the answer to this turn's question from its passages: a follow-up is matched
    against its subject and its own aspect, and does not repeat the answers before it;
    ``embeddings`` choose sentences by meaning (shared words otherwise)."""
    followup = state.get("followup")
    return compose_answer(
        AnswerRequest(
            question=state.get("question", ""),
            query=search_query(state),
            passages=state.get("passages", []),
            pool=state.get("ranked", []),
            conversation=state.get("conversation") or None,
            scope=scope_of(state),
            said=followup["said"] if followup else (),
            subject_documents=followup.get("documents", []) if followup else (),
            year=state.get("ranked_year"),
            notes=date_notes(state),
            embed=embedder(embeddings.embed_documents) if embeddings is not None else None,
        )
    )


def record_facts_of(state: State) -> str | None:
    """The line stating the record aspect this turn's question asks ("were there any
    injuries?": the subject record's injury counts), read from the record's fields and cited,
    as the composer would say it; None when the question asks none or no subject has it. The
    chat-model path hands it to the model as a fact, as counts are."""
    followup = state.get("followup")
    question = state.get("question", "")
    facts = record_facts(
        question,
        named_first(question, state.get("passages", [])),
        state.get("ranked", []),
        followup.get("documents", []) if followup else (),
    )
    return facts.line if facts is not None else None


def date_notes(state: State) -> list[str]:
    """How dates were used: a year that ranks, or the date filter in force."""
    if (year := state.get("ranked_year")) is not None:
        return [prompts.YEAR_RANKED.format(year=year)]
    filters = state.get("filters", {})
    if filters.get("date_from") or filters.get("date_to"):
        return [prompts.DATES_FILTERED.format(dates=describe_dates(filters))]
    return []
