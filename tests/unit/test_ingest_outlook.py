"""Outlook .msg files: real ones read through extract-msg; the rebuilt message keeps the
threading fields and nests embedded messages; a damaged file is one clear LoadError."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from extract_msg.enums import AttachmentType

from archive.ingest.discover import load_paths
from archive.ingest.loaders.email import parse_message
from archive.ingest.loaders.outlook import load_msg, rfc822
from archive.ingest.model import LoadError, SourceDocument
from tests.scans import tesseract_installed


def test_real_msg_files_become_messages_with_their_originals(shared_data: Path) -> None:
    folder = shared_data / "email" / "outlook-msg"
    loaded = list(load_paths([folder]))
    assert not [x for x in loaded if isinstance(x, LoadError)]
    by_title = {d.title: d for d in loaded if isinstance(d, SourceDocument)}
    tif = by_title["Test for TIF files"]
    assert tif.kind == "email" and tif.sender == "brizhou@gmail.com"
    assert str(tif.date) == "2013-11-18"
    assert tif.source_id == "CADtJ4eNjQSkGcBtVteCiTF+YFG89+AcHxK3QZ=-Mt48xygkvdQ@mail.gmail.com"
    assert tif.original == (folder / "unicode.msg").read_bytes()  # the .msg is what downloads
    assert tif.archive_name.endswith(".msg")
    if tesseract_installed():  # a screenshot attached: read by OCR (else listed by name)
        screenshot = by_title["raised value error.tif"]
        assert screenshot.parent_id == tif.source_id and screenshot.metadata["ocr_pages"] == "1"
        assert "Refactoring" in screenshot.sections[0].text and screenshot.sections[0].page == 1
    else:
        assert "raised value error.tif" in tif.metadata["attachments"]
    odd = by_title["MSG Test File"]  # no sender, no date, no Message-ID: still a message
    assert odd.source_id.endswith("@outlook.msg") and odd.date is None
    assert "Example content" in odd.sections[0].text
    again = [d for d in load_paths([folder / "strangeDate.msg"]) if isinstance(d, SourceDocument)]
    assert again[0].source_id == odd.source_id  # stable across re-ingest


@dataclass
class _Attachment:
    longFilename: str
    data: Any
    type: AttachmentType = AttachmentType.DATA
    mimetype: str | None = None
    shortFilename: str | None = None
    name: str | None = None


@dataclass
class _Msg:
    """The fields of extract-msg's Message that the rebuild reads."""

    subject: str
    body: str
    sender: str | None = "Chief Engineer <chief@nordic-star.example>"
    to: str | None = "superintendent@fleet.example"
    cc: str | None = None
    date: datetime | None = datetime(2024, 1, 15, 9, 30, tzinfo=UTC)
    messageId: str | None = "<re-1@nordic-star.example>"
    inReplyTo: str | None = None
    header: Message | None = None
    htmlBody: bytes | None = None
    attachments: list[_Attachment] = field(default_factory=list)


def test_threading_fields_and_embedded_messages_survive_the_rebuild() -> None:
    transport = Message()
    transport["References"] = "<root@fleet.example> <q-2@fleet.example>"
    forwarded = _Msg(
        "Liner inspection report",
        "Crack found on cylinder 3 liner.",
        messageId="<inner@yard.example>",
    )
    msg = _Msg(
        "RE: Cylinder liner crack",
        "Replaced the liner; engine tested at full load.",
        inReplyTo="<q-2@fleet.example>",
        header=transport,
        attachments=[
            _Attachment("survey.txt", b"Hatch cover seals renewed.", mimetype="text/plain"),
            _Attachment("yard report.msg", forwarded, type=AttachmentType.MSG),
        ],
    )
    docs = parse_message(rfc822(msg).as_bytes())
    message, *attachments = docs
    assert message.thread_id == "root@fleet.example"  # References' first id, as for .eml
    assert message.metadata["in_reply_to"] == "q-2@fleet.example"
    assert message.subject == "RE: Cylinder liner crack" and str(message.date) == "2024-01-15"
    by_name = {a.title: a for a in attachments}
    assert "Hatch cover seals" in by_name["survey.txt"].sections[0].text
    inner = by_name["yard report.eml"]
    assert inner.parent_id == message.source_id
    assert "Crack found on cylinder 3 liner" in inner.sections[0].text


def test_an_html_only_message_keeps_its_text() -> None:
    msg = _Msg("Bunker survey", "", htmlBody=b"<p>Bunker <b>survey</b> done at Rotterdam</p>")
    (message,) = parse_message(rfc822(msg).as_bytes())
    assert "Bunker survey done at Rotterdam" in message.sections[0].text


@pytest.mark.parametrize(
    "content", [b"", b"not an OLE file at all", b"\xd0\xcf\x11\xe0" + b"\0" * 600]
)
def test_a_damaged_msg_is_one_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "broken.msg"
    path.write_bytes(content)
    (error,) = list(load_msg(path))
    assert isinstance(error, LoadError) and "Outlook" in error.reason
