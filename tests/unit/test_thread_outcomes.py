"""Which word of a thread is its outcome: the asker's later finding over an earlier thanks, a
guess that names the cause, the asker's report read from where it says what was found, and a
reply to a side question kept apart from the answer to the asker's problem."""

from __future__ import annotations

import re

from answers.thread_answer import ThreadQuestion, thread_answer
from answers.threads import thread_of
from answers.units import explains
from archive.store.passages import Passage
from tests.unit.test_threads import THREAD, mail

PROBLEM = "Six E320 radios side by side never get a GPS lock with a good active antenna."
ASK = mail("c00000000001", f"Hello. {PROBLEM} Any suggestions?", THREAD, "David")
SUGGESTS = mail(
    "c00000000002",
    "If they are all tightly packed together, the antennas may shadow each other.",
    "c2@x",
    "Marcus",
    reply_to=THREAD,
    standing=1.0,
)
#: The asker thanks the suggestion, doubts it, and reasons about a hypothesis of their own
#: ("This explains ..." is their own reasoning, read as a confirmation).
THANKS = mail(
    "c00000000003",
    "Thanks for the suggestion, I am skeptical of that as a full explanation. I think the "
    "serial rate is too low. This explains the dropped sentences I see in gpsmon.",
    "c3@x",
    "David",
    reply_to="c2@x",
    day="2024-05-03",
)
#: A day later the asker reports what it was, after answering something else first.
FOUND = mail(
    "c00000000004",
    "Correct, gpsd was stopped while I captured the serial port output. "
    "I did find the root cause of my problem, though, and it is unrelated to the radio. "
    "A Raspberry Pi sits in the same chassis with a USB3 Ethernet dongle attached. "
    "Certain USB3 devices and cables emit broadband RF interference from the bus signalling. "
    "When I remove the dongle, GPS locks within a minute.",
    "c4@x",
    "David",
    reply_to="c3@x",
    day="2024-05-04",
)


def markers(text: str) -> list[str]:
    return re.findall(r"\[C:([0-9a-f]{12})\]", text)


def answer(question: str, aspect: str, pool: list[Passage]) -> str:
    lines = thread_answer(
        ThreadQuestion(question, question, aspect, [pool[0]], pool),  # type: ignore[arg-type]
        fresh=lambda text: True,
        take=lambda text: None,
    )
    assert lines is not None
    return "\n".join(lines)


def test_the_askers_later_finding_takes_back_an_earlier_confirmation() -> None:
    thread = thread_of(THREAD, [ASK, SUGGESTS, THANKS, FOUND])
    assert thread is not None
    assert thread.confirmed == {}  # "This explains ..." was taken back by the later finding
    before = thread_of(THREAD, [ASK, SUGGESTS, THANKS])
    assert before is not None and before.confirmed == {"c2@x": "c3@x"}


def test_a_confirmation_after_the_askers_finding_still_counts() -> None:
    works = mail(
        "c00000000005",
        "Thanks Marcus, moving them apart fixed it.",
        "c5@x",
        "David",
        reply_to="c2@x",
        day="2024-05-05",
    )
    thread = thread_of(THREAD, [ASK, SUGGESTS, THANKS, FOUND, works])
    assert thread is not None and thread.confirmed == {"c2@x": "c5@x"}


def test_the_askers_finding_is_said_from_the_sentence_that_reports_it() -> None:
    """The finding's message opens by answering something else (gpsd was stopped): the answer
    says what was found, from the sentence reporting it on, cited to that message."""
    said = answer("What was jamming the GPS of my E320s?", "cause", [ASK, SUGGESTS, THANKS, FOUND])
    assert "USB3 devices and cables emit broadband RF interference" in said
    assert "gpsd was stopped" not in said
    assert FOUND["chunk_id"] in markers(said)
    assert "confirmed" not in said


def test_a_guess_or_a_naming_of_the_symptom_explains() -> None:
    assert explains("My guess is that this is the step response of the DC offset filter.")
    assert explains("I suspect the cable is not shielded.")
    assert explains("It's the DC offset of the direct conversion transmitter.")
    assert explains("That is probably the LO leaking through.")
    assert not explains("It's the same problem I had last year.")
    assert not explains("This is the way to do it.")


SPIKE = mail(
    "d00000000001",
    "An OFDM signal transmitted from my X310 shows a spike in the centre of the spectrum.",
    THREAD,
    "Pedro",
)
NAMES_IT = mail(
    "d00000000002",
    "It's the DC offset of the direct conversion transmitter. "
    "You can move it out of your band with a tune request.",
    "d2@x",
    "Ron",
    reply_to=THREAD,
    standing=0.6,
)
#: A third user's side question, and the regular's answer to it, which explains something else.
SIDE = mail(
    "d00000000003",
    "Do we need to connect the antenna ports in loopback for the calibration?",
    "d3@x",
    "Cedric",
    reply_to="d2@x",
    day="2024-05-03",
)
SIDE_ANSWER = mail(
    "d00000000004",
    "This is because there is no internal loopback path for the spike calibration in the "
    "X310, so the ports must be connected.",
    "d4@x",
    "Zhou",
    reply_to="d3@x",
    day="2024-05-04",
    standing=1.0,
)


def test_a_reply_to_a_side_question_does_not_answer_the_askers_problem() -> None:
    said = answer(
        "What is behind the spike in the centre of the spectrum of my X310 OFDM signal?",
        "cause",
        [SPIKE, NAMES_IT, SIDE, SIDE_ANSWER],
    )
    assert "DC offset of the direct conversion transmitter" in said
    assert NAMES_IT["chunk_id"] in markers(said)
    assert SIDE_ANSWER["chunk_id"] not in markers(said)


CAL = mail(
    "e00000000001",
    "What tx_offset and rx_offset should I pass to uhd_cal_tx_iq_balance for my X310?",
    THREAD,
    "Tom",
)
DEFAULTS = mail(
    "e00000000002",
    "Run the calibration tools with the default tx_offset and rx_offset values.",
    "e2@x",
    "Martin",
    reply_to=THREAD,
)
#: The asker's later message raises another question, answered by someone else and confirmed.
LATER = mail(
    "e00000000003",
    "A new problem: the WCDMA constellation degrades when the LO offset goes above 16 MHz, "
    "while the signal generator, the spectrum analyser and the gain settings are all fine.",
    "e3@x",
    "Tom",
    reply_to="e2@x",
    day="2024-05-03",
)
BANDWIDTH = mail(
    "e00000000004",
    "The analog bandwidth of the UBX-40 is only 40 MHz, so the rx_offset you pass to the "
    "X310 must stay below 16 MHz.",
    "e4@x",
    "Rob",
    reply_to="e3@x",
    day="2024-05-04",
)
EXPLAINED = mail(
    "e00000000005",
    "Thank you, that explains the constellation problem.",
    "e5@x",
    "Tom",
    reply_to="e4@x",
    day="2024-05-05",
)


def test_a_confirmation_of_an_answer_to_another_of_the_askers_questions() -> None:
    """Rob answered the asker's later question and was thanked for it; the question asks the
    opening one, which Martin's reply answers."""
    said = answer(
        "Which tx_offset and rx_offset values go to uhd_cal_tx_iq_balance on the X310?",
        "fix",
        [CAL, DEFAULTS, LATER, BANDWIDTH, EXPLAINED],
    )
    assert DEFAULTS["chunk_id"] in markers(said)
    assert BANDWIDTH["chunk_id"] not in markers(said)
    # asked about the later problem, the confirmed reply answers
    said = answer(
        "Why does the WCDMA constellation degrade above a 16 MHz LO offset?",
        "cause",
        [CAL, DEFAULTS, LATER, BANDWIDTH, EXPLAINED],
    )
    assert BANDWIDTH["chunk_id"] in markers(said)


TEMP = mail(
    "f00000000001",
    "How can I monitor the X310 radio health, such as its temperature?",
    THREAD,
    "Carl",
)
ALREADY = mail(
    "f00000000002",
    "Like I said, it is in no stable release yet.",
    "f2@x",
    "Martin",
    reply_to=THREAD,
    standing=1.0,
)
AGAIN = mail(
    "f00000000003",
    "Is the temperature sensor in the UHD release I have installed?",
    "f3@x",
    "Carl",
    reply_to="f2@x",
    day="2024-05-03",
)
SENSOR = mail(
    "f00000000004",
    "We recently added the temp_fpga sensor to read the X310 temperature, see the manual.",
    "f4@x",
    "Martin",
    reply_to="f3@x",
    day="2024-05-03",
    standing=1.0,
)
THANKED = mail(
    "f00000000005", "Thanks a lot Martin!", "f5@x", "Carl", reply_to="f4@x", day="2024-05-04"
)
#: A third user answers Martin's first (weak) reply with what a released UHD already offers.
REGISTER = mail(
    "f00000000006",
    "The API to read the X310 FPGA temperature is not in a release yet, but the register for "
    "the temperature is there and you can read it from the radio health monitor.",
    "f6@x",
    "Wade",
    reply_to="f2@x",
    day="2024-05-04",
)


def test_a_reply_building_on_any_of_the_answering_authors_replies_joins_it() -> None:
    said = answer(
        "Which sensor reads the X310 temperature?",
        "general",
        [TEMP, ALREADY, AGAIN, SENSOR, THANKED, REGISTER],
    )
    assert SENSOR["chunk_id"] in markers(said)
    assert "the register for the temperature is there" in said
    assert REGISTER["chunk_id"] in markers(said)
