"""Pattern questions whose set is in the archive are never stopped by the relevance cutoff, and
with a chat model the groups and counts a thread pattern hands over are Bosun's, not the
model's."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage

from archive.store.counts import RecordQuery
from archive.store.patterns import SetStatements
from archive.store.threads import TopicSet
from graph.nodes.count_records import count_records, grouped
from tests.fakes.chat import ScriptedChatModel
from tests.unit.test_thread_patterns import BURSTS, FIXES, SHARES, Topics, conversation

THREADS = "What are the most common fixes for overflows on the mailing list?"


async def _nothing_to_group(query: RecordQuery, topic: str, about: str) -> SetStatements:
    """Seven matching records, none with a statement of what is grouped."""
    return SetStatements(size=7, statements=[], reference=[])


async def _no_records(query: RecordQuery) -> Any:
    raise AssertionError("no count is asked")


async def test_a_record_set_with_nothing_to_group_goes_on_marked_as_held() -> None:
    """The set holds seven records but none states a cause: the search answers, and its cutoff
    may not stop the turn (``record_set``: :func:`graph.nodes.search.kept_for_record_set`)."""
    state = await grouped(
        {"question": "What usually goes wrong with tankers in 2005?"}, _nothing_to_group, None
    )
    assert state["counted"] is False and state["record_set"] == 7


async def test_a_thread_set_with_no_pattern_goes_on_marked_as_held() -> None:
    one = {"q0@x": conversation(0, FIXES["disk"])}
    topics = Topics(TopicSet(1, one, SHARES, {**BURSTS, "overflow": 1.5}))  # a list's subject
    state: Any = {"question": THREADS, "messages": [HumanMessage(THREADS)], "filters": {}}
    out = await count_records(state, counter=_no_records, causes=None, topics=topics)
    assert out["counted"] is False and out["record_set"] == 1


async def test_a_thread_pattern_is_handed_to_the_model_as_facts_and_kept_only_whole() -> None:
    """The model phrases the groups Bosun computed; a phrasing that keeps the set's size and
    the largest group's count, cited, is kept; one that guesses is refused for Bosun's own."""
    five = {f"q{n}@x": conversation(n, FIXES["disk"]) for n in range(5)}
    state: Any = {"question": THREADS, "messages": [HumanMessage(THREADS)], "filters": {}}
    kept = ScriptedChatModel.replying("Of 5 threads, 5 fixed it with a RAM disk [C:000001000002].")
    out = await count_records(
        state, counter=_no_records, model=kept, topics=Topics(TopicSet(5, five, SHARES, BURSTS))
    )
    prompt = str(kept.calls[0][-1].content)
    assert "5 mail threads mention overflows" in prompt and "— 5 of 5 (100%)" in prompt
    assert out["counted"] and out["answer_source"] == "model"
    guessing = ScriptedChatModel.replying("Most threads used a RAM disk [C:000001000002].")
    out = await count_records(
        state,
        counter=_no_records,
        model=guessing,
        topics=Topics(TopicSet(5, five, SHARES, BURSTS)),
    )
    assert out["answer_source"] == "count" and out["diagnostics"]["degraded"]
    assert str(out["messages"][0].content).startswith("5 mail threads mention overflows")


async def test_a_word_said_in_passing_holds_no_thread_set() -> None:
    """ "What usually causes headaches?": a few threads say "headache" once in passing (no
    burst); that is no subject of the list, so the cutoff may still stop the question."""
    one = {"q0@x": conversation(0, FIXES["disk"])}
    topics = Topics(TopicSet(3, one, {"headach": 0.001}, {"headach": 1.0}))
    question = "What usually causes headaches?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_records, causes=None, topics=topics)
    assert out["counted"] is False and not out.get("record_set")
