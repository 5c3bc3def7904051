"""A thread's latest reply that points back to an earlier one, and code lines that differ only
in their numbers (:mod:`answers.deferral`, :func:`answers.units.same`)."""

from __future__ import annotations

from answers.deferral import named_in_pointer
from answers.units import is_repeat, signature
from tests.unit.test_threads import ANSWER, ASK, THREAD, answered, mail, markers


def pointer(chunk_id: str, text: str, author: str) -> dict:
    return mail(chunk_id, text, f"{chunk_id}@x", author, reply_to="m2@x", day="2024-05-05")


def test_a_later_reply_deferring_to_an_earlier_one_gives_way_to_it() -> None:
    later = pointer(
        "a00000000006",
        "Hey Daniel, with current UHD I have no suggestion other than what Brian wrote. You "
        "have a UBX in slot 1 and nothing in slot 0, so switch the channel to 1 instead.",
        "Martin Braun",
    )
    lines = answered("How was the X310 not transmitting fixed?", [ASK], [ASK, ANSWER, later])
    assert ANSWER["chunk_id"] in markers(lines[-1])
    assert later["chunk_id"] not in markers(lines[-1])


def test_a_reply_opening_by_thanking_an_earlier_replier_gives_way_to_that_reply() -> None:
    later = pointer(
        "a00000000007",
        "Thanks, Brian. You have a UBX in slot 1 and nothing in slot 0, so switch the channel "
        "to 1 instead.",
        "Marcus D. Leech",
    )
    lines = answered("How was the X310 not transmitting fixed?", [ASK], [ASK, ANSWER, later])
    assert ANSWER["chunk_id"] in markers(lines[-1])


def test_only_a_named_earlier_replier_is_pointed_at() -> None:
    assert named_in_pointer("Thanks, Rob. I still had it in my head.") == "Rob"
    assert named_in_pointer("I agree with Martin here, use Ethernet.") == "Martin"
    assert named_in_pointer("Marcus is correct, you need to load the X4_200 image.") is None
    assert named_in_pointer("To add onto what Marcus said: the minis have no PLL.") is None
    assert named_in_pointer("Thanks for the log. The channel is wrong.") is None
    unnamed = pointer(
        "a00000000008",
        "Hey Daniel, with current UHD I have no suggestion other than what Zoe wrote. You "
        "have a UBX in slot 1 and nothing in slot 0, so switch the channel to 1 instead.",
        "Martin Braun",
    )
    lines = answered("How was the X310 not transmitting fixed?", [ASK], [ASK, ANSWER, unnamed])
    assert unnamed["chunk_id"] in markers(lines[-1])  # no earlier Zoe: the latest reply stands


def test_code_lines_differing_only_in_numbers_are_not_repeats() -> None:
    wrong = 'usrp->set_gpio_attr("FP0", "OUT", 0xFFF, 0xFFF);'
    right = 'usrp->set_gpio_attr("FP0", "OUT", 0x0003, 0x0003);'
    assert not is_repeat(signature(right), [signature(wrong)])
    assert is_repeat(signature(right), [signature(f"> {right}")])  # a quoted copy still is
    reply = mail(
        "a00000000009",
        f"Your line is {wrong} which sets every pin. For pins 0 and 1 write {right} instead.",
        "m9@x",
        "Hui",
        reply_to=THREAD,
    )
    lines = answered("How do I set only GPIO pins 0 and 1 high?", [ASK], [ASK, reply])
    assert "0x0003" in lines[-1]


def test_a_bare_thanks_to_another_repliers_message_gives_way_to_it() -> None:
    later = pointer(
        "a00000000010",
        "Thanks.  You have a UBX in slot 1 and nothing in slot 0, so switch the channel to 1 "
        "instead.",
        "Marcus D. Leech",
    )
    lines = answered("How was the X310 not transmitting fixed?", [ASK], [ASK, ANSWER, later])
    assert ANSWER["chunk_id"] in markers(lines[-1])
    to_asker = mail(
        "a00000000011", later["text"], "m11@x", "Marcus D. Leech", reply_to=THREAD, day="2024-05-05"
    )
    lines = answered("How was the X310 not transmitting fixed?", [ASK], [ASK, ANSWER, to_asker])
    assert to_asker["chunk_id"] in markers(lines[-1])  # thanking the asker points at no reply
