"""Thread digests: length, problem -> investigation -> resolution order, fields, change hash."""

from __future__ import annotations

import re
from datetime import date

import pytest

from archive.ingest.digest_text import (
    MAX_WORDS,
    MIN_WORDS,
    ThreadMessage,
    digest_document,
    digest_text,
)
from archive.ingest.digests import llm_digest_text, thread_hash
from archive.ingest.enrich import SUMMARY_CHARS
from tests.fakes.chat import ScriptedChatModel

CRACK = (
    "Good morning,\n\nDuring the scheduled inspection at Rotterdam anchorage we found a crack on "
    "the No. 3 cylinder liner of the main engine (MAN B&W 6S50MC-C). The crack runs about 40 mm "
    "from the scavenge port towards the top land. Cooling water was found in the scavenge space "
    "drain. The engine is immobilised until further notice.\n\nVessel: Nordic Star, IMO 9234567, "
    "bulk carrier.\n\nRegards,\nChief Engineer"
)
INVESTIGATION = (
    "Thanks. Please send the cooling water analysis and the liner wear measurements. Our first "
    "suspicion is thermal fatigue from repeated cold starts after the long lay-up in December; "
    "the cooling water log attached shows jacket water temperatures well below 70 C at each "
    "start. The chloride content of 45 ppm is within limits, so corrosion is unlikely. We also "
    "checked the lubricating oil feed rate on the unit and found it normal. The liner wear "
    "measured 0.4 mm, well inside the maker's limit, so wear is not the cause either."
)
RESOLUTION = (
    "The cracked No. 3 liner was replaced with the spare liner by the crew with support from the "
    "MAN service engineer. Hydrostatic test passed, engine restarted on 17 January and ran at "
    "reduced load for 24 hours without leakage. Root cause confirmed as thermal fatigue: the "
    "jacket water preheater was out of service and the engine was started cold three times. "
    "Preheater repaired; the cold-start procedure is now a checklist item. Class (DNV) attended "
    "and closed the condition of class. The old liner was sent ashore for a metallurgical "
    "examination and the spare will be reordered at the next port."
)


def _thread() -> list[ThreadMessage]:
    return [
        ThreadMessage(
            "ns-1@x", "Chief Engineer", date(2025, 1, 13), "Nordic Star - crack", 0, CRACK
        ),
        ThreadMessage(
            "tech-2@x",
            "Fleet Technical",
            date(2025, 1, 13),
            "RE: Nordic Star - crack",
            1,
            INVESTIGATION,
            ["jacket-water-log.txt"],
        ),
        ThreadMessage(
            "sup-3@x", "Superintendent", date(2025, 1, 17), "RE: Nordic Star - crack", 2, RESOLUTION
        ),
    ]


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9][\w'’.-]*", text))


def test_digest_is_200_to_400_words_problem_then_investigation_then_resolution() -> None:
    text = digest_text("Nordic Star - crack", _thread())
    assert MIN_WORDS <= _words(text) <= MAX_WORDS
    problem, investigation, resolution = (
        text.index("Problem ("),
        text.index("Investigation:"),
        text.index("Resolution ("),
    )
    assert problem < investigation < resolution
    # the problem comes from the first message, the resolution from the last
    assert text.index("found a crack on the No. 3 cylinder liner") < investigation
    assert "thermal fatigue from repeated cold starts" in text[investigation:resolution]
    assert "jacket-water-log.txt" in text[investigation:resolution]
    assert text.index("replaced with the spare liner") > resolution
    assert "Good morning" not in text and "Regards" not in text


def test_long_threads_are_cut_to_400_words() -> None:
    thread = _thread()
    thread[1].text = INVESTIGATION * 6
    thread.insert(
        2,
        ThreadMessage(
            "m@x",
            "Engineer",
            date(2025, 1, 14),
            "RE",
            2,
            INVESTIGATION.replace("liner", "unit") * 5,
        ),
    )
    assert _words(digest_text("Nordic Star - crack", thread)) <= MAX_WORDS


def test_a_closing_thanks_is_not_taken_as_the_resolution() -> None:
    thread = [
        *_thread(),
        ThreadMessage(
            "ce-4@x", "Chief Engineer", date(2025, 1, 18), "RE", 3, "Thanks, all good now!"
        ),
    ]
    text = digest_text("Nordic Star - crack", thread)
    resolution = text[text.index("Resolution (") :]
    assert resolution.startswith("Resolution (Superintendent, 2025-01-17)")
    assert "replaced with the spare liner" in resolution
    assert "The thread ends with Chief Engineer replying (2025-01-18)." in resolution


def test_a_two_message_thread_has_problem_and_resolution_only() -> None:
    thread = [_thread()[0], _thread()[2]]
    text = digest_text("Nordic Star - crack", thread)
    assert "Investigation:" not in text
    assert text.index("Problem (") < text.index("Resolution (")


def test_one_message_is_no_thread() -> None:
    with pytest.raises(ValueError):
        digest_text("x", _thread()[:1])


def test_digest_document_cites_its_messages_and_is_embedded_in_full_mode() -> None:
    doc = digest_document("ns-1@x", _thread(), thread_hash="abc")
    assert doc.kind == "thread_digest"
    assert doc.source_id == "digest:ns-1@x" and doc.thread_id == "ns-1@x"
    assert doc.embedding_mode == "full"
    assert doc.metadata["messages"] == "ns-1@x tech-2@x sup-3@x"
    assert doc.metadata["thread_hash"] == "abc"
    assert doc.date == date(2025, 1, 13) and doc.metadata["last_date"] == "2025-01-17"
    assert doc.title == "Thread digest: Nordic Star - crack"
    assert len(doc.summary) <= SUMMARY_CHARS
    assert "Problem:" in doc.summary and "Resolution:" in doc.summary
    assert doc.original.decode() == doc.sections[0].text


def test_thread_hash_changes_with_content_not_with_order() -> None:
    members = [("a" * 12, "h1"), ("b" * 12, "h2")]
    assert thread_hash(members) == thread_hash(list(reversed(members)))
    assert thread_hash(members) != thread_hash([("a" * 12, "h1"), ("b" * 12, "h3")])
    assert thread_hash(members) != thread_hash([*members, ("c" * 12, "h4")])


async def test_a_chat_model_writes_the_digest_and_a_failure_leaves_it_extractive() -> None:
    model = ScriptedChatModel.replying(
        "Problem: the No. 3 liner cracked.\n\nInvestigation: thermal fatigue suspected.\n\n"
        "Resolution: liner replaced, preheater repaired."
    )
    text = await llm_digest_text(model, _thread())
    assert text.startswith("Problem: the No. 3 liner cracked.")
    prompt = model.calls[0][0].content
    assert "Subject: Nordic Star - crack" in prompt
    assert prompt.index("Chief Engineer") < prompt.index("Superintendent")  # oldest first
    assert await llm_digest_text(ScriptedChatModel(), _thread()) == ""  # no reply: extractive
