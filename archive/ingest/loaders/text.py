"""Plain text and Markdown files that no specific loader claims, and the ``text`` kind (also
that of PDFs and fleet lists)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from archive.ingest.loaders.registry import Kind, Loader
from archive.ingest.model import LoadError, Section, SourceDocument

logger = logging.getLogger(__name__)


def read_text(path: Path) -> tuple[bytes, str]:
    """The bytes and decoded text of a file (UTF-8, else Latin-1); LoadError for binary data."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise LoadError(path, f"cannot read: {err}") from err
    if b"\x00" in data[:8192]:
        raise LoadError(path, "binary content (NUL bytes) in a text file")
    try:
        return data, data.decode("utf-8-sig")
    except UnicodeDecodeError:
        logger.info("%s is not UTF-8; reading it as Latin-1", path)
        return data, data.decode("latin-1")


def load_text_file(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One ``text`` document with a single "body" section; Markdown titles come from "# "."""
    try:
        data, text = read_text(path)
    except LoadError as err:
        yield err
        return
    yield text_document(path.name, text, original=data)


def text_document(name: str, text: str, *, original: bytes) -> SourceDocument:
    """The document of a text file called ``name``."""
    title = name
    if name.lower().endswith(".md"):
        heading = next((ln for ln in text.splitlines() if ln.startswith("# ")), None)
        title = heading[2:].strip() if heading else name
    body = text.replace("\r\n", "\n").strip()
    return SourceDocument(
        kind="text",
        source_id=name,
        title=title,
        sections=[Section("body", body)] if body else [],
        original=original,
        archive_name=name,
    )


KINDS = (Kind("text", model_summary=True, vessel_mentions=True),)
#: Tests no content, so a ``.txt`` that an NTSB or TAIC loader takes never gets here.
LOADERS = (Loader("text", load_text_file, kinds=("text",), suffixes=(".txt", ".md")),)
