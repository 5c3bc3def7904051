"""Offline follow-ups are searched together with the question they refer to."""

from langchain_core.messages import AIMessage, HumanMessage

from graph.followup import is_followup, standalone_query


def test_short_anaphoric_questions_are_followups() -> None:
    assert is_followup("what caused it?")
    assert is_followup("And the second engine?")
    assert not is_followup("What was the probable cause of ERA25LA084?")
    assert not is_followup(
        "Which of the reports from Alaska mention that the pilot lost control in gusty wind?"
    )


def test_followup_is_prefixed_with_the_previous_user_question() -> None:
    history = [
        HumanMessage("How was the liner crack on Nordic Star resolved?"),
        AIMessage("It was replaced. [C:0123456789ab]"),
        HumanMessage("what caused it?"),
    ]
    query = standalone_query("what caused it?", history)
    assert query == "How was the liner crack on Nordic Star resolved? what caused it?"
    assert standalone_query("what caused it?", history[-1:]) == "what caused it?"
    assert standalone_query("Cargo damage on Baltic Trader", history) == (
        "Cargo damage on Baltic Trader"
    )
