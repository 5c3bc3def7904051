"""Thread pattern questions whose words also read as a record pattern, and areas named by a
product, command or component: the matching set is the list's conversations."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage

from answers.patterns import pattern_plan
from answers.thread_patterns import named_words
from archive.store.counts import RecordCount, RecordQuery
from archive.store.patterns import SetStatements
from archive.store.threads import TopicSet
from graph.nodes.count_records import count_records
from tests.unit.test_thread_patterns import (
    BURSTS,
    FIXES,
    SHARES,
    Topics,
    TopicsByWords,
    conversation,
)
from text.models import written_forms

#: "report" is a verb here, but the record patterns read it as reports.
REPORTED = "What problems do users typically report with overflows, and how are they fixed?"


async def _no_records(query: RecordQuery, topic: str, about: str) -> SetStatements:
    """A mailbox: the record set is empty."""
    return SetStatements(size=0, statements=[], reference=[])


async def _no_count(query: RecordQuery) -> Any:
    raise AssertionError("no count is asked")


async def _mailbox_count(query: RecordQuery) -> RecordCount:
    """A mailbox holds no records of any kind; only whole kinds are counted (whether the archive
    holds the kind a pattern reads), never a question's set."""
    assert query == RecordQuery(kind=query.kind), query
    return RecordCount(matched=0, scope=0)


async def test_a_record_pattern_with_nothing_to_group_is_answered_from_the_threads() -> None:
    assert pattern_plan(REPORTED) is not None  # the case: both readings hold
    five = {f"q{n}@x": conversation(n, FIXES["disk"]) for n in range(5)}
    topics = Topics(TopicSet(5, five, SHARES, BURSTS))
    state: Any = {"question": REPORTED, "messages": [HumanMessage(REPORTED)], "filters": {}}
    out = await count_records(state, counter=_mailbox_count, causes=_no_records, topics=topics)
    assert out["counted"] is True
    assert str(out["messages"][0].content).startswith("5 mail threads mention overflows")


def test_a_model_name_with_a_word_after_its_number_is_also_written_apart() -> None:
    assert written_forms("B200mini") == ["B200 mini"]
    assert written_forms("N210") == written_forms("benchmark_rate") == written_forms("E3") == []


#: What replies about one product say.
NAMED = {k: f"On a Q100mini: {fix}" for k, fix in FIXES.items()}


async def test_an_area_named_by_a_product_is_the_threads_naming_it() -> None:
    """ "overflows on a Q100mini in tiny cases": the threads naming the product answer, though
    the whole topic's looser match (all but one of its words) shows a pattern too, of threads
    that need not name it."""
    wide = {f"q{n}@x": conversation(n, NAMED["disk" if n < 3 else "mtu"]) for n in range(5)}
    topics = TopicsByWords(
        {
            ("Q100mini", True): TopicSet(5, wide, SHARES, BURSTS, "words"),
            "overflows Q100mini tiny cases": TopicSet(9, wide, SHARES, BURSTS, "most words"),
        }
    )
    question = "How do people usually fix overflows on a Q100mini in tiny cases?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_count, causes=None, topics=topics)
    assert "Q100mini" in topics.asked
    assert out["counted"] is True, out
    assert str(out["messages"][0].content).startswith("5 mail threads mention Q100mini;")


async def test_a_name_whose_threads_show_no_pattern_leaves_the_whole_topic_to_answer() -> None:
    one = {"q0@x": conversation(0, FIXES["disk"])}
    wide = {f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)}
    topics = TopicsByWords(
        {
            ("Q100mini", True): TopicSet(1, one, SHARES, BURSTS, "words"),
            "overflows Q100mini tiny cases": TopicSet(5, wide, SHARES, BURSTS, "words"),
        }
    )
    question = "How do people usually fix overflows on a Q100mini in tiny cases?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_count, causes=None, topics=topics)
    text = str(out["messages"][0].content)
    assert text.startswith("5 mail threads mention overflows Q100mini tiny cases;"), text


def test_the_names_of_a_topic_are_its_model_names_and_identifiers() -> None:
    assert named_words("B200mini little boards") == "B200mini"
    assert named_words("tx_waveforms example") == "tx_waveforms"
    assert named_words("Subdev specs errors") == ""


async def test_a_pattern_asked_in_new_words_with_no_pattern_is_held_from_the_cutoff() -> None:
    """Asked as "what is normally found wrong ..., and what sorted it out?", a product the list
    talks about but whose one thread shows no pattern: the search answers, and its cutoff may
    not stop the turn (``record_set``)."""
    one = {"q0@x": conversation(0, NAMED["disk"])}
    topics = Topics(TopicSet(1, one, SHARES, {**BURSTS, "q100mini": 1.6}))
    question = "My Q100mini misbehaves. What is normally found wrong, and what sorted it out?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_count, causes=None, topics=topics)
    assert out["counted"] is False and out["record_set"] == 1


async def test_a_looser_reading_that_drops_the_product_named_does_not_answer() -> None:
    """The threads naming the product show one group; all but one word of the whole topic
    (threads that need not name it) show two: the product's threads answer, since a thread
    that does not name it is about something else."""
    two = {f"q{n}@x": conversation(n, NAMED["disk"]) for n in range(2)}
    wide = {f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)}
    topics = TopicsByWords(
        {
            ("Q100mini", True): TopicSet(2, two, SHARES, BURSTS, "words"),
            "overflows Q100mini tiny cases": TopicSet(9, wide, SHARES, BURSTS, "most words"),
        }
    )
    question = "How do people usually fix overflows on a Q100mini in tiny cases?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_count, causes=None, topics=topics)
    text = str(out["messages"][0].content)
    assert text.startswith("2 mail threads mention Q100mini;"), text


async def test_a_product_and_its_problem_are_read_together_first() -> None:
    """ "overflows on a Q100mini": the threads holding both words show a pattern, and answer;
    the product's threads alone (more, about anything) are not read."""
    both = {f"q{n}@x": conversation(n, NAMED["disk" if n < 3 else "mtu"]) for n in range(5)}
    every = {f"q{n}@x": conversation(n, FIXES["disk" if n < 4 else "mtu"]) for n in range(9)}
    topics = TopicsByWords(
        {
            "overflows Q100mini": TopicSet(5, both, SHARES, BURSTS, "words"),
            ("Q100mini", True): TopicSet(40, every, SHARES, BURSTS, "words"),
        }
    )
    question = "How do people usually fix overflows on a Q100mini?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_count, causes=None, topics=topics)
    text = str(out["messages"][0].content)
    assert text.startswith("5 mail threads mention overflows Q100mini;"), text
    assert "Q100mini" not in topics.asked, topics.asked


async def test_a_problem_beside_the_product_keeps_the_product_alone_from_answering() -> None:
    """ "overflows on a Q100mini", the threads holding both show no pattern: "overflows" is a
    problem the list talks about (it comes in bursts), so the Q100mini's threads alone (about
    anything) are not the area; the problem's threads answer."""
    one = {"q0@x": conversation(0, NAMED["disk"])}
    wide = {f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)}
    every = {f"q{n}@x": conversation(n, FIXES["disk" if n < 4 else "mtu"]) for n in range(9)}
    bursts = {**BURSTS, "overflow": 1.8}
    topics = TopicsByWords(
        {
            "overflows Q100mini": TopicSet(1, one, SHARES, bursts, "words"),
            "overflows": TopicSet(5, wide, SHARES, bursts, "words"),
            ("Q100mini", True): TopicSet(40, every, SHARES, bursts, "words"),
        }
    )
    question = "How do people usually fix overflows on a Q100mini?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=_no_count, causes=None, topics=topics)
    text = str(out["messages"][0].content)
    assert "Q100mini" not in topics.asked, topics.asked
    assert text.startswith("5 mail threads mention overflows;"), text
