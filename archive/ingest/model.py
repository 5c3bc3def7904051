"""What loaders produce: source documents split into sections, and the chunks cut from them."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

#: A document's kind, declared with what ingest knows of it in :mod:`archive.ingest.loaders`:
#: "email", "attachment", "ntsb_report", "casualty", "investigation_report", "thread_digest",
#: "text" (plain text, PDF, fleet lists), "beir" (an evaluation corpus), ...
DocumentKind = str
EmbeddingMode = Literal["full", "summary", "metadata_only"]


def short_id(*parts: str) -> str:
    """12 lowercase hex characters derived from ``parts``: stable across runs."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return digest[:12]


@dataclass(frozen=True)
class Section:
    """A titled span of a document's text, optionally on one PDF page."""

    name: str  # "Analysis", "Probable Cause and Findings", "body", ...
    text: str
    page: int | None = None  # 1-based page of a PDF


@dataclass(frozen=True)
class Vessel:
    """A ship named by a source, for the vessel registry."""

    name: str
    imo: str | None = None  # 7 digits
    vessel_type: str | None = None
    vessel_class: str | None = None  # classification society


@dataclass
class SourceDocument:
    """One document as a loader found it, before chunking and embedding."""

    kind: DocumentKind
    source_id: str  # natural id: NTSB number, casualty reference, Message-ID, file name
    title: str
    sections: list[Section]
    original: bytes  # the bytes archived for citations (the file, or the record as JSON)
    archive_name: str  # file name of the archived original, e.g. "ERA25LA084.pdf"
    date: date | None = None
    sender: str | None = None
    subject: str | None = None
    message_id: str | None = None
    thread_id: str | None = None  # Message-ID of the thread's root
    parent_id: str | None = None  # source_id of the containing document (attachments)
    report_no: str | None = None
    vessels: list[Vessel] = field(default_factory=list)
    embedding_mode: EmbeddingMode = "full"
    summary: str = ""  # context summary prepended in "full" mode
    #: anything else worth showing; "registration" (an aircraft's) also fills a filter column
    metadata: dict[str, str] = field(default_factory=dict)
    origin: str = ""  # the file (or "file#n" of a mailbox) it came from, for the run's report

    @property
    def doc_id(self) -> str:
        """Stable id of the document: kind and natural id."""
        return short_id(self.kind, self.source_id)

    @property
    def content_hash(self) -> str:
        """Changes whenever what would be stored changes."""
        h = hashlib.sha256()
        h.update(self.original)
        for s in self.sections:
            h.update(f"\x1e{s.name}\x1f{s.page}\x1f{s.text}".encode())
        h.update(f"\x1e{self.title}\x1f{self.summary}\x1f{self.embedding_mode}".encode())
        return h.hexdigest()


@dataclass(frozen=True)
class Chunk:
    """A retrievable passage of a document."""

    chunk_id: str  # 12 lowercase hex, stable across re-ingest
    ordinal: int  # position within the document
    section: str
    text: str
    page: int | None = None
    instructions: tuple[str, ...] = ()  # planted instructions found in it (detector pattern names)


class LoadError(Exception):
    """A file could not be read as the loader expected; the run goes on without it."""

    def __init__(self, path: Path | str, reason: str) -> None:
        shown = str(path) if str(path).isprintable() else repr(str(path))[1:-1]
        super().__init__(f"{shown}: {reason}")  # a newline in a name cannot forge a log line
        self.path = str(path)
        self.reason = reason

    def __reduce__(self) -> tuple[type[LoadError], tuple[str, str]]:
        """Pickle by path and reason (a worker process sends load errors to the writer)."""
        return (LoadError, (self.path, self.reason))
