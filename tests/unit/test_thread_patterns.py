"""Pattern questions over mail threads ("most common fixes for overflows on the mailing list"):
each conversation's fix comes from its answering reply, fixes group by phrases that hold a
topic's word, and every example cites the message that states it, never the asker's problem."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from agent.evaluation.pattern_score import PatternGold, measure_pattern
from answers.pattern_groups import OTHER, Statement, group_phrases
from answers.thread_patterns import (
    compose_thread_pattern,
    thread_groups,
    thread_pattern_plan,
    thread_statements,
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
    assert [(g.name.split()[0], g.count) for g in groups[:2]] == [("Disk", 3), ("Set", 2)]
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

    def __init__(self, found: TopicSet) -> None:
        self.found, self.asked = found, list[str]()

    async def __call__(self, topic: str) -> TopicSet:
        self.asked.append(topic)
        return self.found


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
    assert topics.asked == ["overflows"]
    if size == 1:  # one conversation is no pattern: the search answers it
        assert out["counted"] is False
        return
    assert out["counted"] is True
    text = str(out["messages"][0].content)
    assert re.search(r"^- \*\*Disk[\w ]*\*\* — 5 of 5", text, re.MULTILINE)
    assert {p["author"] for p in out["passages"]} == {"Marcus"}
