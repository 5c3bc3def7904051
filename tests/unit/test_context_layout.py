"""What the answering model reads: citation headers, bodies by embedding mode, thread groups."""

from __future__ import annotations

from typing import Any

from answers.layout import build_context, citation_header, format_passages, passage_body
from archive.store.passages import Passage
from tests.fakes.clients import passage


def record(chunk_id: str, **fields: Any) -> Passage:
    values: dict[str, Any] = {
        "doc_id": "doc" + chunk_id[3:],
        "kind": "email",
        "source_id": "<id@x>",
        "title": "Cargo Report",
        "archive_path": "email/x/a.eml",
        **fields,
    }
    return passage(chunk_id, values.pop("text", "The passage."), **values)


def test_header_format_and_caps() -> None:
    r = record(
        "3f9a1c0b7e21",
        title="Cargo Report for the voyage Rotterdam to Singapore, second leg",
        subject='RE: Vessel Inspection "urgent" findings and the follow-up',
        date="2024-01-15",
        sender="captain@nordic.example",
        page=5,
    )
    assert citation_header(r) == (
        '[CITE:3f9a1c0b7e21 | title:"Cargo Report for the voyage Rotterdam to Singap..." | '
        "subject:\"RE: Vessel Inspection 'urgent' findin...\" | date:2024-01-15 | "
        "from:captain@nordic.example | page:5]"
    )
    assert len("Cargo Report for the voyage Rotterdam to Singap...") == 50
    assert len("RE: Vessel Inspection 'urgent' findin...") == 40
    assert "source" not in citation_header(r) and "doc" not in citation_header(r)


def test_header_omits_absent_fields() -> None:
    assert citation_header(record("3f9a1c0b7e21")) == '[CITE:3f9a1c0b7e21 | title:"Cargo Report"]'


def test_body_by_embedding_mode() -> None:
    full = record("a00000000001", summary="Voyage summary.", text="Hold 3 wet.")
    assert passage_body(full) == "Voyage summary.\n---\nHold 3 wet."
    assert passage_body(record("a00000000001", text="Hold 3 wet.")) == "Hold 3 wet."
    summary = record("a00000000001", embedding_mode="summary", summary="Only this.", text="x")
    assert passage_body(summary) == "Only this."
    meta = record(
        "a00000000001",
        embedding_mode="metadata_only",
        archive_path="att/d/plan.dwg",
        kind="attachment",
        date="2024-01-15",
        text="binary",
    )
    assert passage_body(meta) == "File: plan.dwg\nKind: attachment\nDate: 2024-01-15"


def test_thread_passages_are_grouped_under_the_root() -> None:
    records = [
        record(
            "a00000000003",
            thread_id="<t1>",
            subject="RE: Cylinder crack",
            date="2024-01-03",
            doc_id="m3",
            text="Liner replaced.",
        ),
        record("b00000000001", doc_id="r1", title="Report", text="Unrelated report."),
        record(
            "a00000000001",
            thread_id="<t1>",
            subject="Cylinder crack",
            date="2024-01-01",
            doc_id="m1",
            text="Crack found.",
        ),
    ]
    context = build_context(records)
    assert context.splitlines()[0] == "2 incidents found, 3 relevant passages total."
    assert "## Thread: Cylinder crack (2 relevant passages)" in context
    # within the thread, in date order: the crack before the repair
    assert context.index("Crack found.") < context.index("Liner replaced.")
    assert context.index("Liner replaced.") < context.index("Unrelated report.")


def test_flat_listing_for_other_agents() -> None:
    assert format_passages([]) == "No passages found."
    text = format_passages([record("a00000000001"), record("a00000000002")])
    assert text.count("[CITE:") == 2
