"""Which reply answers, and which replies go with it (:mod:`answers.reply_choice`): the thread's
own evidence (the asker took a reply up, another replier endorsed it, its author answers
others on the list often) outweighs being the latest; a third user's "same here" is never the
answer; a reply is said with the replies that build on it and its author's refinements, each
sentence cited to its own message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from answers import AnswerRequest, compose_answer
from answers.reply_choice import same_here
from answers.thread_answer import ThreadQuestion, thread_answer
from answers.threads import thread_of
from archive.store.passages import Passage
from graph.nodes.gather_thread import gather_thread
from tests.unit.test_threads import ASK, THREAD, answered, mail, markers

QUESTION = "How was the X310 not transmitting problem fixed?"
#: Two replies that answer about equally well; the later one wins on recency alone.
EARLY = "Switch the transmit channel to 1, the UBX daughterboard sits in slot 1 of the X310."
LATE = "Check whether the X310 channel you transmit on is the slot with the UBX in it."


def reply(chunk: str, text: str, mid: str, author: str, **fields: Any) -> Passage:
    fields.setdefault("reply_to", THREAD)
    return mail(chunk, text, mid, author, **fields)


def cited(records: list[Passage]) -> list[str]:
    return markers(answered(QUESTION, [ASK], [ASK, *records])[-1])


def test_a_reply_the_asker_took_up_outweighs_a_later_one() -> None:
    early = reply("a00000000031", EARLY, "e@x", "Brian", day="2024-05-02")
    late = reply("a00000000032", LATE, "l@x", "Carl", day="2024-05-04")
    assert cited([early, late]) == [late["chunk_id"]]  # nothing backs either: the later
    took = reply(
        "a00000000033",
        "Thanks! I moved the UBX daughterboard question aside and will check slot 1 tonight.",
        "t@x",
        "Daniel",
        reply_to="e@x",
        day="2024-05-03",
    )
    assert early["chunk_id"] in cited([early, took, late])
    failed = {**took, "text": "Thanks, but unfortunately slot 1 does not work either."}
    assert early["chunk_id"] not in cited([early, failed, late])


def test_an_author_who_answers_others_often_outweighs_a_newcomer() -> None:
    early = reply("a00000000031", EARLY, "e@x", "Marcus", day="2024-05-02", standing=0.95)
    late = reply("a00000000032", LATE, "l@x", "Carl", day="2024-05-04", standing=0.0)
    assert cited([early, late]) == [early["chunk_id"]]
    assert cited([{**early, "standing": 0.0}, late]) == [late["chunk_id"]]


def test_a_third_users_same_here_is_never_the_answer() -> None:
    early = reply("a00000000031", EARLY, "e@x", "Brian", day="2024-05-02")
    metoo = reply(
        "a00000000034",
        "I am having exactly the same problem with my X310 not transmitting anything at all.",
        "s@x",
        "Sam",
        day="2024-05-06",
    )
    assert same_here(metoo["text"]) and not same_here(EARLY)
    assert cited([early, metoo]) == [early["chunk_id"]]
    alone = thread_of(THREAD, [ASK, metoo])
    assert alone is not None
    said: list[str] = []
    nothing = thread_answer(
        ThreadQuestion(QUESTION, QUESTION, "fix", [ASK], [ASK, metoo]),
        fresh=lambda text: True,
        take=said.append,
    )
    assert nothing is None  # a bare "same here" answers nothing


def test_an_endorsed_reply_outweighs_the_later_one() -> None:
    early = reply("a00000000031", EARLY, "e@x", "Brian", day="2024-05-02")
    late = reply("a00000000032", LATE, "l@x", "Carl", day="2024-05-04")
    endorse = reply(
        "a00000000035",
        "If you really need it, this is the right answer, but check the gain first please.",
        "n@x",
        "Martin",
        reply_to="e@x",
        day="2024-05-03",
    )
    assert early["chunk_id"] in cited([early, endorse, late])


def test_an_addition_and_a_refinement_are_said_with_the_reply_each_cited_to_its_message() -> None:
    first = reply(
        "a00000000031",
        "You need to switch the transmit channel to 1: the UBX sits in slot 1 of the X310.",
        "e@x",
        "Rob",
        day="2024-05-02",
        standing=0.9,
    )
    added = reply(
        "a00000000036",
        "I will add that tx_waveforms takes a --channels argument, so the fix is one flag.",
        "a@x",
        "Marcus",
        reply_to="e@x",
        day="2024-05-03",
    )
    refined = reply(
        "a00000000037",
        "Yes. The same fix holds for the X300: switch the transmit channel to 1 for the UBX.",
        "r@x",
        "Rob",
        reply_to="q@x",
        day="2024-05-04",
        standing=0.9,
    )
    lines = answered(QUESTION, [ASK], [ASK, first, added, refined])
    assert set(markers(lines[-1])) == {r["chunk_id"] for r in (first, added, refined)}
    lead = "the replies by Rob (2024-05-02), Marcus (2024-05-03) and Rob (2024-05-04)"
    assert lead in lines[-2]
    for record in (first, added, refined):  # each sentence next to its own message's marker
        sentence = record["text"].removeprefix("Yes. ")
        after = lines[-1][lines[-1].index(sentence) :]
        assert markers(after)[0] == record["chunk_id"]
    alone = answered(QUESTION, [ASK], [ASK, first])  # nothing to join: the reply alone
    assert "the reply by Rob (2024-05-02):" in alone[-2]


def test_a_confirmation_without_a_parent_confirms_the_reply_whose_terms_it_repeats() -> None:
    fixed = reply("a00000000038", "This is fixed in UHD 4.6. Are you able to switch?", "f@x", "Rob")
    chat = reply(
        "a00000000039",
        "It should really be back-ported to older releases, it is basic functionality.",
        "c@x",
        "Rob",
        reply_to="f@x",
        day="2024-05-03",
    )
    solved = reply(
        "a00000000040",
        "Problem is solved. I compiled UHD 4.6 and the issue is gone.",
        "ok@x",
        "Daniel",
        reply_to="missing@x",
        day="2024-05-04",
    )
    thread = thread_of(THREAD, [ASK, fixed, chat, solved])
    assert thread is not None and thread.confirmed == {"f@x": "ok@x"}


async def test_the_conversation_whose_problem_the_question_restates_is_answered() -> None:
    """The best passage sits in another conversation (a release note naming the same tool);
    the question restates the problem of the second one, which someone answered: that
    conversation is chosen, its passages lead, and the answer is cited to its reply."""
    other = "release@x"
    note = mail(
        "b00000000001",
        "UHD 4.8 is out with a new rfnoc_modtool and many fixes for the image builder.",
        other,
        "Release Bot",
        thread_id=other,
        subject="[UHD] 4.8 Release Announcement",
    )
    note_reply = mail(
        "b00000000002",
        "Great news, thanks for all the work on rfnoc_modtool in this release.",
        "rr@x",
        "Fan",
        reply_to=other,
        thread_id=other,
        subject="Re: [UHD] 4.8 Release Announcement",
    )
    asked = mail(
        "b00000000003",
        "rfnoc_modtool add fails with No such file or directory for gain.yml on UHD 4.8.",
        "q8@x",
        "Ann",
        thread_id="q8@x",
        subject="rfnoc_modtool add fails",
    )
    fixed = mail(
        "b00000000004",
        "You need to copy gain.yml into the blocks folder, the 4.8 installer misses it.",
        "f8@x",
        "Wade",
        reply_to="q8@x",
        thread_id="q8@x",
        subject="Re: rfnoc_modtool add fails",
    )

    async def reader(thread_ids: Sequence[str]) -> dict[str, list[Passage]]:
        every = {other: [note, note_reply], "q8@x": [asked, fixed]}
        return {t: [{**p, "conversation": t} for p in every[t]] for t in thread_ids if t in every}

    bare = [{k: v for k, v in p.items() if k != "author"} for p in (note, asked)]
    question = "rfnoc_modtool add in UHD 4.8 fails with 'No such file or directory'; how to fix?"
    state: Any = {"question": question, "passages": bare, "ranked": bare}
    update = await gather_thread(state, threads=reader)
    assert update["conversation"] == "q8@x"
    assert update["passages"][0]["chunk_id"] == asked["chunk_id"]
    chosen = update["diagnostics"]["thread"]
    assert chosen["conversation"] == "q8@x" and len(chosen["candidates"]) == 2
    answer = compose_answer(
        AnswerRequest(
            question,
            question,
            update["passages"],
            pool=update["ranked"],
            conversation=update["conversation"],
        )
    )
    assert fixed["chunk_id"] in markers(answer) and note["chunk_id"] not in markers(answer)


def test_the_short_pieces_a_colon_introduces_stay_with_it() -> None:
    """A reply listing what to use on lines of their own ('"radio-id"', 'and "radio-chan"'):
    each piece is too short to be copied alone, so it stays with the sentence introducing it."""
    text = (
        "If you look at the rfnoc_rx_to_file.cpp example, it has two parameters on the command "
        'line:\n\n"radio-id"\n\nand "radio-chan"\n\nThat correspond to the parameters you need.'
    )
    answer = reply("a00000000041", text, "c@x", "Marcus")
    lines = answered("How do I receive on the second channel?", [ASK], [ASK, answer])
    assert 'on the command line: "radio-id" and "radio-chan" [C:' in lines[-1]


def test_two_sentences_differing_in_a_word_and_their_links_last_part_are_said_once() -> None:
    """Links count by their parts: a joined reply's second list ("... in ModelSim except for
    the ones listed in .../utils/modelsim.excludes") says nearly what its first said."""
    base = "https://github.com/EttusResearch/uhd/blob/master/fpga/usrp3/tools/utils"
    text = (
        "All of the testbenches that have a Makefile should work with XSim except for the ones "
        f"listed in this file: {base}/testbenches.excludes\n\nAnd all of the testbenches that "
        f"have a Makefile should work in ModelSim except for the ones listed in this file: "
        f"{base}/modelsim.excludes"
    )
    answer = reply("a00000000042", text, "x@x", "Wade")
    lines = answered("Which testbenches work with XSim?", [ASK], [ASK, answer])
    assert lines[-1].count("excludes") == 1


def test_a_reply_answering_a_request_for_data_is_said_without_the_request() -> None:
    """The answering reply answers another replier's "please send ..." (not an answer): that
    request is not built on, and is not said beside the fix."""
    request = reply(
        "a00000000043",
        "Please send the X310 transmit settings and the tx_waveforms output to the list.",
        "p@x",
        "Carl",
    )
    fix = reply(
        "a00000000044",
        "You need to switch the X310 transmit channel to 1, the UBX sits in slot 1.",
        "f@x",
        "Rob",
        reply_to="p@x",
        day="2024-05-03",
        standing=0.9,
    )
    lines = answered(QUESTION, [ASK], [ASK, request, fix])
    assert markers(lines[-1]) == [fix["chunk_id"]]
    assert "the reply by Rob (2024-05-03):" in lines[-2]
