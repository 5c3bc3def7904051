"""A chat model phrases a counted answer; it never counts: a phrasing that loses the count or its
citations, or a failing model, leaves the counted answer as it was."""

from __future__ import annotations

import httpx

from archive.store.counts import RecordCount
from graph.nodes.count_records import phrased
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
