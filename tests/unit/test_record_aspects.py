"""A follow-up asking one aspect of a record is answered from that record's fields, cited to it
alone; metadata lines of aspects nobody asked are left out; one incident is one listed item."""

from __future__ import annotations

import re
from typing import Any

from answers import AnswerRequest, compose_answer
from answers.record_aspects import is_metadata_line, record_aspect
from archive.store.passages import Passage
from graph.followup import is_followup
from tests.fakes.clients import passage

R44 = passage(
    "a00000000001",
    "The helicopter impacted trees shortly after takeoff and was destroyed by fire.",
    doc_id="r44",
    title="CEN12FA091 2011-11-24 Hackensack, Minnesota ROBINSON HELICOPTER COMPANY R44 II",
    report_no="CEN12FA091",
    date="2011-11-24",
    facts={
        "injuries": "fatal 1, serious 0, minor 1",
        "make": "ROBINSON HELICOPTER COMPANY",
        "model": "R44 II",
        "registration": "N821JV",
        "city": "Hackensack",
        "state": "Minnesota",
    },
)
OTHER = passage(
    "b00000000002",
    "The pilot and passenger were not injured; the airplane sustained substantial damage.",
    doc_id="other",
    title="WPR12CA431 2012-09-20 McMinnville, Oregon ROBINSON R44 II",
    report_no="WPR12CA431",
    facts={"injuries": "fatal 0, serious 0, minor 3"},
)


def followup(question: str, *passages: Passage, **fields: Any) -> str:
    return compose_answer(
        AnswerRequest(
            question,
            f"R44 Hackensack {question}",
            list(passages),
            pool=list(passages),
            subject_documents=["r44"],
            **fields,
        )
    )


def cited(answer: str) -> set[str]:
    return set(re.findall(r"\[C:([0-9a-f]{12})\]", answer))


def test_an_injuries_followup_states_the_subject_records_counts_and_cites_only_it() -> None:
    answer = followup("were there any injuries?", OTHER, R44)
    assert "CEN12FA091: 1 fatal, 0 serious, 1 minor injuries." in answer
    assert cited(answer) == {"a00000000001"}  # not the other R44 record ranked above it


def test_each_record_aspect_is_answered_from_its_field() -> None:
    assert "happened on November 24, 2011" in followup("when did it happen?", R44)
    assert "happened in Hackensack, Minnesota" in followup("where was that?", R44)
    aircraft = followup("what type of aircraft was it?", R44)
    assert "ROBINSON HELICOPTER COMPANY R44 II, registration N821JV" in aircraft


def test_no_injuries_is_said_as_such() -> None:
    calm = passage("c00000000003", "The airplane nosed over.", doc_id="calm", report_no="X1")
    calm["facts"] = {"injuries": "fatal 0, serious 0, minor 0"}
    answer = compose_answer(
        AnswerRequest("was anyone hurt?", "was anyone hurt?", [calm], subject_documents=["calm"])
    )
    assert "X1: no injuries (0 fatal, 0 serious, 0 minor)." in answer


def test_short_aspect_questions_are_followups_and_name_their_aspect() -> None:
    for question, aspect in (
        ("was anyone hurt?", "injuries"),
        ("any fatalities?", "injuries"),
        ("how many people were injured?", "injuries"),
        ("what was the location?", "place"),
        ("what aircraft was involved?", "aircraft"),
        ("what day did it happen?", "date"),
        ("which ship was it?", "vessel"),
    ):
        assert is_followup(question), question
        assert record_aspect(question) == aspect, question
    assert not is_followup("Were there injuries in the R44 accident in Hackensack?")
    assert record_aspect("What caused the engine to lose power?") is None


MAIL = passage(
    "e00000000005",
    "Vessel: Baltic Trader, IMO 9345678, general cargo ship.\n"
    "On opening hold 2 the surveyor found wet damage on 14 steel coils.",
    kind="email",
    doc_id="mail",
)


def test_a_metadata_line_is_said_only_when_its_aspect_is_asked() -> None:
    answer = compose_answer(
        AnswerRequest(
            "What damage did the surveyor find on Baltic Trader?",
            "damage surveyor find Baltic Trader",
            [MAIL],
        )
    )
    assert "wet damage on 14 steel coils" in answer
    assert "Vessel:" not in answer
    assert is_metadata_line("Vessel: Baltic Trader, IMO 9345678.", None)
    assert not is_metadata_line("Vessel: Baltic Trader, IMO 9345678.", "vessel")
    assert not is_metadata_line("Note: the coils were dry.", None)


def test_one_incident_told_by_a_message_and_its_digest_is_listed_once() -> None:
    thread = [
        passage("f00000000006", "We found a crack on the liner.", kind="email", thread_id="t1"),
        passage("f00000000007", "The liner crack was fixed.", kind="thread_digest", thread_id="t1"),
        passage("f00000000008", "A crack was found in the hatch cover.", kind="email"),
    ]
    answer = compose_answer(AnswerRequest("Which vessels had cracks?", "cracks", thread))
    items = [line for line in answer.splitlines() if line.startswith("- ")]
    assert len(items) == 2, answer
    assert "2 records" in answer


def test_the_date_note_is_said_once_in_a_conversation() -> None:
    note = "Dates filtered to 2011-11-01 to 2011-11-30, as asked."
    said = [f"{note}\nFrom the archive:\n\nThe helicopter impacted trees. [C:a00000000001]"]
    answer = followup("were there any injuries?", R44, notes=[note], said=said)
    assert note not in answer and "1 fatal" in answer


def test_the_record_holding_every_name_asked_is_the_subject() -> None:
    naknek = passage(
        "a10000000001",
        "The loss of engine power during cruise flight for an undetermined reason.",
        doc_id="naknek",
        title="ANC10LA084 2010-09-10 South Naknek, Alaska PIPER PA-20",
        section="Probable Cause",
    )
    dover = passage(
        "a20000000002",
        "The pilot's failure to maintain directional control during the landing roll.",
        doc_id="dover",
        title="CEN10CA361 2010-06-02 Dover, Arkansas PIPER PA-20",
        section="Probable Cause",
    )
    question = "Why did the PA20 crash near Dover?"
    answer = compose_answer(AnswerRequest(question, question, [naknek, dover]))
    assert cited(answer) == {"a20000000002"}, answer


def test_a_condition_with_when_asks_no_date() -> None:
    assert record_aspect("when did it happen?") == "date"
    assert record_aspect("When was this?") == "date"
    assert record_aspect("It fails when I stream from TX/RX and RX2; how do I fix it?") is None
    assert record_aspect("What do the S errors mean when recording into the replay block?") is None


def test_a_what_happened_question_naming_one_record_cites_only_that_record() -> None:
    # The README's example: sentences of an unrelated record scored well enough to join the
    # answer about the R44 at Hackensack.
    elt = passage(
        "c00000000003",
        "Based on the findings of this accident, the NTSB issued three safety recommendations "
        "to the FAA. The accident happened near the airport.",
        doc_id="mooney",
        title="WPR11FA032 2010-10-25 Lander, Wyoming MOONEY M20J",
        report_no="WPR11FA032",
    )
    question = "What happened in the Robinson R44 accident near Hackensack, Minnesota?"
    answer = compose_answer(AnswerRequest(question, question, [R44, elt], pool=[R44, elt]))
    assert "CEN12FA091" in answer
    assert cited(answer) == {"a00000000001"}, answer


GALA = passage(
    "d00000000004",
    "Ships involved: GALA (IMO 6812637).\nFlag state: ATG.\nInitial event: Stranding / grounding."
    "\nShip type: General Cargo Ship.\nGross tonnage: 1064.\nConsequences: Total loss of the "
    "ship.\n\nSummary of events:\nThe vessel dragged her anchor in a storm and grounded.",
    doc_id="gala",
    kind="casualty",
    title="C0001133 GALA — General Cargo Ship — Very serious casualty — 1995-01-23",
    source_id="C0001133",
    vessel_name="GALA",
    imo="6812637",
    date="1995-01-23",
    facts={
        "flag": "ATG",
        "ship_type": "General Cargo Ship",
        "location": "Fakse Bugt",
        "gross_tonnage": "1064",
        "initial_event": "Stranding / grounding",
        "consequences": "Total loss of the ship",
    },
)


def vessel_followup(question: str) -> str:
    return compose_answer(
        AnswerRequest(
            question,
            f"GALA {question}",
            [OTHER, GALA],
            pool=[OTHER, GALA],
            subject_documents=["gala"],
        )
    )


def test_a_vessel_followup_is_answered_from_the_casualty_records_fields() -> None:
    expected = {
        "what flag was she flying?": "GALA was flagged in Antigua and Barbuda (ATG).",
        "what was her gross tonnage?": "GALA had a gross tonnage of 1,064.",
        "what type of ship was it?": "the vessel was GALA, IMO 6812637, General Cargo Ship, ATG.",
        "what was the initial event?": "the initial event was stranding / grounding.",
        "what were the consequences?": "the recorded consequences were: total loss of the ship.",
        "what kind of casualty was it?": "the initial event was stranding / grounding.",
        "when did it happen?": "happened on January 23, 1995.",
        "where did it happen?": "happened in Fakse Bugt.",
    }
    for question, line in expected.items():
        answer = vessel_followup(question)
        assert f"C0001133: {line}" in answer, (question, answer)
        assert cited(answer) == {"d00000000004"}, (question, answer)


def test_the_vessel_aspects_are_told_apart_from_the_accident_ones() -> None:
    assert record_aspect("what kind of casualty was it?") == "initial_event"
    assert record_aspect("any casualties?") == "injuries"
    assert record_aspect("which flag was the ship under?") == "flag"
    assert record_aspect("how big was the ship?") == "tonnage"
    assert record_aspect("what was the outcome?") == "consequences"
    assert record_aspect("what kind of vessel was she?") == "vessel"
    assert record_aspect("what was the date of the casualty?") == "date"
    assert record_aspect("where was the vessel flagged?") == "flag"
    assert record_aspect("where was she registered?") == "flag"
