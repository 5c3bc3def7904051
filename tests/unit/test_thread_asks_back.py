"""A reply's request for information or courtesy scores below its statement of the outcome,
question mark or not (invented sentences)."""

from __future__ import annotations

from answers.scoring import scores
from answers.thread_answer import ThreadQuestion, thread_answer
from answers.units import units_of
from tests.unit.test_threads import THREAD, mail

QUESTION = "Why does the N210 drop samples at 25 MS/s over gigabit ethernet?"


def _scored(text: str, aspect: str) -> float:
    units = units_of(mail("d00000000001", text, "d1@x", "Ann", reply_to=THREAD), 0)
    assert len(units) == 1
    return scores(QUESTION, units, aspect)[0]  # type: ignore[arg-type]


def test_request_for_logs_scores_below_a_statement_with_the_same_words() -> None:
    asked = _scored("Can you send the N210 log of the drop at 25 MS/s over ethernet.", "cause")
    stated = _scored("The N210 log shows the drop at 25 MS/s over ethernet.", "cause")
    assert asked < stated


def test_sign_off_and_please_post_are_demoted_for_fix_questions() -> None:
    post = _scored("Please post the N210 output at 25 MS/s over ethernet.", "fix")
    said = _scored("The N210 output at 25 MS/s over ethernet is fine.", "fix")
    assert post < said
    assert _scored("Hope this helps with the N210 samples.", "fix") < _scored(
        "This is about the N210 samples.", "fix"
    )


def test_a_short_reply_said_whole_leaves_out_its_request_for_logs() -> None:
    ask = mail("d00000000010", "My B200 stops streaming after an hour. Any ideas?", THREAD, "Ann")
    reply = mail(
        "d00000000011",
        "Could you send the full console output from the start. "
        "The B200 stops when the USB controller suspends; disable USB autosuspend.",
        "d11@x",
        "Bob",
        reply_to=THREAD,
        standing=1.0,
    )
    question = "Why does my B200 stop streaming after an hour?"
    lines = thread_answer(
        ThreadQuestion(question, question, "cause", [reply], [ask, reply]),  # type: ignore[arg-type]
        fresh=lambda text: True,
        take=lambda text: None,
    )
    said = " ".join(lines or [])
    assert "autosuspend" in said
    assert "console output" not in said
