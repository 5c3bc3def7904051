"""A chat model phrases a counted answer; it never counts: a phrasing that loses the count or its
citations, or a failing model, leaves the counted answer as it was."""

from __future__ import annotations

import httpx

from archive.store.counts import RecordCount, RecordQuery
from archive.store.passages import Passage
from archive.store.patterns import SetStatements
from graph.nodes.count_records import grouped, phrased
from tests.fakes.chat import ScriptedChatModel

FACT = "31 of the 1,377 accident records in Texas from 2011 were fatal [C:0123456789ab]."
COUNT = RecordCount(matched=31, scope=1377)
QUESTION = "How many accidents in Texas in 2011 were fatal?"


async def test_the_model_is_handed_the_count_as_a_fact_and_its_phrasing_kept() -> None:
    words = "Of 1,377 Texas accident records from 2011, 31 were fatal [C:0123456789ab]."
    model = ScriptedChatModel.replying(words)
    answer, source, notes = await phrased(model, QUESTION, FACT, COUNT)
    assert (answer, source, notes) == (words, "model", [])
    prompt = str(model.calls[0][-1].content)
    assert FACT in prompt and QUESTION in prompt


async def test_a_phrasing_that_loses_the_count_or_its_citations_is_not_kept() -> None:
    for words in (
        "About thirty were fatal [C:0123456789ab].",  # the count is gone
        "31 of 1,377 were fatal.",  # the citation is gone
    ):
        answer, source, notes = await phrased(
            ScriptedChatModel.replying(words), QUESTION, FACT, COUNT
        )
        assert (answer, source) == (FACT, "count") and len(notes) == 1


async def test_a_failing_model_leaves_the_counted_answer() -> None:
    failing = ScriptedChatModel.replying(httpx.ConnectTimeout("timed out"))
    answer, source, notes = await phrased(failing, QUESTION, FACT, COUNT)
    assert (answer, source) == (FACT, "count")
    assert notes and "unphrased" in notes[0]


PATTERN_QUESTION = "What are the most common causes of fatal accidents?"
ENGINE = "Total loss of engine power due to fuel exhaustion."
CONTROL = "The pilot's failure to maintain directional control in a gusting crosswind."


async def _causes(query: RecordQuery, topic: str, about: str) -> SetStatements:
    """Five fatal records: three engine-power causes, two loss-of-control ones."""
    assert (query.kind, query.outcomes, topic, about) == ("ntsb_report", ("fatal",), "", "cause")
    found = []
    for i, text in enumerate([ENGINE, ENGINE, ENGINE, CONTROL, CONTROL]):
        passage = Passage(  # type: ignore[typeddict-item]
            chunk_id=f"{i:012x}", doc_id=f"d{i}", title=f"REC{i}", text=text, kind="ntsb_report"
        )
        found.append((passage, text.replace("Total", ["Total", "A", "The"][i % 3])))
    reference = [f"The pilot's failure, case {word}." for word in "abcdefghijklmnopqrstu"]
    return SetStatements(size=5, statements=found, reference=reference)


async def test_pattern_groups_are_computed_by_bosun_and_handed_to_the_model_as_facts() -> None:
    """The model is given the groups and counts and only phrases them; its phrasing is kept
    when it states the set and the largest group's count and cites an example."""
    words = "Of 5 fatal accidents, 3 involved a loss of engine power [C:000000000000]."
    model = ScriptedChatModel.replying(words)
    state = await grouped({"question": PATTERN_QUESTION}, _causes, model)
    assert state["counted"] and state["answer_source"] == "model"
    assert state["messages"][-1].content == words
    prompt = str(model.calls[0][-1].content)
    assert "- **Loss of engine power** — 3 of 5 (60%)" in prompt and PATTERN_QUESTION in prompt
    assert state["diagnostics"]["count"]["groups"]["Loss of engine power"] == 3


async def test_a_model_that_guesses_the_pattern_counts_is_not_kept() -> None:
    guessed = "Of 5 fatal accidents, most involved engine trouble [C:000000000000]."
    state = await grouped(
        {"question": PATTERN_QUESTION}, _causes, ScriptedChatModel.replying(guessed)
    )
    answer = str(state["messages"][-1].content)
    assert state["answer_source"] == "count" and answer.startswith("5 fatal accident records")
    assert "— 3 of 5" in answer and state["diagnostics"]["degraded"]
