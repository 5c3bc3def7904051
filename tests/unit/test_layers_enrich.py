"""Ingest enrichment: context summaries per kind and the embedding-mode rules."""

from __future__ import annotations

from datetime import date
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult

from archive.ingest.chunking import chunk_document
from archive.ingest.enrich import (
    SUMMARY_CHARS,
    clean_subject,
    context_summary,
    embedding_mode,
    enrich,
    informative_sentences,
    llm_enricher,
    strip_quoted,
)
from archive.ingest.loaders.casualties import casualty_document
from archive.ingest.loaders.ntsb import record_document
from archive.ingest.model import Section, SourceDocument, Vessel
from archive.ingest.writer import embedding_text, reads_as_text
from tests.fakes.chat import ScriptedChatModel


def _email(body: str, **fields: Any) -> SourceDocument:
    values: dict[str, Any] = {
        "kind": "email",
        "source_id": "m1@x",
        "title": "RE: [Fleet] Crack on No. 3 liner",
        "subject": "RE: [Fleet] Crack on No. 3 liner",
        "sender": "ce@nordicstar.example",
        "date": date(2025, 1, 13),
        "sections": [Section("body", body)],
        "original": b"x",
        "archive_name": "m1.eml",
        "metadata": {"from_name": "Chief Engineer via Fleet-list"},
    }
    values.update(fields)
    return SourceDocument(**values)


def test_email_summary_names_sender_date_subject_and_first_informative_sentence() -> None:
    doc = _email(
        "Good morning,\n\nThanks.\n\nDuring the inspection at Rotterdam we found a crack on the"
        " No. 3 cylinder liner. Cooling water was found in the scavenge drain.\n\nRegards,\nCE"
    )
    summary = context_summary(doc)
    assert summary.startswith(
        'Email from Chief Engineer on 2025-01-13 about "Crack on No. 3 liner". During the'
        " inspection at Rotterdam we found a crack on the No. 3 cylinder liner."
    )
    assert "Good morning" not in summary and "Thanks" not in summary
    assert len(summary) <= SUMMARY_CHARS


def test_summaries_are_capped_at_a_word_boundary() -> None:
    doc = _email("The engine " + "stopped again after the repair " * 40 + ".")
    summary = context_summary(doc)
    assert len(summary) <= SUMMARY_CHARS
    assert summary.endswith("…")


def test_subjects_lose_reply_prefixes_and_list_tags() -> None:
    assert clean_subject("Re: RE: [USRP-users] Re: X310 drops packets") == "X310 drops packets"
    assert clean_subject("Fwd: Hatch seals") == "Hatch seals"
    assert clean_subject("") == "(no subject)"


def test_greetings_thanks_and_code_are_not_informative() -> None:
    text = (
        "Hi all,\n\nThanks in advance!\n\nx = foo(0x1f, [1,2,3]); y++; // 42\n\n"
        "The B210 drops samples at 61.44 MS/s."
    )
    assert informative_sentences(text) == ["The B210 drops samples at 61.44 MS/s."]


def test_attachment_summary_names_file_type_and_parent_subject() -> None:
    doc = SourceDocument(
        kind="attachment",
        source_id="m1@x/log.txt",
        title="jacket-water-log.txt",
        subject="RE: Nordic Star - crack found",
        sections=[Section("body", "41 C at start")],
        original=b"41 C",
        archive_name="log.txt",
        date=date(2025, 1, 13),
        metadata={"content_type": "text/plain"},
    )
    summary = enrich(doc).summary
    assert "jacket-water-log.txt (text/plain)" in summary
    assert '"Nordic Star - crack found"' in summary


def test_metadata_only_documents_stay_metadata_only() -> None:
    doc = SourceDocument(
        kind="attachment",
        source_id="m1@x/photo.jpg",
        title="photo.jpg",
        subject="Crack",
        sections=[Section("metadata", "photo.jpg image/jpeg 2 MB")],
        original=b"\xff",
        archive_name="photo.jpg",
        embedding_mode="metadata_only",
        metadata={"content_type": "image/jpeg"},
    )
    assert enrich(doc).embedding_mode == "metadata_only"


def test_ntsb_record_summary_is_title_and_probable_cause() -> None:
    doc = record_document(
        {
            "ntsb_no": "CEN22LA359",
            "event_date": "2022-08-01",
            "city": "Austin",
            "state": "Texas",
            "make": "Cessna",
            "model": "172",
            "narrative": "The pilot reported a loss of power.",
            "probable_cause": "The pilot's failure to maintain airspeed, which led to a stall.",
        }
    )
    enriched = enrich(doc)
    assert enriched.summary == (
        "CEN22LA359 2022-08-01 Austin, Texas Cessna 172. Probable cause: The pilot's failure to"
        " maintain airspeed, which led to a stall."
    )
    assert enriched.embedding_mode == "full"


def test_final_report_summary_takes_the_probable_cause_statement() -> None:
    doc = SourceDocument(
        kind="ntsb_report",
        source_id="ERA25LA084",
        title="ERA25LA084 Ocala, Florida Piper PA-28",
        sections=[
            Section("Analysis", "The airplane landed long."),
            Section(
                "Probable Cause and Findings",
                "The National Transportation Safety Board determines the probable cause(s) of"
                " this accident to be: The pilot's improper landing flare. Findings Personnel"
                " issues Aircraft control - Pilot",
            ),
        ],
        original=b"%PDF",
        archive_name="ERA25LA084.pdf",
        metadata={"source": "final_report"},
    )
    assert context_summary(doc) == (
        "ERA25LA084 Ocala, Florida Piper PA-28. Probable cause: The pilot's improper landing flare."
    )


def test_a_metadata_line_title_is_left_out_of_the_embedding_text() -> None:
    report = enrich(
        record_document(
            {
                "ntsb_no": "ANC10CA015",
                "event_date": "2010-01-23",
                "city": "Nightmute",
                "state": "Alaska",
                "make": "CESSNA",
                "model": "172H",
                "narrative": "While taxiing for departure, a wind gust lifted the left wing.",
            }
        )
    )
    email = enrich(_email("The cooling water pump seized on the way to Rotterdam."))
    (report_chunk,) = chunk_document(report)
    (email_chunk,) = chunk_document(email)
    assert embedding_text(report, report_chunk) == report_chunk.text
    assert embedding_text(email, email_chunk) == f"{email.title}\n{email_chunk.text}"
    assert reads_as_text("Re: X310 fan") and reads_as_text("Engine Room Fire Aboard")
    assert reads_as_text("RAD52 Facilitates Mitotic DNA Synthesis")  # a title-case headline
    assert not reads_as_text("ERA22LA175 Valdosta, GA Piper PA-28")


def _casualty(summary_of_events: str = "") -> SourceDocument:
    return casualty_document(
        {
            "Reference": "C0001",
            "ShipsInvolved": "PIONEER SEA (IMO 1234567)",
            "FlagStates": "PAN",
            "TypeOfCasualty": "Serious",
            "IncidentDateTime": "2004-03-01 00:00",
            "Location": "North Sea",
            "ShipType1": "Bulk carrier",
            "InitialEvent": "Collision",
            "Consequences1": "Total loss of the ship",
            "SummaryOfEvents": summary_of_events,
        }
    )


def test_casualty_without_narrative_is_embedded_as_its_one_line_summary() -> None:
    enriched = enrich(_casualty())
    assert enriched.embedding_mode == "summary"
    assert enriched.summary.startswith(
        "PIONEER SEA (Bulk carrier): serious casualty, collision, on 2004-03-01, at North Sea."
    )
    assert "Total loss of the ship" in enriched.summary  # the facts the context still needs


def test_casualty_with_narrative_is_full() -> None:
    enriched = enrich(_casualty("The ship collided with a fishing vessel in fog at night."))
    assert enriched.embedding_mode == "full"
    assert enriched.summary == (
        "PIONEER SEA (Bulk carrier): serious casualty, collision, on 2004-03-01, at North Sea."
    )


def test_an_existing_summary_is_kept_and_digests_are_full() -> None:
    digest = SourceDocument(
        kind="thread_digest",
        source_id="digest:t1",
        title="Thread digest: Crack",
        sections=[Section("digest", "Problem: ... Resolution: ...")],
        original=b"d",
        archive_name="digest.txt",
        summary="Email thread about the crack.",
    )
    enriched = enrich(digest)
    assert enriched.summary == "Email thread about the crack."
    assert enriched.embedding_mode == "full"
    assert embedding_mode(_email("The liner cracked at the scavenge port.")) == "full"


def test_investigation_report_summary_is_its_title() -> None:
    doc = SourceDocument(
        kind="investigation_report",
        source_id="2010_201",
        title="Report 10-201: Grounding of X",
        sections=[Section("Report", "Text.")],
        original=b"t",
        archive_name="2010_201.txt",
        vessels=[Vessel("X")],
    )
    assert context_summary(doc) == "Report 10-201: Grounding of X"


class _Failing(BaseChatModel):
    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        raise TimeoutError("provider down")

    @property
    def _llm_type(self) -> str:
        return "failing"


def test_llm_enricher_uses_the_models_summary_and_falls_back_offline() -> None:
    doc = _email("The No. 3 liner cracked near the scavenge port during inspection.")
    model = ScriptedChatModel.replying("  Chief engineer reports a cracked No. 3 liner.  ")
    assert llm_enricher(model)(doc).summary == "Chief engineer reports a cracked No. 3 liner."
    assert "cracked near the scavenge port" in model.calls[0][0].content
    assert llm_enricher(_Failing())(doc).summary == context_summary(doc)


def test_a_top_posted_reply_loses_the_quoted_message() -> None:
    reply = (
        "Setting the target with -t N310_XG fixed it.\n\nFrom: Martin Braun <m@ettus.example>\n"
        "Sent: Wednesday, 12 February 2025 15:38\nSubject: Re: N300 image\n\nconfirm this is a bug."
    )
    assert informative_sentences(reply) == ["Setting the target with -t N310_XG fixed it."]
    assert strip_quoted("From: A <a@x> Sent: Monday Subject: fwd\n\nThe forwarded report.") == (
        "From: A <a@x> Sent: Monday Subject: fwd\n\nThe forwarded report."
    )
