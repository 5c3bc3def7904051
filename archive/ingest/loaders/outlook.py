"""Outlook `.msg` files (CFB/OLE, read with extract-msg): each message is rebuilt as the RFC 822
message it stands for — headers and threading fields, the body (text, else HTML, else the HTML
or text inside its RTF), attachments with embedded `.msg` as forwarded messages — and then read
by the email loader, so threads, attachments and vessels are handled exactly as for `.eml`.
The original kept for download is the `.msg` file itself."""

from __future__ import annotations

import hashlib
import logging
import mimetypes
from collections.abc import Iterator
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import extract_msg
from extract_msg.enums import AttachmentType
from extract_msg.exceptions import ExMsgBaseException

from archive.ingest.loaders.email import parse_message
from archive.ingest.loaders.registry import Loader
from archive.ingest.mail_headers import safe_name
from archive.ingest.model import LoadError, SourceDocument
from text.storable import MAX_DEPTH

logger = logging.getLogger(__name__)

#: Transport headers carried over when the .msg kept them (threading needs the last three).
_HEADERS = ("From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "References")
#: What a damaged or foreign CFB file raises in extract-msg and the OLE reader under it.
_READ_ERRORS = (ExMsgBaseException, OSError, ValueError, KeyError, IndexError, EOFError)


def load_msg(path: Path) -> Iterator[SourceDocument | LoadError]:
    """The message and attachment documents of one `.msg` file, or its LoadError."""
    try:
        original = path.read_bytes()
        msg = extract_msg.openMsg(original, delayAttachments=False)
    except _READ_ERRORS as err:
        yield LoadError(path, f"not a readable Outlook .msg file: {type(err).__name__}: {err}")
        return
    try:
        rebuilt = rfc822(msg)
        if not rebuilt["Message-ID"]:  # Outlook keeps drafts and some exports without one
            rebuilt["Message-ID"] = f"<{hashlib.sha256(original).hexdigest()[:32]}@outlook.msg>"
        raw = rebuilt.as_bytes(policy=default)
    except _READ_ERRORS as err:
        yield LoadError(path, f"unreadable Outlook message: {type(err).__name__}: {err}")
        return
    finally:
        msg.close()
    try:
        documents = parse_message(raw, origin=str(path))
    except LoadError as err:
        yield err
        return
    message = documents[0]
    message.original = original
    message.archive_name = safe_name(message.message_id or path.stem, ".msg")
    message.metadata["format"] = "outlook-msg"
    yield from documents


def rfc822(msg: Any, depth: int = 0) -> EmailMessage:
    """``msg`` (an extract-msg Message) as an email message; embedded messages nest up to
    :data:`MAX_DEPTH` (deeper ones are listed by name only)."""
    out = EmailMessage(policy=default)
    transport = msg.header
    for name in _HEADERS:
        value = _header(msg, transport, name)
        if value:
            out[name] = value.replace("\r", " ").replace("\n", " ")
    body, subtype = _body(msg)
    out.set_content(body, subtype=subtype)
    for attachment in msg.attachments:
        _attach(out, attachment, depth)
    return out


def _header(msg: Any, transport: Any, name: str) -> str:
    own = {
        "From": msg.sender,
        "To": msg.to,
        "Cc": msg.cc,
        "Subject": msg.subject,
        "Date": _date(msg.date),
        "Message-ID": msg.messageId,
        "In-Reply-To": getattr(msg, "inReplyTo", None),
    }.get(name)
    if own:
        return str(own)
    return str(transport.get(name) or "") if transport is not None else ""


def _date(value: Any) -> str | None:
    return format_datetime(value) if isinstance(value, datetime) and value.tzinfo else None


def _body(msg: Any) -> tuple[str, str]:
    """The body as (text, subtype): the plain text, else the HTML, else what the RTF holds."""
    if msg.body and msg.body.strip():
        return msg.body, "plain"
    html = _html(msg)
    if html:
        return html, "html"
    return "", "plain"


def _html(msg: Any) -> str:
    try:
        html = msg.htmlBody
    except _READ_ERRORS as err:  # an RTF body that does not de-encapsulate
        logger.warning("Outlook message %r: no HTML body (%s)", msg.subject, err)
        return ""
    if isinstance(html, bytes):
        return html.decode("utf-8", "replace")
    return html or ""


def _attach(out: EmailMessage, attachment: Any, depth: int) -> None:
    name = attachment.longFilename or attachment.shortFilename or attachment.name or "attachment"
    if attachment.type == AttachmentType.MSG and depth < MAX_DEPTH:
        inner = rfc822(attachment.data, depth + 1)
        out.add_attachment(inner, filename=f"{Path(name).stem or 'message'}.eml")
        return
    data = attachment.data
    if not isinstance(data, bytes | bytearray):
        logger.warning(
            "Outlook attachment %r of type %s: listed by name only", name, attachment.type
        )
        data = b""
    mime = attachment.mimetype or mimetypes.guess_type(name)[0] or "application/octet-stream"
    maintype, _, subtype = mime.partition("/")
    subtype = subtype or "octet-stream"
    out.add_attachment(bytes(data), maintype=maintype, subtype=subtype, filename=name)


LOADERS = (Loader("outlook_msg", load_msg, kinds=("email", "attachment"), suffixes=(".msg",)),)
