"""The offline composer answers the kind of question asked, in the passages' own words."""

from __future__ import annotations

import logging
import re
from typing import Any

import numpy as np
import pytest

from answers import AnswerRequest, compose_answer, prompts, question_aspect, subject_of
from archive.store.passages import Passage
from tests.fakes.clients import passage
from text.sentences import sentences


def record(chunk_id: str, text: str, **fields: Any) -> Passage:
    fields.setdefault("doc_id", "d" + chunk_id)
    values = {"kind": "email", "source_id": "s", "title": "t", "archive_path": "p", **fields}
    return passage(chunk_id, text, **values)


PROBLEM = "We found a crack on the No. 3 cylinder liner of the main engine."
FIX = "The cracked No. 3 liner was replaced with the spare liner by the crew."
CAUSE = "Root cause confirmed as thermal fatigue from repeated cold starts."
DIGEST = record(
    "d00000000001",
    f'Thread "Liner crack": 3 messages.\n\nProblem (Chief Engineer): {PROBLEM}\n\n'
    f"Resolution (Superintendent): {FIX} {CAUSE}",
    kind="thread_digest",
    doc_id="digest",
)
FIRST = record("a00000000001", f"Good morning. {PROBLEM} The engine is immobilised.")
LAST = record("a00000000003", f"{FIX} Hydrostatic test passed without leakage. {CAUSE}")


def cited(answer: str) -> list[tuple[str, str]]:
    return re.findall(r"([^\n\]]+?) \[C:([0-9a-f]{12})\]", answer)


def body(answer: str) -> str:
    return answer.split("\n\n", 1)[1]


def test_a_fix_question_gets_the_fix_first_and_no_sentence_twice() -> None:
    answer = compose_answer(
        AnswerRequest(
            "How was the cylinder liner crack resolved?",
            "How was the cylinder liner crack resolved?",
            [DIGEST, FIRST, LAST],
        )
    )
    assert body(answer).startswith(FIX), answer
    texts = [s.strip() for s, _ in cited(answer)]
    assert len(texts) == len(set(texts))
    assert (
        sum(PROBLEM in t for t in texts) <= 1
    )  # the digest's copy of the problem is not said twice
    assert sum(FIX in t for t in texts) == 1


def test_every_sentence_is_copied_from_the_passage_it_cites() -> None:
    passages = [DIGEST, FIRST, LAST]
    answer = compose_answer(AnswerRequest("what caused the liner crack?", "liner crack", passages))
    texts = {r["chunk_id"]: r["text"] for r in passages}
    for sentence, chunk_id in cited(answer):
        assert sentence.strip().rstrip(".") in texts[chunk_id]


def test_a_cause_question_gets_the_stated_probable_cause_whole_and_first() -> None:
    cause = (
        "The pilot's failure to maintain directional control during landing. Contributing "
        "to the accident was the gusting crosswind."
    )
    passages = [
        record(
            "b00000000001",
            "NTSB investigators used data provided by various entities to prepare this aircraft "
            "accident report. The airplane landed on runway 27 and veered to the left.",
            section="Narrative",
            doc_id="r1",
            title="ERA10CA125 2010-01-02 Ocala, Florida CESSNA 172",
        ),
        record("b00000000002", cause, section="Probable Cause", doc_id="r1"),
    ]
    answer = compose_answer(
        AnswerRequest("What was the probable cause of ERA10CA125?", "ERA10CA125", passages)
    )
    assert body(answer).startswith("The pilot's failure to maintain directional control")
    assert "Contributing to the accident was the gusting crosswind." in answer
    assert "NTSB investigators" not in answer  # boilerplate is never an answer


def test_the_cause_section_is_taken_from_everything_retrieved() -> None:
    narrative = record("c00000000001", "The engine lost power during cruise.", doc_id="r2")
    pc = record(
        "c00000000002",
        "A total loss of engine power due to fuel exhaustion.",
        section="Probable Cause",
        doc_id="r2",
    )
    answer = compose_answer(
        AnswerRequest("why did the engine lose power?", "engine lose power", [narrative], pool=[pc])
    )
    assert body(answer).startswith("A total loss of engine power due to fuel exhaustion.")


def test_a_pattern_question_lists_distinct_documents_with_their_cause() -> None:
    causes = [
        "The pilot's improper landing flare.",
        "A gust of wind that exceeded the airplane's crosswind capability.",
        "The student's failure to maintain pitch control during the touchdown.",
    ]
    places = ["a grass strip", "runway 9", "the county airport"]
    passages = [
        record(f"e0000000000{i}", f"The airplane landed hard on {place}.", doc_id=f"r{i}")
        for i, place in enumerate(places, start=1)
    ]
    pool = [
        record(f"f0000000000{i}", cause, section="Probable Cause", doc_id=f"r{i}")
        for i, cause in enumerate(causes, start=1)
    ]
    answer = compose_answer(
        AnswerRequest("common causes of hard landing accidents", "hard landing", passages, pool)
    )
    lines = [ln for ln in answer.splitlines() if ln.startswith("- ")]
    assert len(lines) == 3
    for i, (line, cause) in enumerate(zip(lines, causes, strict=True), start=1):
        assert line.endswith(f"{cause} [C:f0000000000{i}]")


def test_a_followup_does_not_repeat_the_previous_answer() -> None:
    previous = f"From the archive:\n\n{FIX} [C:a00000000003] {PROBLEM} [C:a00000000001]"
    answer = compose_answer(
        AnswerRequest(
            "what caused it?",
            "cylinder liner crack Nordic Star what caused it?",
            [DIGEST, FIRST, LAST],
            said=[previous],
        )
    )
    assert FIX not in answer and PROBLEM not in answer
    assert body(answer).startswith(CAUSE)


def test_nothing_new_to_say_points_back_to_what_was_said() -> None:
    previous = " ".join(f"{s} [C:a00000000001]" for s in sentences(FIRST["text"]))
    answer = compose_answer(
        AnswerRequest("and the engine?", "engine", [FIRST], said=[previous, PROBLEM])
    )
    assert answer.startswith(prompts.ALREADY_SAID)  # pointed back to, not quoted anew as news
    assert answer.count("[C:") == 1


def test_what_the_archive_lacks_is_named_and_related_records_listed() -> None:
    passages = [
        record(
            "aa0000000001",
            "The Boeing 737 overran the runway in heavy rain.",
            doc_id="x1",
            title="DCA15MA001 2015-03-05 New York, New York BOEING 737",
            date="2015-03-05",
        ),
        record(
            "aa0000000002",
            "The Airbus A320 struck terrain short of the runway.",
            doc_id="x2",
            title="DCA16MA002 2016-01-05 Denver, Colorado AIRBUS A320",
            date="2016-01-05",
        ),
    ]
    answer = compose_answer(
        AnswerRequest(
            "Airbus A380 crash in Mumbai in 2019",
            "Airbus A380 crash in Mumbai in 2019",
            passages,
            year=2019,
            notes=[prompts.YEAR_RANKED.format(year=2019)],
        )
    )
    first, second = answer.splitlines()[:2]
    assert first.startswith("2019 is mentioned in passing")
    assert second == prompts.NOT_FOUND.format(terms="A380, Mumbai, 2019")
    assert prompts.CLOSEST_RECORDS in answer
    assert answer.count("\n- ") == 2


def test_a_year_in_passing_puts_that_years_records_first() -> None:
    older = record("ab0000000001", "A grounding near the harbour entrance.", date="2015-02-01")
    dated = record("ab0000000002", "A grounding near the pilot station.", date="2019-06-01")
    answer = compose_answer(
        AnswerRequest("grounding in 2019", "grounding", [older, dated], year=2019)
    )
    assert answer.index("[C:ab0000000002]") < answer.index("[C:ab0000000001]")


class FakeEmbed:
    """Texts about ice are close to the question, everything else is not."""

    def __call__(self, texts: list[str]) -> np.ndarray:
        rows = [
            [1.0, 0.0] if "ice" in t.lower() or "frozen" in t.lower() else [0.0, 1.0] for t in texts
        ]
        return np.asarray(rows, dtype=np.float32)


def test_sentences_are_chosen_by_meaning_not_only_shared_words() -> None:
    passages = [
        record(
            "ac0000000001",
            "The weather was reported as clear. Frozen moisture had accumulated in the venturi.",
        )
    ]
    question = "was there ice?"
    without = compose_answer(AnswerRequest(question, question, passages))
    with_meaning = compose_answer(AnswerRequest(question, question, passages, embed=FakeEmbed()))
    assert "Frozen moisture" not in body(without)
    assert "Frozen moisture had accumulated in the venturi." in with_meaning


def test_failing_embeddings_fall_back_to_shared_words(caplog: pytest.LogCaptureFixture) -> None:
    def broken(texts: list[str]) -> np.ndarray:
        raise RuntimeError("model file missing")

    with caplog.at_level(logging.WARNING):
        answer = compose_answer(AnswerRequest("liner crack?", "liner crack", [FIRST], embed=broken))
    assert "crack on the No. 3 cylinder liner" in answer
    assert "sentence embeddings failed" in caplog.text


def test_nothing_matching_falls_back_to_the_best_passage_opening() -> None:
    answer = compose_answer(AnswerRequest("zebra migration", "zebra migration", [FIRST, LAST]))
    assert answer.startswith(prompts.EXTRACTIVE_NOTHING)
    assert "[C:a00000000001]" in answer


def test_filter_scope_words_do_not_make_a_sentence_an_answer() -> None:
    passages = [
        record(
            "c00000000009",
            "Vessel: Nordic Star, IMO 9234567, bulk carrier. The crack was repaired by "
            "replacing the liner.",
        )
    ]
    answer = compose_answer(
        AnswerRequest(
            "How was the crack on Nordic Star repaired?",
            "How was the crack on Nordic Star repaired?",
            passages,
            scope=["Nordic Star", "9234567"],
        )
    )
    assert "replacing the liner" in answer and "bulk carrier" not in answer


@pytest.mark.parametrize(
    ("question", "aspect"),
    [
        ("What was the probable cause of the accident ERA10CA125?", "cause"),
        ("what caused it?", "cause"),
        ("How was the cylinder liner crack on Nordic Star resolved?", "fix"),
        ("which command did the maintainer suggest?", "fix"),
        ("What happened in the accident CEN12LA244?", "happened"),
        ("common causes of fatal landing accidents", "pattern"),
        ("Which vessels had hatch cover leaks?", "pattern"),
        ("What is the jacket water temperature?", "general"),
    ],
)
def test_question_aspects(question: str, aspect: str) -> None:
    assert question_aspect(question) == aspect


def test_subject_leaves_out_the_aspect() -> None:
    assert subject_of("How was the cylinder liner crack on Nordic Star resolved?") == (
        "cylinder liner crack on Nordic Star"
    )


def test_sentence_splitting() -> None:
    assert sentences("First one. Second one!\n\n- item a\n- item b") == [
        "First one.",
        "Second one!",
        "- item a",
        "- item b",
    ]


def test_a_fix_answer_skips_the_opening_message_headers_and_thanks() -> None:
    opening = record(
        "ad0000000001",
        "Our B205mini is not found by uhd_find_devices on any port we tried.",
        subject="[USRP-users] B205mini not found",
        doc_id="m1",
    )
    reply = record(
        "ad0000000002",
        "From: Ann Sent: Monday To: list Subject: Re: B205mini not found. Thanks, that worked "
        "great for the B205mini. My issue was a USB 3 port that could not power the B205mini. "
        "You need to plug the B205mini into a powered hub.",
        subject="[USRP-users] Re: B205mini not found",
        doc_id="m2",
    )
    answer = compose_answer(
        AnswerRequest("How was the B205mini fixed?", "B205mini fixed", [opening, reply])
    )
    text = body(answer)
    assert text.startswith("My issue was a USB 3 port"), answer
    assert "You need to plug the B205mini into a powered hub." in text
    assert "From:" not in text and "not found by uhd_find_devices" not in text


def test_a_followup_reads_the_thread_it_is_about_first() -> None:
    other = record(
        "ae0000000001", "The X310 firmware must be updated to fix the clock.", thread_id="t2"
    )
    cited = record("ae0000000002", "The B205mini was found.", thread_id="t1", doc_id="m1")
    reply = record(
        "ae0000000003", "You need to update the B205mini firmware to fix it.", thread_id="t1"
    )
    answer = compose_answer(
        AnswerRequest(
            "how was it fixed?",
            "firmware fix",
            [other, reply],
            pool=[cited],
            subject_documents=["m1"],
        )
    )
    assert body(answer).startswith("You need to update the B205mini firmware"), answer
    assert "X310" not in answer  # a one-event answer stays with its thread


def test_a_cause_followup_states_the_unsaid_probable_cause_rather_than_point_back() -> None:
    said = (
        "Although the weather was conducive to carburetor icing, the investigation was unable "
        "to determine the cause of the loss of engine power."
    )
    narrative = record(
        "c10000000001",
        f"{said} Shortly after takeoff the engine began to run rough and lost power.",
        kind="ntsb_report",
        doc_id="rec",
        section="Narrative",
    )
    cause = record(
        "c10000000002",
        "A total loss of engine power for reasons that could not be determined.",
        kind="ntsb_report",
        doc_id="rec",
        section="Probable Cause",
    )
    answer = compose_answer(
        AnswerRequest(
            "what caused it?",
            "What happened in the accident CEN12LA244? what caused it?",
            [narrative, cause],
            pool=[narrative, cause],
            said=[f"From the archive:\n\nCEN12LA244: {said} [C:c10000000001]"],
        )
    )
    assert not answer.startswith(prompts.ALREADY_SAID), answer
    assert "A total loss of engine power for reasons that could not be determined" in answer


def test_a_name_in_the_retrieved_pool_is_not_called_missing_from_the_archive() -> None:
    """The answer's passages lack "Mumbai", a record retrieved with them says it: the archive
    is not said to lack it (a name no retrieved record holds still is)."""
    top = record("ac0000000001", "The A380 overran the runway after landing in the rain.")
    pooled = record("ac0000000002", "The A380 had departed Mumbai two hours earlier.")
    asked = "Why did the A380 from Mumbai overrun?"
    kept = compose_answer(AnswerRequest(asked, asked, [top], pool=[top, pooled]))
    assert "Not in the archive" not in kept, kept
    lacking = compose_answer(AnswerRequest(asked, asked, [top], pool=[top]))
    assert lacking.startswith(prompts.NOT_FOUND.format(terms="Mumbai")), lacking
