"""A thread's latest reply that points back to an earlier one, and code lines that differ only
in their numbers (:mod:`answers.deferral`, :func:`answers.units.same`)."""

from __future__ import annotations

import pytest

from answers.deferral import named_in_pointer
from answers.units import is_repeat, signature
from tests.unit.test_threads import ANSWER, ASK, FIX, THREAD, answered, mail, markers

QUESTION = "How was the X310 not transmitting fixed?"


def cited_after(opening: str, author: str, *, reply_to: str = "m2@x") -> tuple[str, list[str]]:
    """The chunk id of a later reply ``opening`` then repeating the fix, and what the answer
    cites when that reply is the thread's latest."""
    later = mail(
        "a00000000006", f"{opening} {FIX}", "m6@x", author, reply_to=reply_to, day="2024-05-05"
    )
    lines = answered(QUESTION, [ASK], [ASK, ANSWER, later])
    return later["chunk_id"], markers(lines[-1])


@pytest.mark.parametrize(
    ("opening", "author"),
    [
        (
            "Hey Daniel, with current UHD I have no suggestion other than what Brian wrote.",
            "Martin Braun",
        ),
        ("Thanks, Brian.", "Marcus D. Leech"),  # thanking the earlier replier by name
        ("Thanks.", "Marcus D. Leech"),  # a bare thanks to the reply it answers (Brian's)
    ],
)
def test_a_later_reply_pointing_back_gives_way_to_the_earlier_reply(
    opening: str, author: str
) -> None:
    later, cited = cited_after(opening, author)
    assert ANSWER["chunk_id"] in cited
    assert later not in cited


@pytest.mark.parametrize(
    ("opening", "reply_to"),
    [
        ("Hey Daniel, I have no suggestion other than what Zoe wrote.", "m2@x"),  # no Zoe here
        ("Thanks.", THREAD),  # thanking the asker points at no reply
    ],
)
def test_a_reply_pointing_at_no_earlier_reply_stands(opening: str, reply_to: str) -> None:
    later, cited = cited_after(opening, "Martin Braun", reply_to=reply_to)
    assert later in cited


def test_what_names_an_earlier_replier() -> None:
    assert named_in_pointer("Thanks, Rob. I still had it in my head.") == "Rob"
    assert named_in_pointer("I agree with Martin here, use Ethernet.") == "Martin"
    assert named_in_pointer("Marcus is correct, you need to load the X4_200 image.") is None
    assert named_in_pointer("To add onto what Marcus said: the minis have no PLL.") is None
    assert named_in_pointer("Thanks for the log. The channel is wrong.") is None
    assert named_in_pointer("Thanks. You have a UBX in slot 1.") is None


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
