"""Email: ``.eml`` and mbox files (maildir folders: :mod:`.maildir`), one document per message
plus one per attachment. Threads come from Message-ID / In-Reply-To / References."""

from __future__ import annotations

import email
import email.errors
import email.parser
import email.policy
import logging
import mailbox
import mimetypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage, MIMEPart
from email.utils import parseaddr
from pathlib import Path, PurePath

from archive.ingest import ocr
from archive.ingest.loaders.pdf import metadata_section, page_sections, pdf_text
from archive.ingest.mail_headers import MSGID, decoded, first_id, header_date, safe_name, unescape
from archive.ingest.mail_parts import (
    SIGNATURE_TYPES,
    SMIME_TYPES,
    attachment_text,
    mime_depth,
    part_kind,
    smime_content,
    without_pgp_armor,
)
from archive.ingest.mail_text import html_to_text, is_list_footer, strip_inline_data, strip_quotes
from archive.ingest.model import EmbeddingMode, LoadError, Section, SourceDocument, short_id
from archive.ingest.ocr import PageText, image_text
from text.storable import MAX_DEPTH

logger = logging.getLogger(__name__)

# What the stdlib parser raises on badly broken messages besides its own errors.
_PARSE_ERRORS = (email.errors.MessageError, ValueError, TypeError, LookupError, AttributeError)


# --- entry points -------------------------------------------------------------------------


def load_eml(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One message file (``.eml`` or a maildir entry): the message and its attachments."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        yield LoadError(path, f"cannot read: {err}")
        return
    yield from _documents(raw, str(path))


def load_mbox(path: Path) -> Iterator[SourceDocument | LoadError]:
    """Every message of an mbox file."""
    try:
        box = mailbox.mbox(path, create=False)
        keys = list(box.iterkeys())
    except (OSError, mailbox.Error) as err:
        yield LoadError(path, f"cannot read mbox: {err}")
        return
    try:
        for n, key in enumerate(keys, start=1):
            yield from _documents(box.get_bytes(key), f"{path}#{n}")
    finally:
        box.close()


def _documents(raw: bytes, origin: str) -> Iterator[SourceDocument | LoadError]:
    try:
        docs = parse_message(raw, origin=origin)
    except LoadError as err:
        yield err
        return
    yield from docs


# --- one message --------------------------------------------------------------------------


def parse_message(raw: bytes, *, origin: str = "<message>") -> list[SourceDocument]:
    """The message document followed by its attachment documents; LoadError if not an email."""
    if not raw.strip():
        raise LoadError(origin, "empty file, not an email message")
    if not _looks_like_headers(raw):
        raise LoadError(origin, "not an email message: the file does not start with headers")
    try:
        nesting = mime_depth(raw)
        if nesting > MAX_DEPTH:  # the stdlib parser recurses once per level
            logger.warning(
                "%s: MIME parts nested %d deep; only its headers are read", origin, nesting
            )
            msg = _headers_only(raw, nesting)
        else:
            msg = email.message_from_bytes(raw, policy=email.policy.default)
        docs = _parse(msg, raw, origin)
    except _PARSE_ERRORS as err:
        raise LoadError(origin, f"malformed email: {type(err).__name__}: {err}") from err
    for doc in docs:
        doc.origin = origin
    return docs


def _headers_only(raw: bytes, nesting: int) -> EmailMessage:
    """The message's headers with, as its body, a line saying why its parts were not read."""
    msg = email.message_from_bytes(
        raw.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0], policy=email.policy.default
    )
    assert isinstance(msg, EmailMessage)
    for name in ("Content-Type", "Content-Transfer-Encoding"):
        del msg[name]
    msg.set_content(
        f"(This message's MIME parts are nested {nesting} levels deep, past the {MAX_DEPTH} "
        "that are read; its original is archived unread.)"
    )
    return msg


def message_source_id(raw: bytes) -> str:
    """The source id :func:`parse_message` gives ``raw``, read from its headers alone."""
    msg = email.parser.BytesHeaderParser(policy=email.policy.default).parsebytes(raw)
    return _message_id({name.lower(): unescape(value) for name, value in msg.raw_items()}, raw)


def _message_id(headers: dict[str, str], raw: bytes) -> str:
    return first_id(headers.get("message-id", "")) or f"synthetic-{short_id(raw.decode('latin-1'))}"


def _parse(msg: EmailMessage, raw: bytes, origin: str) -> list[SourceDocument]:
    headers = {name.lower(): unescape(value) for name, value in msg.raw_items()}
    if not ({"from", "message-id"} & headers.keys()):
        raise LoadError(origin, "not an email message: no From or Message-ID header")
    message_id = _message_id(headers, raw)
    references = MSGID.findall(headers.get("references", ""))
    in_reply_to = first_id(headers.get("in-reply-to", ""))
    thread_id = references[0] if references else in_reply_to or message_id
    subject = decoded(headers.get("subject", "")) or "(no subject)"
    sender_text = decoded(headers.get("from", ""))
    sender_name, sender_address = parseaddr(sender_text)
    sender = sender_address or sender_text or None
    sent = header_date(headers.get("date", ""))
    parts = _split_parts(msg)
    body, inline_images = strip_inline_data(strip_quotes("\n\n".join(parts.texts)))
    body = body.strip()
    indexed, listed = _sort_attachments(parts)
    metadata = {
        "to": decoded(headers.get("to", "")),
        "in_reply_to": in_reply_to or "",
        "references": " ".join(references),
    }
    if headers.get("cc"):
        metadata["cc"] = decoded(headers["cc"])
    if sender_name:
        metadata["from_name"] = sender_name
    if inline_images:
        metadata["inline_images"] = str(inline_images)
    if listed:  # kept out of the passages, named in the message's metadata
        metadata["attachments"] = "; ".join(listed)
    doc = SourceDocument(
        kind="email",
        source_id=message_id,
        title=subject,
        subject=subject,
        sender=sender,
        date=sent,
        message_id=message_id,
        thread_id=thread_id,
        sections=[Section("body", body)] if body else [],
        original=raw,
        archive_name=safe_name(message_id, ".eml"),
        metadata={k: v for k, v in metadata.items() if v},
    )
    if not body and indexed:  # only files: the message is kept, indexed by what it carries
        names = ", ".join(name for _, name, _ in indexed)
        doc.sections = [Section("metadata", f"Message with no body text; attached: {names}")]
        doc.embedding_mode = "metadata_only"
    return [doc, *(_attachment(part, name, data, doc, origin) for part, name, data in indexed)]


def _sort_attachments(parts: _Parts) -> tuple[list[tuple[MIMEPart, str, bytes]], list[str]]:
    """(part, unique name, bytes) of the attachments to index; descriptions of those only listed
    (images, signatures: by declared type, file name or first bytes)."""
    seen: set[str] = set()
    indexed: list[tuple[MIMEPart, str, bytes]] = []
    listed = list(parts.listed)
    for part in parts.attachments:
        name = _attachment_name(part, len(seen) + 1, seen)
        data = _payload(part)
        kind = part_kind(part, name, data)
        readable_image = kind == "image" and ocr.enabled() and ocr.worth_reading_bytes(data)
        if (
            part.get_content_type() != "message/rfc822"
            and kind in ("image", "signature")
            and not readable_image
        ):
            listed.append(f"{name} ({kind}, {part.get_content_type()}, {len(data)} bytes)")
        else:
            indexed.append((part, name, data))
    return indexed, listed


def _looks_like_headers(raw: bytes) -> bool:
    """The first line is a header ("Name: value") or an mbox "From " line."""
    first = raw.lstrip(b"\r\n").split(b"\n", 1)[0]
    return first.startswith(b"From ") or re.match(rb"^[!-9;-~]+:", first) is not None


@dataclass
class _Parts:
    """A message's parts: body texts, attachments to index, and parts only listed by name."""

    texts: list[str] = field(default_factory=list)
    attachments: list[MIMEPart] = field(default_factory=list)
    listed: list[str] = field(default_factory=list)  # "smime.p7s (signature, ...)", ...


def _split_parts(msg: MIMEPart) -> _Parts:
    """Body texts (preferring text/plain among alternatives), the attachments, and signatures;
    an S/MIME signed-data part is opened and read like the entity it signs."""
    found = _Parts()
    _walk(msg, True, found)
    return found


def _walk(part: MIMEPart, text_wanted: bool, found: _Parts) -> None:
    ctype = part.get_content_type()
    if ctype == "message/rfc822":
        found.attachments.append(part)
    elif ctype in SMIME_TYPES:
        _walk_smime(part, text_wanted, found)
    elif part.is_multipart():
        children = list(part.iter_parts())
        alternative = ctype == "multipart/alternative" and children
        best = _best_alternative(children) if alternative else None
        for child in children:
            _walk(child, text_wanted and (best is None or child is best), found)
    else:
        _take_leaf(part, ctype, text_wanted, found)


def _walk_smime(part: MIMEPart, text_wanted: bool, found: _Parts) -> None:
    inner = smime_content(part)
    if inner is None:
        found.attachments.append(part)
        return
    found.listed.append(f"{part.get_filename() or 'smime.p7m'} (S/MIME signed)")
    _walk(inner, text_wanted, found)


def _take_leaf(part: MIMEPart, ctype: str, text_wanted: bool, found: _Parts) -> None:
    named = part.get_filename() or part.get_content_disposition() == "attachment"
    if ctype in SIGNATURE_TYPES:
        found.listed.append(f"{part.get_filename() or 'signature'} (signature, {ctype})")
    elif ctype in ("text/plain", "text/html") and not named:
        if text_wanted:
            text = _part_text(part)
            text = html_to_text(text) if ctype == "text/html" else without_pgp_armor(text)
            if text.strip() and not is_list_footer(text):
                found.texts.append(text)
    else:
        found.attachments.append(part)


def _best_alternative(children: list[MIMEPart]) -> MIMEPart:
    """text/plain with some text, else text/html, else the richest (last) alternative."""
    for wanted in ("text/plain", "text/html"):
        for child in children:
            if (
                child.get_content_type() == wanted
                and not child.get_filename()
                and _part_text(child).strip()
            ):
                return child
    return children[-1]


def _payload(part: MIMEPart) -> bytes:
    decoded = part.get_payload(decode=True)
    return decoded if isinstance(decoded, bytes) else part.as_bytes()


def _attachment(
    part: MIMEPart, name: str, data: bytes, parent: SourceDocument, origin: str
) -> SourceDocument:
    """An attachment's document: text by content and file name (a ``.yml`` or ``.cpp`` sent as
    ``application/octet-stream`` too), PDF pages, a forwarded message's body; else its name and
    size only."""
    ctype = part.get_content_type()
    where = f"{origin} attachment {name}"
    mode: EmbeddingMode = "full"
    payload = part.get_payload()
    inner = payload[0] if ctype == "message/rfc822" and isinstance(payload, list) else None
    if isinstance(inner, MIMEPart):  # a forwarded message: index its body text
        data = inner.as_bytes()
        sections = [Section("body", t.strip()) for t in _split_parts(inner).texts if t.strip()]
        return _attachment_document(
            parent, name, ctype, data, sections or [metadata_section(name, ctype, len(data))]
        )
    kind = part_kind(part, name, data)
    read: PageText | None = None
    try:
        if kind == "pdf":
            read = pdf_text(data, origin=where)
        elif kind == "image":
            read = image_text(data, origin=where)
        if read is not None:
            sections = page_sections(read.pages)
        elif kind == "text":
            text = attachment_text(part, name, data)
            text = html_to_text(text) if ctype == "text/html" else text
            text = strip_inline_data(text)[0].strip()
            sections = [Section("body", text)] if text else []
        else:
            sections = []
    except LoadError as err:
        logger.warning("%s; indexing its metadata only", err)
        sections = []
    if not sections:
        sections, mode = [metadata_section(name, ctype, len(data))], "metadata_only"
    document = _attachment_document(parent, name, ctype, data, sections, mode)
    document.metadata.update(read.metadata if read is not None else {})
    return document


def _attachment_document(
    parent: SourceDocument,
    name: str,
    ctype: str,
    data: bytes,
    sections: list[Section],
    mode: EmbeddingMode = "full",
) -> SourceDocument:
    return SourceDocument(
        kind="attachment",
        source_id=f"{parent.message_id}/{name}",
        title=name,
        sections=sections,
        original=data,
        archive_name=safe_name(name, ""),
        date=parent.date,
        sender=parent.sender,
        subject=parent.subject,
        message_id=parent.message_id,
        thread_id=parent.thread_id,
        parent_id=parent.source_id,
        embedding_mode=mode,
        metadata={"content_type": ctype, "size": str(len(data))},
    )


def _attachment_name(part: MIMEPart, n: int, seen: set[str]) -> str:
    """The attachment's file name (base name only), unique within its message."""
    name = PurePath((part.get_filename() or "").replace("\\", "/")).name.strip()
    if not name:
        ext = mimetypes.guess_extension(part.get_content_type()) or ".bin"
        name = f"part{n}{ext}"
    stem, dot, ext = name.rpartition(".")
    candidate, k = name, 2
    while candidate in seen:
        candidate = f"{stem}-{k}.{ext}" if dot else f"{name}-{k}"
        k += 1
    seen.add(candidate)
    return candidate


# --- text helpers -------------------------------------------------------------------------


def _part_text(part: MIMEPart) -> str:
    """A text part decoded with its charset (unknown charsets read as UTF-8 with replacement);
    NUL characters, which no text column accepts, are dropped."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes):
        return str(part.get_payload()).replace("\x00", "")
    charset = part.get_content_charset() or "utf-8"
    try:
        text = data.decode(charset, errors="replace")
    except LookupError:
        text = data.decode("utf-8", errors="replace")
    return text.replace("\x00", "")
