"""Offline follow-ups are searched with the subject they refer to, and know what was said."""

from langchain_core.messages import AIMessage, HumanMessage

from graph.followup import followup_of, is_followup, standalone_query


def test_short_anaphoric_questions_are_followups() -> None:
    assert is_followup("what caused it?")
    assert is_followup("And the second engine?")
    assert is_followup("which command did the maintainer suggest?")
    assert not is_followup("What was the probable cause of ERA25LA084?")
    assert not is_followup("What did the pilot of N3718F report?")  # names its own subject
    assert not is_followup(
        "Which of the reports from Alaska mention that the pilot lost control in gusty wind?"
    )


HISTORY = [
    HumanMessage("How was the liner crack on Nordic Star resolved?"),
    AIMessage("It was replaced. [C:0123456789ab]", additional_kwargs={"citations": [{}]}),
    HumanMessage("what caused it?"),
]


def test_followup_is_searched_with_the_earlier_subject_and_its_own_aspect() -> None:
    query = standalone_query("what caused it?", HISTORY)
    assert query == "liner crack on Nordic Star what caused it?"
    assert standalone_query("what caused it?", HISTORY[-1:]) == "what caused it?"
    assert standalone_query("Cargo damage on Baltic Trader", HISTORY) == (
        "Cargo damage on Baltic Trader"
    )


def test_followup_carries_what_was_said_and_whether_it_was_grounded() -> None:
    followup = followup_of("what caused it?", HISTORY)
    assert followup is not None
    assert followup["subject"] == "How was the liner crack on Nordic Star resolved?"
    assert followup["said"] == ["It was replaced. [C:0123456789ab]"]
    assert followup["grounded"] is True
    unanswered = [HISTORY[0], AIMessage("No relevant documents found."), HISTORY[2]]
    assert followup_of("what caused it?", unanswered)["grounded"] is False  # type: ignore[index]
    assert followup_of("Cargo damage on Baltic Trader", HISTORY) is None
