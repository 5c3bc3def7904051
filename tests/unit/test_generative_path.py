"""The generative path over whole turns: search first, cite or say so, degrade to the offline
answer, and an intent no model label can hide a question behind (scripted chat model)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from graph import Clients, Context, build_graph
from graph.prompts import OFFLINE_SUMMARY, UNCITED_NOTE
from providers.minilm import MiniLMEmbeddings
from tests.fakes.chat import ScriptedChatModel
from tests.fakes.clients import FakeArchive, FakeBackend, FakeReranker, fleet_fixture, passage

QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"
CRACK = "a00000000001"


def setup(**overrides: Any) -> tuple[Any, FakeBackend]:
    passages, registry, docs = fleet_fixture()
    backend = FakeBackend(passages, registry, docs)
    parts: dict[str, Any] = {
        "backend": backend,
        "archive": FakeArchive(),
        "reranker": FakeReranker(),
        **overrides,
    }
    return build_graph(Clients(**parts), checkpointer=InMemorySaver()), backend


async def ask(graph: Any, text: str, thread: str = "t1") -> dict[str, Any]:
    return await graph.ainvoke(
        {"messages": [HumanMessage(text)]},
        {"configurable": {"thread_id": thread}},
        context=Context(),
    )


async def test_a_factual_turn_searches_before_the_model_speaks() -> None:
    model = ScriptedChatModel.replying(f"The liner was replaced [C:{CRACK}].")
    graph, backend = setup(chat_model=model)
    out = await ask(graph, QUESTION)
    assert backend.queries[0][0] == QUESTION  # the question itself was searched first
    (call,) = model.calls  # the model spoke once, with the passages in front of it
    assert f"[CITE:{CRACK} | " in call[-1].content
    assert any(isinstance(m, ToolMessage) for m in call)  # the search is in its history
    assert model.tool_choices == ["auto"]  # stated: llama.cpp ignores tools without it
    assert out["answer_source"] == "model" and out["citations"][0]["id"] == CRACK
    assert (
        out["diagnostics"]["citation_check"]["flagged"] is False
        and out["diagnostics"]["degraded"] == []
    )


async def test_an_uncited_answer_is_repaired_once_with_the_passage_ids() -> None:
    model = ScriptedChatModel.replying(
        "The liner was replaced.", f"The liner was replaced [C:{CRACK}]."
    )
    graph, _ = setup(chat_model=model)
    out = await ask(graph, QUESTION)
    first, repair = model.calls
    assert CRACK in repair[-1].content and "cites no passage" in repair[-1].content
    assert repair[-2].content == "The liner was replaced."  # it sees its own answer
    answer = out["messages"][-1]
    assert answer.content == f"The liner was replaced [C:{CRACK}]."
    assert [m.content for m in out["messages"]].count("The liner was replaced.") == 0  # replaced
    assert out["repaired"] is True and out["diagnostics"]["citation_check"]["flagged"] is False


async def test_still_uncited_after_repair_is_flagged_and_backed_by_the_offline_answer() -> None:
    model = ScriptedChatModel.replying("A collision between two vehicles.", "Still a collision.")
    graph, _ = setup(chat_model=model)
    out = await ask(graph, QUESTION)
    text = out["messages"][-1].content
    assert text.startswith("Still a collision.")
    assert f"{UNCITED_NOTE} {OFFLINE_SUMMARY}" in text
    assert f"[C:{CRACK}]" in text.split(OFFLINE_SUMMARY)[1]  # the appended answer is cited
    check = out["diagnostics"]["citation_check"]
    assert check["flagged"] is True and check["uncited"] is True
    assert check["supplemented"] == "offline"
    assert out["citations"][0]["id"] == CRACK
    assert len(model.calls) == 2  # one repair, not more


@pytest.mark.parametrize(
    "failure",
    [
        httpx.ReadTimeout("timed out"),
        httpx.ConnectError("[Errno 111] Connection refused"),
        RuntimeError("Error code: 503 - upstream unavailable"),
        AIMessage(""),  # malformed: neither text nor a tool call
    ],
    ids=["timeout", "refused", "5xx", "empty"],
)
async def test_a_failing_chat_model_degrades_to_the_offline_answer(failure: Any) -> None:
    model = ScriptedChatModel.replying(failure)
    graph, _ = setup(chat_model=model)
    out = await ask(graph, QUESTION)
    assert out["answer_source"] == "fallback" and out["chat_failed"] is True
    assert out["citations"][0]["id"] == CRACK  # the passages already retrieved answered
    assert any("chat model failed" in note for note in out["diagnostics"]["degraded"])
    assert len(model.calls) == 1  # no second attempt


async def test_a_failing_repair_keeps_the_answer_and_appends_the_offline_one() -> None:
    model = ScriptedChatModel.replying("The liner was replaced.", httpx.ReadTimeout("slow"))
    graph, _ = setup(chat_model=model)
    out = await ask(graph, QUESTION)
    text = out["messages"][-1].content
    assert text.startswith("The liner was replaced.") and OFFLINE_SUMMARY in text
    assert any("chat model failed" in note for note in out["diagnostics"]["degraded"])


async def test_a_tool_call_after_the_search_budget_is_dropped() -> None:
    call = {"name": "search_archive", "args": {"query": "x"}, "id": "c9", "type": "tool_call"}
    model = ScriptedChatModel.replying(
        AIMessage("", tool_calls=[{**call, "args": {"query": "liner replaced"}}]),
        AIMessage(f"Replaced [C:{CRACK}].", tool_calls=[call]),
    )
    graph, backend = setup(chat_model=model)
    out = await ask(graph, QUESTION)
    assert backend.calls.count("retrieve") == 2  # first search, and the one the model asked
    assert out["messages"][-1].content == f"Replaced [C:{CRACK}]."
    assert out["messages"][-1].tool_calls == []


# -- intent -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbeddings:
    return MiniLMEmbeddings()


async def test_a_registered_vessel_makes_a_question_whatever_the_model_says() -> None:
    classifier = ScriptedChatModel.replying("general")
    model = ScriptedChatModel.replying(f"Replaced [C:{CRACK}].")
    graph, backend = setup(chat_model=model, classifier_model=classifier)
    out = await ask(graph, QUESTION)  # "Nordic Star" without an "MV" cue
    assert out["intent"] == "factual_query" and out["diagnostics"]["intent_source"] == "registry"
    assert classifier.calls == [] and "retrieve" in backend.calls


async def test_the_local_classifier_s_question_overrules_the_model_s_general(
    minilm: MiniLMEmbeddings,
) -> None:
    classifier = ScriptedChatModel.replying("general")
    graph, backend = setup(
        chat_model=ScriptedChatModel(), classifier_model=classifier, embeddings=minilm
    )
    out = await ask(graph, "What is the capital of France?")
    assert out["intent"] == "factual_query" and out["diagnostics"]["intent_source"] == "embeddings"
    assert classifier.calls == []
    assert out["cutoff"] is True  # searched, and stopped by the relevance cutoff
    assert "retrieve" in backend.calls


async def test_the_model_still_labels_what_the_local_classifier_calls_general(
    minilm: MiniLMEmbeddings,
) -> None:
    classifier = ScriptedChatModel.replying("general")
    graph, backend = setup(classifier_model=classifier, embeddings=minilm)
    out = await ask(graph, "what can you do?")
    assert out["intent"] == "general" and out["diagnostics"]["intent_source"] == "model"
    assert "retrieve" not in backend.calls


async def test_a_classifier_model_failure_skips_the_answer_model_too() -> None:
    classifier = ScriptedChatModel.replying(httpx.ReadTimeout("timed out"))
    model = ScriptedChatModel()  # must not be called: it is the same slow provider
    graph, _ = setup(chat_model=model, classifier_model=classifier)  # no local classifier
    out = await ask(graph, "tell me about the ballast pump leak")
    assert out["diagnostics"]["intent_source"] == "fallback" and out["chat_failed"] is True
    assert model.calls == [] and out["answer_source"] == "fallback"
    assert out["citations"]


async def test_a_record_followup_hands_the_records_fields_to_the_model_as_a_fact() -> None:
    """ "were there any injuries?" after an R44 question: the model is given the record's
    injury counts, read from its fields and cited, as counts are handed to it."""
    r44 = passage(
        "f00000000001",
        "The helicopter impacted the water of a lake at night during a hover near Hackensack.",
        doc_id="r44",
        title="CEN12FA091 2011-11-24 Hackensack, Minnesota ROBINSON HELICOPTER COMPANY R44 II",
        report_no="CEN12FA091",
        date="2011-11-24",
        facts={"injuries": "fatal 1, serious 0, minor 1", "make": "ROBINSON", "model": "R44 II"},
    )
    passages, registry, docs = fleet_fixture()
    backend = FakeBackend([*passages, r44], registry, docs)
    model = ScriptedChatModel.replying(
        "The helicopter hit a lake at night [C:f00000000001].",
        "One person died and one had minor injuries [C:f00000000001].",
    )
    graph = build_graph(
        Clients(backend=backend, archive=FakeArchive(), reranker=FakeReranker(), chat_model=model),
        checkpointer=InMemorySaver(),
    )
    await ask(graph, "What happened in the Robinson R44 accident near Hackensack?", "r44")
    out = await ask(graph, "were there any injuries?", "r44")
    first, followup = (call[-1].content for call in model.calls)
    fact = "CEN12FA091: 1 fatal, 0 serious, 1 minor injuries. [C:f00000000001]"
    assert fact in followup and fact not in first  # the first turn asked no record aspect
    assert out["answer_source"] == "model" and out["citations"][0]["id"] == "f00000000001"
