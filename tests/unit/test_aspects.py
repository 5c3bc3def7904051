"""The aspect a question asks about: a mailing list or an example board is not a request for a
list of examples."""

from __future__ import annotations

from answers.aspects import question_aspect


def test_a_list_or_examples_asked_for_is_a_pattern_question() -> None:
    assert question_aspect("List accidents where carburetor icing was cited") == "pattern"
    assert question_aspect("Can you list the fatal accidents in 2011?") == "pattern"
    assert question_aspect("Give examples of bird strike accidents") == "pattern"


def test_the_mailing_list_and_an_example_program_are_not() -> None:
    assert (
        question_aspect("I posted but my message never shows up on the list; what causes that?")
        == "cause"
    )
    assert (
        question_aspect("Every UHD example on my X310 fails with OpTimeout; how do I fix it?")
        == "fix"
    )
    assert question_aspect("How do I start my own RFNoC example block on master?") == "fix"
