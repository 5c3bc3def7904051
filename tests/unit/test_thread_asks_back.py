"""A reply's request for information or courtesy scores below its statement of the outcome,
question mark or not (invented sentences)."""

from __future__ import annotations

from answers.scoring import scores
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
