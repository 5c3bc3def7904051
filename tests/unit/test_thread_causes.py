"""Cause answers over a mail thread: the reply that explains why, said whole, without the
author's signature."""

from __future__ import annotations

import re

from answers.thread_answer import ThreadQuestion, thread_answer
from answers.threads import own_text
from answers.units import explains, units_of
from archive.store.passages import Passage
from tests.unit.test_threads import mail

ERROR = 'I suddenly get "RuntimeError: no cal data available for key rx_b" on my X300.'
ASK = mail("b00000000001", f"Hello. {ERROR} Any idea?", "root@example.org", "Abhi")
#: An early reply that restates the error, from a regular on the list.
RESTATES = mail(
    "b00000000002",
    "That sounds like you are using the calibrated-power API, but the cal data are missing.",
    "r1@x",
    "Marcus",
    reply_to="root@example.org",
    standing=1.0,
)
#: A later reply that explains why, without a cause word.
EXPLAINS = mail(
    "b00000000003",
    "Cal data is not stored on the device but on the host PC. Did you change computers?",
    "r2@x",
    "Lars",
    reply_to="root@example.org",
    day="2024-05-09",
)


def markers(text: str) -> list[str]:
    return re.findall(r"\[C:([0-9a-f]{12})\]", text)


def cause_answer(question: str, pool: list[Passage]) -> str:
    lines = thread_answer(
        ThreadQuestion(question, question, "cause", [ASK], pool),
        fresh=lambda text: True,
        take=lambda text: None,
    )
    assert lines is not None
    return "\n".join(lines)


def test_sentences_that_explain_without_a_cause_word() -> None:
    assert explains("'S' on a transmit stream means that a packet got dropped on the network.")
    assert explains("It goes through software, and that means we cannot time it.")
    assert explains("That's when you get the timing error.")
    assert explains("The issue is that the FPGA is already full.")
    assert explains("The data is not stored on the device but on the host PC.")
    assert explains("This is a known issue in UHD 4.6 and fixed in 4.7.")
    assert explains("That behaviour is by design.")
    assert not explains("You need to set the master clock rate first.")
    assert not explains("It is not clear, but try a reboot.")


def test_a_cause_question_is_answered_by_the_reply_that_explains_why() -> None:
    """The regular's reply only restates the error; the other explains where the data lives:
    a why-question is answered from the explanation, cited to its message."""
    answer = cause_answer(
        "Why do I get no cal data available for key rx_b?", [ASK, RESTATES, EXPLAINS]
    )
    assert "not stored on the device but on the host PC" in answer
    assert EXPLAINS["chunk_id"] in markers(answer)
    assert RESTATES["chunk_id"] not in markers(answer)


def test_a_signature_below_a_sign_off_is_not_the_replys_words() -> None:
    signed = (
        "Hi Abhi,\n\nCal data is stored on the host PC.\n\nRegards\n\nLars\n\n"
        "Lars Amsel Principal Software Engineer +49351206931427\n\nINTERNAL - CONFIDENTIAL"
    )
    assert own_text(signed) == "Hi Abhi,\n\nCal data is stored on the host PC."
    assert own_text("Best,\nthe fix is X.\nCheers,\nBob") == "Best,\nthe fix is X."
    # thanks is how an asker confirms: never cut as a sign-off
    assert own_text("Yes.\nThanks!") == "Yes.\nThanks!"
    # a long text below a "Best" line is more than a signature
    long_tail = "Use X.\nBest\n" + "\n".join(f"Line {i} of the reply." for i in range(12))
    assert own_text(long_tail) == long_tail


def test_a_cause_answer_says_no_signature() -> None:
    signed = {
        **EXPLAINS,
        "text": f"{EXPLAINS['text']}\n\nRegards\n\nLars\n\nLars Amsel Principal Engineer +4935120",
    }
    answer = cause_answer("Why do I get no cal data available for key rx_b?", [ASK, signed])
    assert "Principal Engineer" not in answer and "Regards" not in answer
    assert "host PC" in answer


def test_a_name_on_a_line_of_its_own_stays_with_the_sentence_that_names_it() -> None:
    """Mail sets a variable or a path on a line of its own inside a sentence: alone it is too
    short to copy, and the sentence says nothing without it; a signature ("--M") is no name."""
    text = (
        "Some files have moved to /usr/libexec/uhd/utils.\n\nAlso, you need to set your\n\n"
        "UHD_IMAGES_DIR\n\nEnvironment variable to point at where the images are kept.\n\n"
        "See the manual for the other variables\n\n--M"
    )
    said = [u.text for u in units_of(mail("b00000000004", text, "r3@x", "Marcus"), 0)]
    assert "Also, you need to set your UHD_IMAGES_DIR" in said
    assert all("--M" not in s and "/Martin" not in s for s in said)
    signed = units_of(mail("b00000000005", f"{text[:-3]}/Martin", "r4@x", "Martin"), 0)
    assert all("/Martin" not in u.text for u in signed)


def test_the_askers_turned_out_report_answers_how_and_why() -> None:
    """The asker's "it turned out ..." is what the thread found: it answers a fix question as
    well as a cause question (a cause sentence alone would be left out of a fix answer)."""
    [unit] = units_of(
        mail(
            "b00000000006", "It turned out the USB cable was bad, a new one fixed it.", "a@x", "A"
        ),
        0,
    )
    assert unit.role == "found"


def test_the_askers_confirmation_says_the_cause_in_their_words() -> None:
    """A why-question's answer adds the asker's confirmation when it explains, not only when it
    says what fixed it."""
    confirmed = mail(
        "b00000000007",
        "Yes, that explains it: the cal data simply is not on this PC but on the old one.",
        "c@x",
        "Abhi",
        reply_to="r2@x",
        day="2024-05-10",
    )
    answer = cause_answer(
        "Why do I get no cal data available for key rx_b?", [ASK, EXPLAINS, confirmed]
    )
    assert "Abhi confirmed" in answer and confirmed["chunk_id"] in markers(answer)
