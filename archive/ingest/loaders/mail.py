"""Mail: the ``email`` and ``attachment`` kinds, and their ``.eml`` and mbox formats (parsed by
:mod:`.email`; maildir folders: :mod:`.maildir`). Every mail format yields these two kinds, so
threads, digests and the answer side treat all mail alike."""

from __future__ import annotations

import re
from pathlib import Path

from archive.ingest.enrich import (
    SUMMARY_CHARS,
    body_sentences,
    clean_subject,
    clip,
    display_sender,
    fill,
)
from archive.ingest.loaders.email import load_eml, load_mbox
from archive.ingest.loaders.registry import Kind, Loader
from archive.ingest.model import SourceDocument

#: An mbox's first line: "From sender Fri Jul  8 12:08:34 2011".
MBOX_FROM = re.compile(rb"^From \S+ +\S.*\d\d:\d\d")


def count_mbox(path: Path) -> int:
    """Messages in an mbox file (its "From " lines), for a progress bar."""
    with path.open("rb") as handle:
        return max(1, sum(1 for line in handle if MBOX_FROM.match(line)))


def _email_header(doc: SourceDocument) -> str:
    when = f" on {doc.date.isoformat()}" if doc.date else ""
    subject = clean_subject(doc.subject or doc.title)
    return f'Email from {display_sender(doc)}{when} about "{subject}".'


def _attachment_header(doc: SourceDocument) -> str:
    when = f" on {doc.date.isoformat()}" if doc.date else ""
    subject = clean_subject(doc.subject or doc.title)
    ctype = doc.metadata.get("content_type", "file")
    return f'Attachment {doc.title} ({ctype}) of the email{when} about "{subject}".'


KINDS = (
    Kind(
        "email",
        summary=lambda doc: fill(_email_header(doc), body_sentences(doc)),
        header=_email_header,
        model_summary=True,
        vessel_mentions=True,
    ),
    Kind(
        "attachment",
        summary=lambda doc: clip(_attachment_header(doc), SUMMARY_CHARS),
        header=_attachment_header,
        vessel_mentions=True,
    ),
)
LOADERS = (
    Loader("eml", load_eml, kinds=("email", "attachment"), suffixes=(".eml",)),
    Loader(
        "mbox",
        load_mbox,
        kinds=("email", "attachment"),
        suffixes=(".mbox",),
        names=("mbox",),
        first_bytes=MBOX_FROM,
        count=count_mbox,
    ),
)
