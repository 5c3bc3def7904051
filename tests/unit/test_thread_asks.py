"""Pattern questions over the list asked in people's own words: recognised, with the asking
words left out of the topic."""

from __future__ import annotations

import pytest

from answers.thread_asks import topic_words
from answers.thread_patterns import thread_pattern_plan


@pytest.mark.parametrize(
    ("question", "about", "topic"),
    [
        # problems asked in the plural, then how they are solved: fixes are grouped
        (
            "Which issues do users run into with the E320, and how do they get around them?",
            "fix",
            "E320",
        ),
        (
            "What goes wrong most often when people flash an N300, and what do they do about it?",
            "fix",
            "flash N300",
        ),
        # a problem the list talks about, without "cause" or "fix": its causes are grouped
        ("What are the typical pitfalls of streaming over 10 GbE?", "cause", "streaming 10 GbE"),
        (
            "Going by the list, why do B205mini boards keep failing?",
            "cause",
            "B205mini boards keep",
        ),
        (
            "What usually makes the OctoClock lose lock on a cold start?",
            "cause",
            "OctoClock lose lock cold start",
        ),
        # fixing by another verb; an aside in brackets and a negated verb name nothing
        ("How do people usually recover an X310 (rev B) that won't boot?", "fix", "X310 boot"),
        ("What commonly clears timeouts on the TwinRX?", "fix", "timeouts TwinRX"),
    ],
)
def test_a_question_about_the_list_in_its_own_words_is_a_thread_pattern(
    question: str, about: str, topic: str
) -> None:
    plan = thread_pattern_plan(question)
    assert plan is not None, question
    assert (plan.about, plan.topic) == (about, topic)


@pytest.mark.parametrize(
    "question",
    [
        "How was the overflow on my X310 fixed?",  # one thread, no cue
        "What are the most common fixes?",  # names no problem
        "Why did my B210 stop streaming yesterday?",  # one user's problem
        "What usually happens on the list?",  # asks no fix, cause or problem
    ],
)
def test_a_question_about_one_thread_or_nothing_is_not(question: str) -> None:
    assert thread_pattern_plan(question) is None


def test_the_names_of_a_problem_keep_their_negation_and_spelling() -> None:
    assert topic_words("What usually causes no devices found errors?") == "no devices found errors"
    assert topic_words("Why do GPSDOs in USRPs often fail?") == "GPSDOs USRPs"
