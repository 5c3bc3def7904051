"""Pattern questions over mail threads ("most common fixes for overflows on the mailing list"):
each conversation's fix comes from its answering reply, fixes group by phrases that hold a
topic's word, and every example cites the message that states it, never the asker's problem."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from agent.evaluation.pattern_score import PatternGold, measure_pattern
from answers.group_names import as_written
from answers.pattern_groups import OTHER, Statement, group_phrases
from answers.thread_patterns import (
    compose_thread_pattern,
    list_spelling,
    subject_words,
    thread_groups,
    thread_pattern_plan,
    thread_statements,
    uncommon_words,
)
from archive.store.passages import Passage
from archive.store.threads import TopicSet
from graph.nodes.count_records import count_records
from tests.fakes.clients import passage

#: The list's statistics a test set stands in: topic words come in bursts, talk does not.
SHARES = {"disk": 0.005, "ram": 0.01, "mtu": 0.02, "jumbo": 0.01, "frame": 0.02, "mayb": 0.04}
BURSTS = {"disk": 1.6, "ram": 1.8, "mtu": 1.8, "jumbo": 1.7, "frame": 1.9, "mayb": 1.1}
FIXES = {
    "disk": "Your disk cannot keep up with the overflows at that rate; write to a RAM disk.",
    "mtu": "Set the MTU to 9000 so jumbo frames reach the host without overflows.",
}


def conversation(n: int, fix: str, *, chit: str = "Maybe try it and see.") -> list[Passage]:
    """A thread: the asker's overflows, a reply that states ``fix``, the asker's thanks."""
    root = f"q{n}@x"

    def mail(i: int, text: str, mid: str, author: str, reply_to: str | None) -> Passage:
        fields: dict[str, Any] = {
            "kind": "email",
            "doc_id": f"doc-{mid}",
            "source_id": mid,
            "thread_id": root,
            "subject": "Overflows",
            "date": f"2024-05-{n + 1:02d}",
            "author": author,
            "in_reply_to": reply_to,
            "references": [root] if reply_to else [],
        }
        return passage(f"{n:06d}{i:06d}", text, **fields)

    return [
        mail(1, f"I get overflows (O) when recording at 50 Msps, case {n}.", root, f"Ann{n}", None),
        mail(2, f"Hi Ann. {fix} {chit}", f"r{n}@x", "Marcus", root),
        mail(3, "Thanks, that fixed it, works now!", f"t{n}@x", f"Ann{n}", f"r{n}@x"),
    ]


def test_questions_about_what_usually_fixes_or_causes_a_problem_are_thread_patterns() -> None:
    plan = thread_pattern_plan("What are the most common fixes for overflows on the mailing list?")
    assert plan is not None and (plan.about, plan.topic) == ("fix", "overflows")
    plan = thread_pattern_plan("What usually causes PPS problems?")
    assert plan is not None and (plan.about, plan.topic) == ("cause", "PPS")
    assert thread_pattern_plan("How was the overflow on my X310 fixed?") is None  # one thread
    assert thread_pattern_plan("What are the most common fixes?") is None  # names no problem


def test_fixes_come_from_the_confirmed_reply_and_group_with_their_examples_cited() -> None:
    conversations = {
        f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)
    }
    plan = thread_pattern_plan("What are the most common fixes for overflows on the list?")
    assert plan is not None
    statements = thread_statements(plan, "fixes for overflows", conversations)
    assert {s.passage["author"] for s in statements} == {"Marcus"}  # never the asker's problem
    assert not any("Maybe" in s.text for s in statements)  # talk that answers nothing
    groups = thread_groups(plan, statements, SHARES, BURSTS)
    assert [(g.name.split()[0], g.count) for g in groups[:2]] == [("RAM", 3), ("Set", 2)]
    answer = compose_thread_pattern(plan, 5, len(conversations), groups)
    assert answer.startswith("5 mail threads mention overflows; 5 of 5 conversations")
    assert f"- **{groups[0].name}** — 3 of 5 (60%)" in answer
    cited = re.findall(r"\[C:([0-9a-f]{12})\]", answer)
    stating = {s.passage["chunk_id"] for s in statements}
    assert cited and set(cited) <= stating


def test_a_phrase_without_a_topic_word_names_no_group() -> None:
    texts = ["Maybe the cable is bad here.", "Maybe the cable was loose.", "Maybe check it."]
    statements = [Statement(f"i{i}", t, passage(f"{i:012d}", t)) for i, t in enumerate(texts)]
    named = group_phrases(statements, glue=set())
    assert named[0].name.lower().startswith("maybe")
    kept = group_phrases(statements, glue=set(), nameable=lambda p: "mayb" not in p)
    assert all("maybe" not in g.name.lower() for g in kept if g.name != OTHER)


def test_the_scorer_checks_that_a_top_group_cites_a_dominant_message() -> None:
    answer = "2 sets:\n- **Disk** — 2 of 3\n  - a [C:aaaaaaaaaaaa]\n  - b [C:bbbbbbbbbbbb]\n"
    answer += "- **Mtu** — 1 of 3\n  - c [C:cccccccccccc]"
    citations = [{"id": i * 12, "doc_id": f"d{i}", "source_id": f"{i}@x"} for i in ("a", "b", "c")]
    assert measure_pattern(answer, citations, PatternGold(dominant_messages=("a@",)))["dominant"]
    missed = measure_pattern(answer, citations, PatternGold(dominant_messages=("z@",)))
    assert not missed["dominant"] and not missed["pattern_ok"]


class Topics:
    """The store's conversations for a topic, as ``topic_conversations`` returns them."""

    def __init__(self, *found: TopicSet) -> None:
        self.found, self.asked = list(found), list[tuple[str, int]]()

    async def __call__(self, topic: str, *, least: int = 10, any_word: bool = False) -> TopicSet:
        self.asked.append((topic, least))
        return self.found[min(len(self.asked), len(self.found)) - 1]


async def no_count(query: Any) -> Any:
    raise AssertionError("a thread pattern is no count")


async def no_causes(*args: Any) -> Any:
    raise AssertionError("a thread pattern reads no record statements")


@pytest.mark.parametrize("size", [5, 1])
async def test_the_node_answers_a_thread_pattern_or_leaves_it_to_the_search(size: int) -> None:
    conversations = {f"q{n}@x": conversation(n, FIXES["disk"]) for n in range(size)}
    topics = Topics(TopicSet(size, conversations, SHARES, BURSTS))
    question = "What are the most common fixes for overflows on the mailing list?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=no_count, causes=no_causes, topics=topics)
    if size == 1:  # one conversation is no pattern, nor is a wider match no larger
        assert topics.asked == [("overflows", 10), ("overflows", 2)]
        assert out["counted"] is False
        return
    assert topics.asked[0] == ("overflows", 10)  # then wider (one group is a thin pattern)
    assert out["counted"] is True
    text = str(out["messages"][0].content)
    assert re.search(r"^- \*\*RAM disk\*\* — 5 of 5", text, re.MULTILINE)
    assert {p["author"] for p in out["passages"]} == {"Marcus"}


def discussion(n: int, *replies: tuple[str, str], quoted: str = "") -> list[Passage]:
    """A thread nobody confirmed: the asker's underflows and replies by others, in order."""
    root = f"u{n}@x"

    def mail(i: int, text: str, author: str, reply_to: str | None) -> Passage:
        mid = root if i == 0 else f"u{n}r{i}@x"
        fields: dict[str, Any] = {
            "kind": "email",
            "doc_id": f"doc-{mid}",
            "source_id": mid,
            "thread_id": root,
            "subject": "Underflows",
            "date": f"2024-06-{n + 1:02d}",
            "author": author,
            "in_reply_to": reply_to,
            "references": [root] if reply_to else [],
        }
        return passage(f"{n:06d}{i:06d}", text, **fields)

    mails = [
        mail(0, f"I get underflows (U) when I transmit at 50 Msps, case {n}.", f"Ann{n}", None)
    ]
    for i, (author, text) in enumerate(replies, start=1):
        mails.append(mail(i, f"{text} {quoted}".strip(), author, root))
    return mails


RAM = "You should move the file to a RAM disk; the disk cannot keep up with the underflows."
BENCH = "Try running benchmark_rate to see whether the host keeps up with underflows at all."


def test_with_no_confirmed_reply_every_reply_by_others_states_what_it_suggests() -> None:
    """A list's conversation gathers several suggestions: each reply's is a statement of the
    conversation (the latest reply's alone lost the RAM disk), and a sentence quoted again in a
    later reply is said once."""
    conversations = {f"u{n}@x": discussion(n, ("Marcus", RAM), ("Martin", BENCH)) for n in range(4)}
    plan = thread_pattern_plan("What are the most common fixes for underflows on the list?")
    assert plan is not None
    statements = thread_statements(plan, plan.asked, conversations)
    assert {s.text for s in statements} == {RAM, BENCH}
    assert {s.item for s in statements} == set(conversations)  # one item per conversation
    quoting = {"u9@x": discussion(9, ("Marcus", RAM), ("Martin", f"{BENCH} {RAM}"))}
    texts = [s.text for s in thread_statements(plan, plan.asked, quoting)]
    assert texts.count(RAM) == 1, texts


def test_a_single_word_names_a_group_only_as_a_term_the_list_writes() -> None:
    """ "loaded" alone names nothing; DRAM, as written, does; an identifier names its group
    whole (benchmark_rate), and the question's own words ("mailing list") name none."""
    texts = {
        "a": "The DRAM was full, so the FIFO overflowed.",
        "b": "The DRAM FIFO overflowed at that rate.",
        "c": "A DRAM refresh stalls the FIFO for a while.",
        "d": "Nothing was loaded when the FIFO stalled, as said on the mailing list.",
        "e": "The FIFO was loaded too late, as the mailing list said before.",
        "f": "Run benchmark_rate first to see the FIFO rate.",
        "g": "Use benchmark_rate and watch the FIFO.",
    }
    statements = [
        Statement(k, t, passage(f"{i:012d}", t)) for i, (k, t) in enumerate(texts.items())
    ]
    shares = {"load": 0.03, "dram": 0.02, "benchmark": 0.02, "mail": 0.01, "list": 0.01}
    bursts = {"load": 1.4, "dram": 1.9, "benchmark": 1.5, "mail": 1.5, "list": 1.5}
    plan = thread_pattern_plan("What usually causes FIFO problems on the mailing list?")
    assert plan is not None
    names = [g.name for g in thread_groups(plan, statements, shares, bursts) if g.name != OTHER]
    assert names == ["DRAM", "benchmark_rate"], names
    assert not any(n.lower().startswith(("load", "mailing")) for n in names), names


def test_a_quantity_written_with_its_unit_is_the_same_word() -> None:
    """ "10MHz" and "10 MHz" are one word for grouping (the unit), as the list means them."""
    texts = ["PPS must align with the 10MHz reference.", "The 10 MHz reference was not locked."]
    statements = [Statement(f"i{i}", t, passage(f"{i:012d}", t)) for i, t in enumerate(texts)]
    (group, *_) = group_phrases(statements, glue=set())
    assert group.count == 2 and "mhz" in group.name.lower(), group.name


async def test_a_topic_with_no_pattern_as_a_phrase_is_matched_more_loosely() -> None:
    """The strictest match (the words as a phrase) finds one conversation, no pattern; the
    node asks for more threads than that, and answers from the wider set, saying how it was
    matched."""
    narrow = TopicSet(1, {"q0@x": conversation(0, FIXES["disk"])}, SHARES, BURSTS, "phrase")
    wide = {f"q{n}@x": conversation(n, FIXES["disk"]) for n in range(4)}
    topics = Topics(narrow, TopicSet(4, wide, SHARES, BURSTS, "words"))
    question = "What are the most common fixes for disk overflows on the mailing list?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=no_count, causes=no_causes, topics=topics)
    assert topics.asked[:2] == [("disk overflows", 10), ("disk overflows", 2)]
    assert out["counted"] is True
    text = str(out["messages"][0].content)
    assert text.startswith("4 mail threads mention disk overflows; 4 of 4 conversations"), text


@pytest.mark.parametrize(
    ("name", "texts", "written"),
    [
        ("Dram", ["The DRAM is too slow.", "Use the DRAM FIFO."], "DRAM"),
        ("Rt runtime share", ["It is the RT_RUNTIME_SHARE feature."], "RT_RUNTIME_SHARE"),
        (
            "Benchmark",
            ["Run benchmark_rate.", "Try benchmark_rate --rx_rate 1e6."],
            "benchmark_rate",
        ),
        ("Mhz ref", ["Feed it 10MHz REF and PPS.", "The 10 MHz ref drifts."], "10MHz REF"),
        ("Gbe", ["Over 1 GbE it drops.", "A 10GbE link is fine."], "GbE"),  # two quantities
    ],
)
def test_a_group_is_named_as_its_statements_write_it(
    name: str, texts: list[str], written: str
) -> None:
    members = [Statement(f"i{i}", t, passage(f"{i:012d}", t)) for i, t in enumerate(texts)]
    assert as_written(name, members) == written


async def test_one_group_is_a_thin_pattern_and_a_wider_match_showing_more_answers() -> None:
    """The phrase match shows one group (three RAM disks); the words' match shows two (RAM
    disks and MTU): the wider set answers, its size stated."""
    narrow = {f"q{n}@x": conversation(n, FIXES["disk"]) for n in range(3)}
    wide = {f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)}
    topics = Topics(
        TopicSet(3, narrow, SHARES, BURSTS, "phrase"), TopicSet(5, wide, SHARES, BURSTS, "words")
    )
    question = "What are the most common fixes for disk overflows on the mailing list?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=no_count, causes=no_causes, topics=topics)
    text = str(out["messages"][0].content)
    assert text.startswith("5 mail threads mention disk overflows"), text
    assert len(re.findall(r"^- \*\*", text, re.MULTILINE)) == 2, text


class TopicsByWords:
    """The store's conversations per topic: a topic it holds no pattern for finds one."""

    def __init__(self, found: dict[str | tuple[str, bool], TopicSet]) -> None:
        self.found, self.asked = found, list[str]()

    async def __call__(self, topic: str, *, least: int = 10, any_word: bool = False) -> TopicSet:
        """The set of ``topic`` matched any-word (the key ``(topic, True)``) or otherwise."""
        self.asked.append(topic)
        return self.found.get((topic, any_word), self.found.get(topic, TopicSet(0)))


async def test_words_the_list_does_not_talk_about_are_dropped_when_they_leave_no_pattern() -> None:
    """ "networked machines" narrows the match to one conversation; the topic's words that the
    list talks about as subjects (bursts, not common talk) are read alone and answer."""
    one = {"q0@x": conversation(0, FIXES["disk"])}
    wide = {f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)}
    topics = TopicsByWords(
        {
            "RAM disk networked machines": TopicSet(1, one, SHARES, BURSTS, "words"),
            "RAM disk": TopicSet(5, wide, SHARES, BURSTS, "phrase"),
        }
    )
    question = "What usually fixes RAM disk trouble on networked machines?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=no_count, causes=no_causes, topics=topics)
    assert topics.asked[0] == "RAM disk networked machines" and "RAM disk" in topics.asked
    text = str(out["messages"][0].content)
    assert text.startswith("5 mail threads mention “RAM disk”;"), text
    assert "- **Set the MTU" in text, text
    assert subject_words("RAM disk networked machines", SHARES, BURSTS) == "RAM disk"
    assert subject_words("maybe networked", SHARES, BURSTS) == ""  # talk, and unknown


async def test_things_asked_about_together_match_any_one_of_their_words() -> None:
    """ "disk or MTU overflows": no thread names both; the threads naming either are read when
    the stricter matches leave no pattern, and the answer says how they were matched."""
    wide = {f"q{n}@x": conversation(n, FIXES["disk" if n < 3 else "mtu"]) for n in range(5)}
    nothing = TopicSet(0, {}, SHARES, BURSTS)  # the list's statistics come with every match
    topics = TopicsByWords(
        {
            "overflows disk MTU": nothing,
            "disk MTU": nothing,
            ("disk MTU", True): TopicSet(5, wide, SHARES, BURSTS, "any word"),
        }
    )
    question = "How do people usually fix overflows with a disk or MTU?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=no_count, causes=no_causes, topics=topics)
    assert out["counted"] is True, out
    text = str(out["messages"][0].content)
    assert text.startswith("5 mail threads mention disk or MTU;"), text
    assert re.search(r"^- \*\*Jumbo frames[\w ]*\*\* — 2 of", text, re.MULTILINE), text


def test_words_of_the_lists_common_talk_are_left_out_of_a_loose_match() -> None:
    shares = {**SHARES, "usrp": 0.2}
    assert uncommon_words("USRP bricked", shares) == "bricked"
    assert uncommon_words("USRP", shares) == ""


async def test_too_few_causes_to_group_group_what_the_replies_state_of_either_kind() -> None:
    """Asked what usually causes overflows, the replies state fixes ("set the MTU"), no cause
    two conversations share: what they state of either kind is grouped, and the answer says
    so."""
    mtu = "Set the MTU to 9000 so jumbo frames reach the host."
    ram = "Write the samples to a RAM disk so the overflows go away."
    wide = {f"q{n}@x": conversation(n, mtu if n < 3 else ram) for n in range(5)}
    topics = Topics(TopicSet(5, wide, SHARES, BURSTS, "words"))
    question = "What usually causes overflows?"
    state: Any = {"question": question, "messages": [HumanMessage(question)], "filters": {}}
    out = await count_records(state, counter=no_count, causes=no_causes, topics=topics)
    assert out["counted"] is True, out
    text = str(out["messages"][0].content)
    assert "replies that state a cause or fix" in text, text
    assert len(re.findall(r"^- \*\*", text, re.MULTILINE)) == 2, text


def test_a_british_spelling_is_read_as_the_list_writes_it() -> None:
    shares = {"synchron": 0.02, "synchronis": 0.001, "promis": 0.01}
    assert list_spelling("synchronising several USRP", shares) == "synchronizing several USRP"
    assert list_spelling("promising radios", shares) == "promising radios"  # no "promizing"
    assert list_spelling("synchronising", {"synchronis": 0.01}) == "synchronising"


def test_an_identifier_is_a_subject_when_a_part_of_it_is() -> None:
    """ "benchmark_rate" is about the benchmark, though "rate" is common talk."""
    shares, bursts = {**SHARES, "benchmark": 0.03, "rate": 0.14}, {**BURSTS, "benchmark": 1.5}
    assert subject_words("benchmark_rate shows reach", shares, bursts) == "benchmark_rate"


def test_a_word_the_list_says_too_seldom_to_tell_is_a_subject() -> None:
    """ "segfault" in 3 of 10,000 chunks, once each: too few to tell talk by burstiness, and it
    names one thing; "sits", as seldom said but in more chunks, is talk. A word that comes in
    bursts is the subject before it."""
    shares = {**SHARES, "segfault": 0.0003, "deadlock": 0.0013, "sit": 0.0036, "program": 0.028}
    bursts = {**BURSTS, "segfault": 1.0, "deadlock": 1.0, "sit": 1.18, "program": 1.25}
    assert subject_words("program segfaults sits", shares, bursts) == "segfaults"
    assert subject_words("program sits deadlock", shares, bursts) == "deadlock"
    assert subject_words("program sits", shares, bursts) == ""
    assert subject_words("RAM segfaults", shares, bursts) == "RAM"
