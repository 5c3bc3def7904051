"""What one conversation holds between nodes and, through the checkpointer, between turns.

Everything is plain data (dicts, lists, strings, numbers) so checkpoints round-trip without custom
serialisers. ``filters`` and ``messages`` carry over from turn to turn; the other keys describe the
current turn and are reset by :func:`turn_defaults` when it starts. What the turn only records about
itself (for traces, `bosun ask --json` and the server's stream) is one key, ``diagnostics``, reset
as one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, cast

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict  # pydantic (Studio schemas) needs it on 3.11

from answers.citations import Citation
from archive.store.passages import Passage
from graph.followup import Followup
from graph.intents import Intent
from tools.filters import FilterRequest, Filters
from tools.pipeline import ExpansionRecord, RerankRecord
from tools.relevance import Relevance
from tools.topics import TopicDecision

__all__ = [
    "Citation",
    "Diagnostics",
    "ExpansionRecord",
    "FilterRequest",
    "Followup",
    "Filters",
    "InputState",
    "Intent",
    "Passage",
    "State",
    "TopicDecision",
    "diagnostics_of",
    "fresh_diagnostics",
    "turn_defaults",
]


class Diagnostics(TypedDict, total=False):
    """What one turn records about itself; no routing decision reads it."""

    sanitization: dict[str, Any]  # what sanitize removed: control chars, injections, truncation
    intent_source: str  # regex | registry | embeddings | model | default | fallback | empty
    filter_notes: list[str]  # how this turn changed the filters
    expansion: ExpansionRecord  # what query expansion did to the last search (method "off": off)
    topic_decisions: list[TopicDecision]  # the topic filter's attempts this turn ([]: off)
    retrieved: int  # how many passages the searches retrieved before the rerank floor
    rerank: RerankRecord  # reranker name, status (ok | off | empty | failed), top scores
    llm_called: bool  # a chat model was invoked this turn
    citation_check: dict[str, Any]  # total, valid, invalid, flagged, reasons
    degraded: list[str]  # fallbacks taken this turn, for traces (appended by each node)
    timings: dict[str, float]  # milliseconds per stage (merged across nodes)
    count: dict[str, Any]  # a count question's filters, matched records and the set's size
    thread: dict[str, Any]  # the mail conversation chosen for a thread question, and those weighed


def record(left: Diagnostics | None, right: Diagnostics | None) -> Diagnostics:
    """Reducer: a node's diagnostics update the turn's; keys replace, except ``degraded`` (notes
    are appended) and ``timings`` (merged per stage). ``Overwrite`` starts a turn afresh."""
    left, right = left or {}, right or {}
    merged: Diagnostics = {**left, **right}
    if "degraded" in right:
        merged["degraded"] = [*left.get("degraded", []), *right["degraded"]]
    if "timings" in right:
        merged["timings"] = {**left.get("timings", {}), **right["timings"]}
    return merged


def diagnostics_of(state: State | Mapping[str, Any]) -> Diagnostics:
    """The turn's diagnostics (empty before any turn ran)."""
    return cast(Diagnostics, state.get("diagnostics") or {})


def fresh_diagnostics() -> Diagnostics:
    """The diagnostics as a turn starts."""
    return Diagnostics(
        sanitization={},
        intent_source="",
        filter_notes=[],
        expansion={"method": "off", "original": "", "text": "", "terms": []},
        topic_decisions=[],
        retrieved=0,
        rerank={},  # type: ignore[typeddict-item]
        llm_called=False,
        citation_check={},
        degraded=[],
        timings={},
        count={},
        thread={},
    )


class InputState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]  # the conversation
    filter_request: FilterRequest  # filters asked for by flags/API, applied by resolve_filters


class State(InputState, total=False):
    # -- kept across turns --------------------------------------------------------------------
    filters: Filters  # the active structural filters, inherited by follow-up questions
    # -- this turn ----------------------------------------------------------------------------
    pruned: int  # orphaned tool messages removed from the history before this turn
    question: str  # the user's message, sanitised, at most 4,000 characters
    brief: str  # the same, at most 500 characters (classification, filters, topics)
    intent: Intent  # routing decision
    counted: bool  # a count question was answered from the exact count (no search)
    record_set: int  # records the question selects by fields or a ship it names (0: none)
    filter_problem: str  # a requested filter that matched nothing ("" when none)
    filters_only: bool  # the message only cleared filters: confirm, no search
    followup: Followup | None  # what a follow-up question leans on (None: it stands alone)
    ranked_year: int | None  # a year the question mentions in passing: ranks, does not filter
    searches: int  # search tool calls made this turn
    query: str  # the query the last search ran (as asked; the expanded text is in diagnostics)
    ranked: list[Passage]  # what the rerank floor kept, best first (texts dropped at turn end)
    relevance: Relevance  # the cutoff's decision: best score, threshold, stopped
    cutoff: bool  # the relevance cutoff ended the turn before an answer was generated
    passages: list[Passage]  # what the answer is built from, in order (texts dropped at turn end)
    conversation: str  # the mail conversation a thread question is answered from ("": none)
    passages_text: str  # the passages laid out as the model reads them ("" once the turn ended)
    answer_source: str  # model | offline (no chat model) | fallback (the chat model failed) | count
    chat_failed: bool  # a chat model call failed this turn: later steps answer offline
    repaired: bool  # the model was re-asked once to cite its uncited answer
    citations: list[Citation]  # the answer's validated citations (also on the AI message)
    rendered: str  # the answer as every client shows it: numbered citations and a source list
    diagnostics: Annotated[Diagnostics, record]  # what the turn records about itself


def turn_defaults() -> dict[str, Any]:
    """The per-turn keys as a fresh turn starts (written by sanitize, the turn's first write;
    ``diagnostics`` is started afresh there too, with an ``Overwrite``)."""
    return {
        "filter_problem": "",
        "filters_only": False,
        "counted": False,
        "record_set": 0,
        "followup": None,
        "ranked_year": None,
        "searches": 0,
        "query": "",
        "ranked": [],
        "relevance": {},
        "cutoff": False,
        "passages": [],
        "conversation": "",
        "passages_text": "",
        "answer_source": "",
        "chat_failed": False,
        "repaired": False,
        "citations": [],
        "rendered": "",
    }
