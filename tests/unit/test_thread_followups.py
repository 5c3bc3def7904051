"""Where a thread's outcome is said when it is not the answering reply's own best sentence: the
asker's own later word in a thread nobody else answered, and a joined reply's further
sentences."""

from __future__ import annotations

import re

from answers.thread_answer import ThreadQuestion, thread_answer
from answers.thread_choice import choose_conversation
from answers.threads import Message, follow_up, thread_of
from archive.store.passages import Passage
from tests.unit.test_threads import THREAD, mail

ALONE_ASK = mail(
    "f00000000001",
    "Hello. uhd_usrp_probe over both 100G ports of my new X440 fails with a connection "
    "refused error, though ping works over them. Any idea?",
    THREAD,
    "Daniel",
)
ALONE_FOUND = mail(
    "f00000000002",
    "This was a user error on my part, the QSFP cables were plugged into the wrong ports. "
    "The host routed traffic to the right port, which let ping work over the swapped ports.",
    "f2@x",
    "Daniel",
    reply_to=THREAD,
    day="2024-05-03",
)
QUESTION = "Why does uhd_usrp_probe fail over the 100G ports of an X440 while ping works?"


def markers(text: str) -> list[str]:
    return re.findall(r"\[C:([0-9a-f]{12})\]", text)


def answer(question: str, aspect: str, pool: list[Passage]) -> list[str] | None:
    return thread_answer(
        ThreadQuestion(question, question, aspect, [pool[0]], pool),  # type: ignore[arg-type]
        fresh=lambda text: True,
        take=lambda text: None,
    )


def test_the_askers_later_word_answers_a_thread_nobody_else_answered() -> None:
    lines = answer(QUESTION, "cause", [ALONE_ASK, ALONE_FOUND])
    assert lines is not None
    said = "\n".join(lines)
    assert "f00000000002" in markers(said)
    assert "the QSFP cables were plugged into the wrong ports" in said
    assert "who asked" in said  # the lead says it is the asker's own word


def test_an_asker_alone_who_still_fails_or_only_asks_again_is_not_an_answer() -> None:
    still = mail(
        "f00000000003",
        "Unfortunately I still get the same error after swapping the QSFP cables around.",
        "f3@x",
        "Daniel",
        reply_to=THREAD,
    )
    bump = mail("f00000000004", "Any update on this?", "f4@x", "Daniel", reply_to=THREAD)
    assert answer(QUESTION, "cause", [ALONE_ASK, still]) is None
    assert answer(QUESTION, "cause", [ALONE_ASK, bump]) is None


ASK = mail(
    "e00000000001",
    "Timed replay commands on my X440 give late errors at a few kHz pulse rate. Ideas?",
    THREAD,
    "Arthur",
)
ANSWER = mail(
    "e00000000002",
    "The replay command queue on the X440 holds 32 timed commands at most.",
    "e2@x",
    "Brian",
    reply_to=THREAD,
    standing=1.0,
)
#: Another replier builds on the answer; the outcome is its third sentence of four, each
#: sharing the question's words about as much.
JOINED = mail(
    "e00000000003",
    "Timed replay commands on an X440 give late errors when the pulse rate is high. "
    "Late errors on timed commands mean the X440 got each command after its time. "
    "Query for fullness blocks longer than the pulse interval at that rate. "
    "Each timed replay command could carry a longer MIN_DUR setting as well.",
    "e3@x",
    "Niels",
    reply_to="e2@x",
)


THANKS = mail(
    "e00000000004",
    "Thanks Brian, that was it.",
    "e4@x",
    "Arthur",
    reply_to="e2@x",
    day="2024-05-04",
)


def test_a_joined_reply_says_more_than_its_two_best_sentences() -> None:
    lines = answer(
        "Why do timed replay commands on an X440 give late errors at a high pulse rate?",
        "cause",
        [ASK, ANSWER, JOINED, THANKS],
    )
    assert lines is not None
    said = "\n".join(lines)
    assert "e00000000002" in markers(said) and "e00000000003" in markers(said)
    assert "Query for fullness blocks longer than the pulse interval at that rate" in said


def test_a_conversation_its_asker_alone_followed_up_counts_as_answered() -> None:
    """Weighing conversations, one whose asker came back alone with what they found is not
    passed over as unanswered for another that restates the question less."""
    other = "other@x"
    elsewhere = [
        mail(
            "f00000000011",
            "Is there a way to probe an X440 over 100G?",
            other,
            "Ann",
            thread_id=other,
            conversation=other,
        ),
        mail(
            "f00000000012",
            "Yes, pass the 100G address in the device arguments.",
            "o2@x",
            "Wade",
            reply_to=other,
            thread_id=other,
            conversation=other,
        ),
    ]
    ours: list[Passage] = [{**p, "conversation": THREAD} for p in (ALONE_ASK, ALONE_FOUND)]
    order = {THREAD: (ALONE_ASK["subject"], 1.0), other: (elsewhere[0]["subject"], 0.5)}
    chosen, weighed = choose_conversation(QUESTION, order, {THREAD: ours, other: elsewhere})
    assert chosen == THREAD
    assert next(c for c in weighed if c.conversation == THREAD).answered
    assert follow_up_of(ours) is not None


def follow_up_of(records: list[Passage]) -> Message | None:
    thread = thread_of(THREAD, records)
    assert thread is not None
    return follow_up(thread)
