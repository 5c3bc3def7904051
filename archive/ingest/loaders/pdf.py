"""PDF text, page by page, and the loader for a standalone PDF file."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from archive.ingest import ocr
from archive.ingest.loaders import REGISTRY
from archive.ingest.loaders.registry import Loader
from archive.ingest.model import EmbeddingMode, LoadError, Section, SourceDocument
from archive.ingest.ocr import PageText

logger = logging.getLogger(__name__)

# What pypdf raises on damaged input besides its own errors.
_PDF_ERRORS = (
    PyPdfError,
    ValueError,
    TypeError,
    LookupError,
    AttributeError,
    OSError,
    RecursionError,
    AssertionError,
    ZeroDivisionError,
)


def pdf_pages(data: bytes, *, origin: str = "<pdf>") -> list[str]:
    """The text of every page, in order (:func:`pdf_text` without its OCR record)."""
    return pdf_text(data, origin=origin).pages


def pdf_text(data: bytes, *, origin: str = "<pdf>") -> PageText:
    """The text layer of every page, pages without one read by OCR (:mod:`ocr`); LoadError for
    a corrupt or locked PDF."""
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise LoadError(origin, "encrypted PDF (a password is needed)")
        pages = [(page.extract_text() or "").replace("\x00", "") for page in reader.pages]
    except LoadError:
        raise
    except _PDF_ERRORS as err:
        raise LoadError(origin, f"unreadable PDF: {type(err).__name__}: {err}") from err
    return ocr.fill_blank_pages(data, pages, origin=origin)


def page_sections(pages: list[str]) -> list[Section]:
    """A Section named "Page N" for each page with text."""
    return [
        Section(name=f"Page {n}", text=text.strip(), page=n)
        for n, text in enumerate(pages, start=1)
        if text.strip()
    ]


def metadata_section(name: str, content_type: str, size: int) -> Section:
    """The one Section of a file indexed by its metadata only."""
    return Section(name="metadata", text=f"File {name}, type {content_type}, {size:,} bytes")


def load_pdf_file(path: Path) -> Iterator[SourceDocument | LoadError]:
    """A standalone PDF: the document a registered page reader recognises in its pages (an NTSB
    final report), else a ``text`` document."""
    try:
        data = path.read_bytes()
        read = pdf_text(data, origin=str(path))
    except OSError as err:
        yield LoadError(path, f"cannot read: {err}")
        return
    except LoadError as err:
        yield err
        return
    pages = read.pages
    reader = REGISTRY.page_reader(pages) if pages else None
    if reader is not None:
        found = reader.read(pages, data, path.name, path.stem)
        found.metadata.update(read.metadata)
        yield found
        return
    sections = page_sections(pages)
    mode: EmbeddingMode = "full"
    if not sections:
        logger.info("%s has no extractable text; indexing its metadata only", path)
        sections = [metadata_section(path.name, "application/pdf", len(data))]
        mode = "metadata_only"
    yield SourceDocument(
        kind="text",
        source_id=path.name,
        title=path.stem,
        sections=sections,
        original=data,
        archive_name=path.name,
        embedding_mode=mode,
        metadata={"pages": str(len(pages)), "content_type": "application/pdf", **read.metadata},
    )


LOADERS = (Loader("pdf", load_pdf_file, kinds=("text", "ntsb_report"), suffixes=(".pdf",)),)
