"""The asker's own report of what fixed the problem ("I was able to resolve it by ...", "I worked
it out", "when I switched to X it just works") is a resolution a reader would name: it competes
with the replies, backed like a confirmed reply, for the kind of answer it reports (a fix report
answers how, not why), and thanking a reply while saying so does not confirm that reply."""

from __future__ import annotations

from answers.aspects import Aspect, question_aspect
from answers.thread_answer import ThreadQuestion, thread_answer
from answers.threads import own_text, self_resolved, thread_of
from answers.units import units_of
from archive.store.passages import Passage
from archive.store.threads import author_key
from tests.unit.test_threads import ANSWER, ASK, THREAD, mail, markers


def answer(question: str, aspect: Aspect, pool: list[Passage]) -> str:
    lines = thread_answer(
        ThreadQuestion(question, question, aspect, [ASK], pool),
        fresh=lambda text: True,
        take=lambda text: None,
    )
    assert lines is not None
    return "\n".join(lines)


def test_the_askers_own_reports_of_a_fix_are_resolutions() -> None:
    for text in (
        "Thank you for the links. I was able to resolve the issue by setting the governor.",
        "Finally I have found a simple way to work around this issue.",
        "Thx, I worked it out 2 days ago. Just my memory allocation.",
        "When I switched to\nmalloc, it just works fine:)",
        # a sentence saying something else still fails does not take the report back
        "If I use the other module in the X310, it now works! I can't explain why the first "
        "one does not work.",
    ):
        assert self_resolved(text), text
    assert not self_resolved("I tried the other module, but it does not work either.")


def test_thanking_a_reply_while_reporting_ones_own_fix_confirms_nothing() -> None:
    own = mail(
        "a00000000021",
        "Thanks Brian, I worked it out myself. With a heap buffer it works fine now.",
        "m21@x",
        "Daniel",
        reply_to="m2@x",
        day="2024-05-03",
    )
    thread = thread_of(THREAD, [ASK, ANSWER, own])
    assert thread is not None
    assert thread.confirmed == {}
    assert [m.message_id for m in thread.resolutions()] == ["m21@x"]


def test_the_askers_own_fix_outweighs_a_reply_by_a_frequent_answerer() -> None:
    expert = mail(
        "a00000000022",
        "The X310 is not transmitting at 900 MHz when the daughterboard sits in the other slot.",
        "m22@x",
        "Marcus",
        reply_to=THREAD,
        day="2024-05-03",
        standing=0.95,
    )
    own = mail(
        "a00000000023",
        "In the end I was able to resolve the issue by switching the X310 to channel 1.",
        "m23@x",
        "Daniel",
        reply_to="m22@x",
        day="2024-05-04",
    )
    question = "How was the X310 not transmitting at 900 MHz fixed?"
    said = answer(question, "fix", [ASK, expert, own])
    assert own["chunk_id"] in markers(said.splitlines()[-1]), said
    assert "switching the X310 to channel 1" in said


def test_a_fix_report_does_not_answer_why() -> None:
    cause = mail(
        "a00000000024",
        "Not all optical modules work with the X310, so the module in it is the likely reason.",
        "m24@x",
        "Brian",
        reply_to=THREAD,
        day="2024-05-03",
    )
    own = mail(
        "a00000000025",
        "If I use the other optical module in the X310, it now works! That means the X310 "
        "handles this kind of module, and I have no explanation why the first module does "
        "not work in the X310.",
        "m25@x",
        "Daniel",
        reply_to="m24@x",
        day="2024-05-04",
    )
    question = "Why does one optical module not work in the X310 transmitting at 900 MHz?"
    said = answer(question, "cause", [ASK, cause, own])
    assert cause["chunk_id"] in markers(said), said
    assert own["chunk_id"] not in markers(said), said
    how = answer("How was the optical module problem of the X310 fixed?", "fix", [ASK, cause, own])
    assert own["chunk_id"] in markers(how), how


def test_the_askers_resolution_is_that_reports_what_was_found() -> None:
    assert self_resolved("The resolution is that the block's clock is slower than the radio's.")


def test_a_note_after_a_senders_name_is_the_same_author() -> None:
    assert author_key("Pedro Vieira (Gmail - Geral)") == author_key("Pedro Vieira")
    assert author_key("(lab)") == author_key("(lab)")  # a name that is only a note stays


def test_a_short_sentence_that_explains_is_copied() -> None:
    record = mail(
        "a00000000026", "Hi Kevin,\n\nconfirm this is a bug. Use -t N310_XG.", "m26@x", "M"
    )
    texts = [u.text for u in units_of(record, 0)]
    assert any("confirm this is a bug." in t for t in texts), texts
    assert not any(t.startswith("Use -t") for t in texts)  # short, explains nothing


def test_asking_what_goes_wrong_asks_for_a_cause() -> None:
    assert question_aspect("The console fills with S and L. What do they mean is going wrong?") == (
        "cause"
    )
    assert question_aspect("The builder makes the HG image. Am I doing something wrong?") == "cause"
    assert question_aspect("Streaming stalls after a few packets. What was behind it?") == "cause"


def test_what_the_asker_found_and_what_made_it_work_are_resolutions() -> None:
    assert self_resolved("I did find the root cause of my problem, though.")
    assert self_resolved("When I remove the dongle from the system, GPS immediately works well.")
    # working around an error despite it is no fix
    assert not self_resolved("When I get that error the build goes on and it still works.")


def test_an_outlook_quote_header_starts_quoted_text() -> None:
    text = (
        "I found the root cause: the dongle jams the receiver.\n\n"
        "From: Marcus <m@x>\nSent: Wednesday, June 5, 2024 7:59 PM\nTo: Ann\n\n"
        "Thanks for the suggestion, they were all on the roof."
    )
    assert own_text(text) == "I found the root cause: the dongle jams the receiver."


def test_a_short_statement_inside_a_message_is_kept_with_the_sentence_before_it() -> None:
    text = (
        "This was a user error on my part. My cables were swapped. The host was routing "
        "traffic to the right port, which allowed pings to work. Thanks in advance."
    )
    texts = [u.text for u in units_of(mail("a00000000027", text, "m27@x", "Daniel"), 0)]
    assert "This was a user error on my part. My cables were swapped." in texts, texts
    assert not any("Thanks in advance" in t for t in texts), texts  # a sign-off, not inside


def test_the_askers_resolution_after_the_replies_is_the_threads_last_word() -> None:
    guess = mail(
        "a00000000028",
        "I think your X310 is not transmitting anything at 900 MHz because flow control stalls it.",
        "m28@x",
        "Marcus",
        reply_to=THREAD,
        day="2024-05-03",
        standing=0.95,
    )
    own = mail(
        "a00000000029",
        "The resolution is that the X310 daughterboard clock was slower than the radio clock, "
        "so my X310 was not transmitting anything at 900 MHz.",
        "m29@x",
        "Daniel",
        reply_to="m28@x",
        day="2024-05-05",
    )
    agree = mail("a00000000030", "I agree with Marcus here.", "m30@x", "Carl", reply_to="m28@x")
    question = "Why was my X310 not transmitting anything at 900 MHz?"
    said = answer(question, "cause", [ASK, guess, agree, own])
    assert own["chunk_id"] in markers(said), said
