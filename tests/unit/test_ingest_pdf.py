"""PDF text per page, corrupt PDFs, standalone PDFs and PDFs attached to email."""

from __future__ import annotations

import io
from email.message import EmailMessage
from pathlib import Path

import pytest
from pypdf import PdfWriter

from archive.ingest.discover import load_paths
from archive.ingest.loaders.email import parse_message
from archive.ingest.loaders.pdf import load_pdf_file, page_sections, pdf_pages
from archive.ingest.model import LoadError, SourceDocument


def make_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF written by hand: one Helvetica text line per string, per page."""
    count = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, lines in enumerate(pages):
        ops = "".join(f"({line}) Tj 0 -16 Td " for line in lines)
        stream = f"BT /F1 12 Tf 72 720 Td {ops}ET".encode()
        bodies.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode()
        )
        bodies.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(bodies) + 1,
        xref,
    )
    return bytes(out)


TWO_PAGES = make_pdf([["Engine room inspection"], ["Cylinder 3 liner cracked"]])


def test_hand_written_pdf_is_read_page_by_page() -> None:
    sections = page_sections(pdf_pages(TWO_PAGES))
    assert [(s.name, s.page, s.text) for s in sections] == [
        ("Page 1", 1, "Engine room inspection"),
        ("Page 2", 2, "Cylinder 3 liner cracked"),
    ]


@pytest.mark.parametrize("data", [TWO_PAGES[: len(TWO_PAGES) // 3], b"%PDF-1.4\ngarbage", b""])
def test_corrupt_pdf_raises_load_error(data: bytes) -> None:
    with pytest.raises(LoadError, match="unreadable PDF"):
        pdf_pages(data, origin="broken.pdf")


def test_encrypted_pdf_raises_load_error() -> None:
    writer = PdfWriter()
    writer.add_blank_page(width=72, height=72)
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    with pytest.raises(LoadError, match="encrypted PDF"):
        pdf_pages(buffer.getvalue())


def test_standalone_pdf_and_corrupt_pdf_in_one_walk(tmp_path: Path) -> None:
    (tmp_path / "inspection.pdf").write_bytes(TWO_PAGES)
    (tmp_path / "truncated.pdf").write_bytes(TWO_PAGES[:200])

    results = list(load_paths([tmp_path]))
    doc, error = results
    assert isinstance(doc, SourceDocument) and isinstance(error, LoadError)
    assert (doc.kind, doc.source_id, doc.archive_name) == (
        "text",
        "inspection.pdf",
        "inspection.pdf",
    )
    assert [s.page for s in doc.sections] == [1, 2]
    assert doc.original == TWO_PAGES
    assert error.path.endswith("truncated.pdf")
    assert "unreadable PDF" in error.reason


def test_pdf_without_text_is_metadata_only(tmp_path: Path) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(make_pdf([[]]))
    (doc,) = list(load_pdf_file(path))
    assert isinstance(doc, SourceDocument)
    assert doc.embedding_mode == "metadata_only"
    assert doc.sections[0].text.startswith("File scan.pdf, type application/pdf")


def test_pdf_attachment_becomes_page_sections() -> None:
    msg = EmailMessage()
    msg["From"] = "surveyor@class.example"
    msg["Subject"] = "Survey report"
    msg["Date"] = "Thu, 18 Jan 2024 10:00:00 +0000"
    msg["Message-ID"] = "<survey-1@class.example>"
    msg["References"] = "<root@fleet.example>"
    msg.set_content("Report attached.")
    msg.add_attachment(TWO_PAGES, maintype="application", subtype="pdf", filename="survey.pdf")
    msg.add_attachment(b"broken", maintype="application", subtype="pdf", filename="bad.pdf")

    message, survey, broken = parse_message(msg.as_bytes())
    assert message.sections[0].text == "Report attached."
    assert survey.kind == "attachment"
    assert survey.source_id == "survey-1@class.example/survey.pdf"
    assert (survey.parent_id, survey.thread_id) == ("survey-1@class.example", "root@fleet.example")
    assert [(s.page, s.text) for s in survey.sections] == [
        (1, "Engine room inspection"),
        (2, "Cylinder 3 liner cracked"),
    ]
    assert survey.original == TWO_PAGES
    assert broken.embedding_mode == "metadata_only"  # unreadable: kept by its metadata
