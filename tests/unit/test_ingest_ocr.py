"""OCR with the real Tesseract: a scanned NTSB final report reads as the original does, page by
page; an image attachment large enough to hold text is read, a logo is not; a page OCR cannot
read is reported; with Tesseract off, the pages are said to be unread."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from PIL import Image

from archive.ingest import ocr
from archive.ingest.loaders.email import parse_message
from archive.ingest.loaders.pdf import load_pdf_file
from archive.ingest.model import SourceDocument
from tests.scans import page_image, scanned_pdf, tesseract_installed

pytestmark = pytest.mark.skipif(
    not tesseract_installed(), reason="tesseract-ocr is not installed (.ci/run installs it)"
)
REPORT = "CEN25LA067"  # its probable cause is on page 2


@pytest.fixture
def report_pdf(shared_data: Path) -> bytes:
    return (shared_data / "ntsb" / "final_reports" / "pdf" / f"{REPORT}.pdf").read_bytes()


@pytest.fixture(autouse=True)
def _ocr_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """OCR as the environment has it by default, before and after each test (``enabled`` is
    decided once per process)."""
    monkeypatch.delenv("BOSUN_OCR", raising=False)
    ocr.enabled.cache_clear()
    yield
    ocr.enabled.cache_clear()


def test_a_scanned_final_report_reads_like_its_original(tmp_path: Path, report_pdf: bytes) -> None:
    scan = tmp_path / f"{REPORT}-scan.pdf"
    scan.write_bytes(scanned_pdf(report_pdf, pages=2))
    (doc,) = list(load_pdf_file(scan))
    assert isinstance(doc, SourceDocument)
    assert doc.kind == "ntsb_report" and doc.report_no == REPORT
    assert doc.metadata["ocr_pages"] == "1,2"
    cause = next(s for s in doc.sections if s.name == "Probable Cause and Findings")
    assert cause.page == 2 and "probable cause" in cause.text.lower()


def test_an_image_attachment_with_text_is_read_and_a_logo_is_not(report_pdf: bytes) -> None:
    message = EmailMessage()
    message["From"] = "captain@nordic-star.example"
    message["Message-ID"] = "<scan-1@nordic-star.example>"
    message["Subject"] = "RE: accident report copy"
    message.set_content("Photo of the report attached.")
    photo_png = page_image(report_pdf, 2)
    message.add_attachment(photo_png, maintype="image", subtype="png", filename="report-photo.png")
    logo = io.BytesIO()
    Image.new("L", (120, 40), 255).save(logo, format="PNG")
    message.add_attachment(logo.getvalue(), maintype="image", subtype="png", filename="logo.png")
    email_doc, *attachments = parse_message(message.as_bytes())
    (photo,) = attachments
    assert photo.title == "report-photo.png" and photo.metadata["ocr_pages"] == "1"
    assert "probable cause" in photo.sections[0].text.lower() and photo.sections[0].page == 1
    assert "logo.png (image" in email_doc.metadata["attachments"]  # listed, not read


def test_a_page_ocr_cannot_read_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blank = io.BytesIO()
    Image.new("L", (1700, 2200), 255).save(blank, format="PDF", resolution=200)
    path = tmp_path / "blank-scan.pdf"
    path.write_bytes(blank.getvalue())
    with caplog.at_level(logging.WARNING):
        (doc,) = list(load_pdf_file(path))
    assert isinstance(doc, SourceDocument)
    assert doc.metadata["ocr_unread_pages"] == "1" and doc.embedding_mode == "metadata_only"
    assert "no readable text on pages [1]" in caplog.text


def test_with_ocr_off_the_unread_pages_are_recorded(
    tmp_path: Path, report_pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_OCR", "off")
    ocr.enabled.cache_clear()
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scanned_pdf(report_pdf, pages=1))
    (doc,) = list(load_pdf_file(scan))
    assert isinstance(doc, SourceDocument)
    assert doc.metadata["ocr_unread_pages"] == "1" and "ocr_pages" not in doc.metadata
