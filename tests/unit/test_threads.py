"""Mail threads have roles: the asker's problem, replies by others, the asker's confirmation; a
fix or cause question is answered from the reply and cited to it, never to the problem or the
digest, and never from what a reply quotes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from answers import AnswerRequest, compose_answer
from answers.layout import build_context
from answers.thread_answer import ThreadQuestion, thread_answer
from answers.threads import confirms, own_text, thread_of
from archive.store.passages import Passage
from archive.store.threads import author_of
from graph.nodes.gather_thread import gather_thread
from tests.fakes.clients import passage
from text.sentences import sentences

THREAD = "root@example.org"
PROBLEM = "My USRP X310 is not transmitting anything with tx_waveforms at 900 MHz."
FIX = "You have a UBX in slot 1 and nothing in slot 0, so switch the channel to 1 instead."
OTHER = "Check the cabling and the spectrum analyzer settings before anything else please."


def mail(
    chunk_id: str,
    text: str,
    message_id: str,
    author: str,
    *,
    reply_to: str | None = None,
    day: str = "2024-05-02",
    **fields: Any,
) -> Passage:
    values: dict[str, Any] = {
        "kind": "email",
        "doc_id": f"doc-{message_id}",
        "source_id": message_id,
        "thread_id": THREAD,
        "subject": "Re: X310 not transmitting" if reply_to else "X310 not transmitting",
        "date": day,
        "author": author,
        "in_reply_to": reply_to,
        "references": [] if reply_to is None else [THREAD],
        **fields,
    }
    return passage(chunk_id, text, **values)


ASK = mail("a00000000001", f"Hello all. {PROBLEM} Any idea what is wrong?", THREAD, "Daniel")
ANSWER = mail("a00000000002", f"Hi Daniel. {FIX}", "m2@x", "Brian", reply_to=THREAD)
THANKS = mail(
    "a00000000003",
    "That was it: switching the channel to 1 fixed the problem. Thanks for your help!",
    "m3@x",
    "Daniel",
    reply_to="m2@x",
)
LATE = mail("a00000000004", OTHER, "m4@x", "Marcus", reply_to=THREAD, day="2024-05-03")
DIGEST = passage(
    "d00000000001",
    f'Thread "X310 not transmitting": 4 messages.\n\nProblem (Daniel): {PROBLEM}\n\n'
    f"Resolution (Daniel): switching the channel to 1 fixed the problem.",
    kind="thread_digest",
    doc_id="digest",
    thread_id=THREAD,
)


def markers(answer: str) -> list[str]:
    return re.findall(r"\[C:([0-9a-f]{12})\]", answer)


def test_quoted_text_is_not_the_repliers_own() -> None:
    text = f"{FIX}\n\nOn Tue, 2 May 2024 at 10:00, Daniel <d@x> wrote:\n> {PROBLEM}\n> more"
    assert own_text(text) == FIX
    assert own_text(f"> {PROBLEM}\nI agree, {FIX}") == f"I agree, {FIX}"
    outlook = f"{FIX}\n-----Original Message-----\nFrom: Daniel\n{PROBLEM}"
    assert own_text(outlook) == FIX


def test_a_mailing_lists_rewritten_sender_is_the_author() -> None:
    assert author_of("Rob Kossler via USRP-users", "usrp-users@lists.ettus.com") == "Rob Kossler"
    assert author_of("", "wade.fife@ettus.com") == "wade.fife@ettus.com"


def test_roles_asker_replies_and_the_confirmed_reply() -> None:
    thread = thread_of(THREAD, [LATE, THANKS, ANSWER, ASK])
    assert thread is not None
    assert [m.message_id for m in thread.messages] == [THREAD, "m2@x", "m3@x", "m4@x"]
    assert thread.problem is not None and thread.problem.message_id == THREAD
    assert [m.author for m in thread.replies()] == ["Brian", "Marcus"]
    assert thread.confirmed == {"m2@x": "m3@x"}


def test_a_reply_sorts_after_the_message_it_answers_on_the_same_day() -> None:
    # the reply's own date is earlier (a wrong clock); the reply chain decides
    early = mail("a00000000002", FIX, "m2@x", "Brian", reply_to=THREAD, day="2024-05-01")
    thread = thread_of(THREAD, [early, ASK])
    assert thread is not None and [m.author for m in thread.messages] == ["Daniel", "Brian"]


def test_without_the_opening_message_the_asker_is_who_wrote_the_first_unanswered_one() -> None:
    # "Re:" fragments: the thread's first message is not in the archive
    asks = mail("a00000000001", PROBLEM, "q@x", "Soren", reply_to=THREAD)
    fixed = mail(
        "a00000000002",
        "This is fixed in 4.5 and 4.6. Can you switch?",
        "r@x",
        "Rob",
        reply_to="q@x",
    )
    thread = thread_of(THREAD, [fixed, asks])
    assert thread is not None and thread.asker == "soren"
    assert [m.author for m in thread.replies()] == ["Rob"]


def test_what_confirms_and_what_does_not() -> None:
    assert confirms("Thanks, that fixed it!")
    assert confirms("Chris's suggestion worked great. Thanks Martin and Chris!")
    assert confirms("Thanks - this worked like a charm.")
    assert not confirms("Thanks, unfortunately it still does not work.")
    assert not confirms("I tried your suggestion but I still get the same error.")
    assert not confirms("Thank you for your answer, I will try it tomorrow.")


def test_thanks_for_the_answer_itself_confirms_it() -> None:
    """Askers on the list confirm by thanking for the solution, agreeing, or a bare "Yes.
    Thanks!"; thanks for the trouble, or with a doubt left, does not."""
    assert confirms("Thank you very much for precisely pointing out the solution. One more thing?")
    assert confirms("After further investigation, I concur with your comment.")
    assert confirms("Thanks for this interesting insight! So it is not an error in the datasheet.")
    assert confirms("Anyhow, the file is being used so I consider this solved.")
    assert confirms("I will proceed with your suggested approach.")
    assert confirms("Yes. Thanks!")
    assert not confirms("Thanks for your reply. I still have some doubt.")
    assert not confirms("Thank you for your help David.")
    assert not confirms("Yes. Thanks! But it still fails after a reboot.")


def answered(question: str, passages: list[Passage], pool: list[Passage]) -> list[str]:
    said: list[str] = []
    lines = thread_answer(
        ThreadQuestion(question, question, "fix", passages, pool),
        fresh=lambda text: True,
        take=said.append,
    )
    assert lines is not None
    return lines


def test_the_fix_comes_from_the_confirmed_reply_and_is_cited_to_it() -> None:
    # the question's words match the problem; the later reply by someone else answers less
    question = "My X310 is not transmitting with tx_waveforms at 900 MHz; how was it fixed?"
    lines = answered(question, [ASK, DIGEST], [ASK, ANSWER, THANKS, LATE, DIGEST])
    text = "\n".join(lines)
    assert "switch the channel to 1" in text
    assert "confirmed" in text and "Brian" in text
    assert ANSWER["chunk_id"] in markers(lines[-1])
    assert DIGEST["chunk_id"] not in markers(text)
    problem_lines = [line for line in lines if PROBLEM in line]
    assert len(problem_lines) <= 1 and len(lines[0].splitlines()) == 1


def test_without_a_confirmation_the_latest_reply_that_answers_is_used() -> None:
    later = mail(
        "a00000000005",
        "You need to switch the channel to 1, the default channel 0 is the empty slot.",
        "m5@x",
        "Rob",
        reply_to=THREAD,
        day="2024-05-04",
    )
    question = "How was the X310 not transmitting problem fixed?"
    lines = answered(question, [ASK], [ASK, ANSWER, LATE, later])
    assert later["chunk_id"] in markers(lines[-1])
    assert ANSWER["chunk_id"] not in markers(lines[-1])


def test_a_question_the_asker_answered_alone_is_left_to_the_composer() -> None:
    alone = mail("a00000000006", "I fixed it myself.", "m6@x", "Daniel", reply_to=THREAD)
    said: list[str] = []
    lines = thread_answer(
        ThreadQuestion("How was it fixed?", "How was it fixed?", "fix", [ASK], [ASK, alone]),
        fresh=lambda text: True,
        take=said.append,
    )
    assert lines is None


def test_the_composer_answers_a_fix_question_over_a_thread_from_the_reply() -> None:
    question = "How was the X310 that was not transmitting anything fixed?"
    answer = compose_answer(
        AnswerRequest(question, question, [DIGEST, ASK], pool=[DIGEST, ASK, ANSWER, THANKS])
    )
    assert ANSWER["chunk_id"] in markers(answer), answer
    assert DIGEST["chunk_id"] not in markers(answer)
    assert answer.count(PROBLEM) <= 1
    quoted = mail(
        "a00000000007",
        f"Glad to help.\n\nOn Tue, 2 May 2024, Daniel wrote:\n> {FIX}",
        "m7@x",
        "Brian",
        reply_to="m3@x",
    )
    again = compose_answer(AnswerRequest(question, question, [ASK], pool=[ASK, quoted]))
    assert FIX not in again  # what a reply quotes is not its author's statement


def test_a_chat_model_reads_who_asked_and_which_reply_was_confirmed() -> None:
    context = build_context([LATE, ANSWER, ASK, THANKS])
    assert "Roles: asked by Daniel; replies by Brian, Marcus." in context
    assert "The asker confirmed the reply by Brian worked." in context
    assert "(reply by Brian, which the asker confirmed worked)\n[CITE:a00000000002" in context
    assert "(the asker's question)\n[CITE:a00000000001" in context
    # in reading order: the question, the confirmed reply, the confirmation, the late reply
    order = [context.index(f"[CITE:{p['chunk_id']}") for p in (ASK, ANSWER, THANKS, LATE)]
    assert order == sorted(order)


async def test_gathering_adds_the_threads_messages_for_a_fix_question_only() -> None:
    asked: list[list[str]] = []

    async def reader(thread_ids: Sequence[str]) -> dict[str, list[Passage]]:
        asked.append(list(thread_ids))
        return {THREAD: [ASK, ANSWER, THANKS, LATE]}

    retrieved = {k: v for k, v in ASK.items() if k not in ("author", "in_reply_to")}
    state: Any = {
        "question": "How was the X310 fixed?",
        "passages": [retrieved],
        "ranked": [retrieved],
    }
    update = await gather_thread(state, threads=reader)
    assert asked == [[THREAD]]
    assert [r["chunk_id"] for r in update["ranked"]] == [
        c["chunk_id"] for c in (ASK, ANSWER, THANKS, LATE)
    ]
    assert update["ranked"][0]["author"] == "Daniel"  # the retrieved chunk learns its place
    assert len(update["passages"]) == 4
    state["question"] = "What happened to the X310?"
    assert await gather_thread(state, threads=reader) == {}
    assert await gather_thread({**state, "question": "How was it fixed?"}, threads=None) == {}


def test_the_askers_confirmation_adds_what_fixed_it_in_their_words() -> None:
    question = "My X310 is not transmitting with tx_waveforms at 900 MHz; how was it fixed?"
    lines = answered(question, [ASK], [ASK, ANSWER, THANKS])
    assert (
        "Daniel confirmed: That was it: switching the channel to 1 fixed the problem." in lines[-1]
    )
    assert THANKS["chunk_id"] in markers(lines[-1]) and ANSWER["chunk_id"] in markers(lines[-1])


def test_the_askers_own_resolution_competes_with_the_replies() -> None:
    found = mail(
        "a00000000008",
        "I found that the channel was wrong: switching the channel to 1 fixed the X310.",
        "m8@x",
        "Daniel",
        reply_to="m4@x",
        day="2024-05-05",
    )
    question = "How was the X310 not transmitting problem fixed?"
    lines = answered(question, [ASK], [ASK, LATE, found])
    assert found["chunk_id"] in markers(lines[-1])
    assert "Daniel, who asked" in "\n".join(lines)
    still = {**found, "chunk_id": "a00000000009", "text": "I found that it still fails, sadly."}
    assert found["chunk_id"] not in markers(
        "\n".join(answered(question, [ASK], [ASK, LATE, still]))
    )


def test_the_asker_writing_from_a_bare_address_is_still_the_asker() -> None:
    """A From with no name ("daniel@lab.org") is the same asker as "Daniel": their
    confirmation marks the reply they thank, and their later words are not a reply."""
    thanks = {**THANKS, "text": "After further investigation, I concur with your comment."}
    thread = thread_of(THREAD, [ASK, ANSWER, {**thanks, "author": "daniel@lab.org"}, LATE])
    assert thread is not None
    assert thread.confirmed == {"m2@x": "m3@x"}
    assert [m.author for m in thread.replies()] == ["Brian", "Marcus"]


def test_a_web_form_mails_markdown_breaks_are_sentence_breaks() -> None:
    """Mails posted through the list's web form end lines with a backslash and escape brackets:
    undone, the cause is a sentence of its own instead of part of one too long to quote."""
    text = (
        "Hello Kevin,\n\n\\\nAre you using one of the default bitfiles?\\ It looks like the issue "
        "is caused by your Radio and PolConverter sharing SEP3.\\\n\\\nSee \\[INFO\\] in the log."
    )
    assert sentences(own_text(text)) == [
        "Hello Kevin,",
        "Are you using one of the default bitfiles?",
        "It looks like the issue is caused by your Radio and PolConverter sharing SEP3.",
        "See [INFO] in the log.",
    ]
    assert own_text("Paths stay: C:\\Users\\me\\uhd") == "Paths stay: C:\\Users\\me\\uhd"


async def test_a_digest_of_a_split_off_part_joins_the_gathered_conversation() -> None:
    """A list archive splits a conversation (a reply whose parent it lacks starts a thread of
    its own); the conversation is gathered by subject, and the split-off part's digest joins
    it, so the answer reads the whole conversation when that digest leads."""

    async def reader(thread_ids: Sequence[str]) -> dict[str, list[Passage]]:
        split = {**LATE, "thread_id": "late@x"}  # a split-off part, joined by its subject
        return {THREAD: [{**p, "conversation": THREAD} for p in (ASK, ANSWER, THANKS, split)]}

    digest = passage(
        "d00000000001",
        "Problem (Daniel): not transmitting.",
        kind="thread_digest",
        thread_id="late@x",
    )
    other = passage("d00000000002", "Another thread.", kind="thread_digest", thread_id="else@x")
    retrieved = {k: v for k, v in ASK.items() if k not in ("author", "in_reply_to")}
    state: Any = {
        "question": "How was the X310 fixed?",
        "passages": [retrieved, digest, other],
        "ranked": [retrieved, digest, other],
    }
    update = await gather_thread(state, threads=reader)
    by_id = {r["chunk_id"]: r for r in update["ranked"]}
    assert by_id["d00000000001"]["conversation"] == THREAD
    assert "conversation" not in by_id["d00000000002"]


def test_a_new_question_asked_by_replying_to_an_old_thread_is_its_own_conversation() -> None:
    """Zhou replies to Daniel's thread with a new subject and a new question: answering Zhou's
    question, Zhou is the asker and the reply to Zhou answers, not Daniel's thread."""
    hijack = mail(
        "a00000000021",
        "My X410s run the ADC self calibration twice on every start; how can I avoid that?",
        "h1@x",
        "Zhou",
        reply_to="m2@x",
        subject="ADC Self Cal in X410",
    )
    answer = mail(
        "a00000000022",
        "Pass the calibration choice in the device arguments so it runs only once.",
        "h2@x",
        "Niels",
        reply_to="h1@x",
        subject="Re: ADC Self Cal in X410",
    )
    records = [ASK, ANSWER, THANKS, hijack, answer]
    whole = thread_of(THREAD, records)
    assert whole is not None and whole.asker == "daniel"
    own = thread_of(THREAD, records, "Re: ADC Self Cal in X410")
    assert own is not None and own.asker == "zhou"
    assert [m.author for m in own.replies()] == ["Niels"]
    alone = thread_of(THREAD, [ASK, ANSWER, hijack], "ADC Self Cal in X410")
    assert alone is not None and len(alone.messages) == 3  # one message of it: the whole thread
