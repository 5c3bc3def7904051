"""Email: ``.eml`` files, mbox files and maildir folders, one document per message plus one per
attachment. Threads come from Message-ID / In-Reply-To / References."""

from __future__ import annotations

import email
import email.errors
import email.policy
import logging
import mailbox
import mimetypes
import os
import re
from collections.abc import Iterator
from datetime import date
from email.header import decode_header, make_header
from email.message import EmailMessage, MIMEPart
from email.utils import parseaddr, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path, PurePath

from archive.ingest.model import EmbeddingMode, LoadError, Section, SourceDocument, short_id
from archive.ingest.pdf import metadata_section, pdf_sections

logger = logging.getLogger(__name__)

# What the stdlib parser raises on badly broken messages besides its own errors.
_PARSE_ERRORS = (email.errors.MessageError, ValueError, TypeError, LookupError, AttributeError)
_SIGNATURES = frozenset(
    {"application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature"}
)
_MSGID = re.compile(r"<([^<>\s]+)>")
_ATTRIBUTION_START = re.compile(r"^(On|Am|El|Le|Il|Em|Den)\b")  # "On <date>, <who> wrote:"
_ATTRIBUTION_END = re.compile(r"\b(wrote|schrieb|escribió|a écrit|ha scritto|skrev)\s?:\s*$")
_FOOTER = re.compile(  # "____\nX mailing list -- x@lists\nTo unsubscribe ...", anywhere
    r"^[ \t]*_{10,}[ \t]*\n[^\n]*mailing list\b[^\n]*(?:\n[ \t]*To unsubscribe[^\n]*)?$",
    re.MULTILINE | re.IGNORECASE,
)
_OUTLOOK_CUT = re.compile(r"^-{3,}\s*Original Message\s*-{3,}\s*$", re.IGNORECASE)


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


def load_maildir(path: Path) -> Iterator[SourceDocument | LoadError]:
    """Every message file under a maildir: cur/, new/, nested folders (not tmp/ or dotfiles)."""
    files: list[Path] = []
    unreadable: list[LoadError] = []
    for folder, dirs, names in os.walk(
        path, onerror=lambda err: unreadable.append(_unreadable_folder(err))
    ):
        dirs.sort()
        files.extend(Path(folder) / name for name in names)
    yield from unreadable
    for file in sorted(files):
        parts = file.relative_to(path).parts
        if "tmp" in parts[:-1] or any(part.startswith(".") for part in parts):
            continue
        yield from load_eml(file)


def _unreadable_folder(err: OSError) -> LoadError:
    return LoadError(err.filename or "?", f"cannot read folder: {err.strerror or err}")


def is_maildir(path: Path) -> bool:
    """A folder with cur/ or new/ in it."""
    return path.is_dir() and ((path / "cur").is_dir() or (path / "new").is_dir())


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
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        return _parse(msg, raw, origin)
    except _PARSE_ERRORS as err:
        raise LoadError(origin, f"malformed email: {type(err).__name__}: {err}") from err


def _parse(msg: EmailMessage, raw: bytes, origin: str) -> list[SourceDocument]:
    headers = {name.lower(): _unescape(value) for name, value in msg.raw_items()}
    if not ({"from", "message-id"} & headers.keys()):
        raise LoadError(origin, "not an email message: no From or Message-ID header")
    message_id = (
        _first_id(headers.get("message-id", "")) or f"synthetic-{short_id(raw.decode('latin-1'))}"
    )
    references = _MSGID.findall(headers.get("references", ""))
    in_reply_to = _first_id(headers.get("in-reply-to", ""))
    thread_id = references[0] if references else in_reply_to or message_id
    subject = _decoded(headers.get("subject", "")) or "(no subject)"
    sender_text = _decoded(headers.get("from", ""))
    sender_name, sender_address = parseaddr(sender_text)
    sender = sender_address or sender_text or None
    sent = _date(headers.get("date", ""))
    body_parts, attachments = _split_parts(msg)
    body = _strip_quotes("\n\n".join(body_parts))
    metadata = {
        "to": _decoded(headers.get("to", "")),
        "in_reply_to": in_reply_to or "",
        "references": " ".join(references),
    }
    if headers.get("cc"):
        metadata["cc"] = _decoded(headers["cc"])
    if sender_name:
        metadata["from_name"] = sender_name
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
    seen: set[str] = set()
    return [doc, *(_attachment(part, doc, seen, origin) for part in attachments)]


def _looks_like_headers(raw: bytes) -> bool:
    """The first line is a header ("Name: value") or an mbox "From " line."""
    first = raw.lstrip(b"\r\n").split(b"\n", 1)[0]
    return first.startswith(b"From ") or re.match(rb"^[!-9;-~]+:", first) is not None


def _split_parts(msg: MIMEPart) -> tuple[list[str], list[MIMEPart]]:
    """Body texts (preferring text/plain among alternatives) and attachment parts, in order."""
    texts: list[str] = []
    attachments: list[MIMEPart] = []

    def walk(part: MIMEPart, text_wanted: bool) -> None:
        if part.get_content_type() == "message/rfc822":
            attachments.append(part)
            return
        if part.is_multipart():
            children = list(part.iter_parts())
            if part.get_content_type() == "multipart/alternative" and children:
                best = _best_alternative(children)
                for child in children:
                    walk(child, text_wanted and child is best)
            else:
                for child in children:
                    walk(child, text_wanted)
            return
        ctype = part.get_content_type()
        named = part.get_filename() or part.get_content_disposition() == "attachment"
        if ctype in _SIGNATURES:
            return
        if ctype in ("text/plain", "text/html") and not named:
            if text_wanted:
                text = _part_text(part)
                text = html_to_text(text) if ctype == "text/html" else text
                if text.strip() and not _is_list_footer(text):
                    texts.append(text)
            return
        attachments.append(part)

    walk(msg, True)
    return texts, attachments


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


def _attachment(
    part: MIMEPart, parent: SourceDocument, seen: set[str], origin: str
) -> SourceDocument:
    ctype = part.get_content_type()
    name = _attachment_name(part, len(seen) + 1, seen)
    where = f"{origin} attachment {name}"
    mode: EmbeddingMode = "full"
    payload = part.get_payload()
    inner = payload[0] if ctype == "message/rfc822" and isinstance(payload, list) else None
    if isinstance(inner, MIMEPart):  # a forwarded message: index its body text
        data = inner.as_bytes()
        sections = [Section("body", t.strip()) for t in _split_parts(inner)[0] if t.strip()]
        return _attachment_document(
            parent, name, ctype, data, sections or [metadata_section(name, ctype, len(data))]
        )
    decoded = part.get_payload(decode=True)
    data = decoded if isinstance(decoded, bytes) else part.as_bytes()
    try:
        if ctype == "application/pdf" or name.lower().endswith(".pdf"):
            sections = pdf_sections(data, origin=where)
        elif part.get_content_maintype() == "text":
            text = _part_text(part)
            text = html_to_text(text) if ctype == "text/html" else text
            sections = [Section("body", text.strip())] if text.strip() else []
        else:
            sections = []
    except LoadError as err:
        logger.warning("%s; indexing its metadata only", err)
        sections = []
    if not sections:
        sections, mode = [metadata_section(name, ctype, len(data))], "metadata_only"
    return _attachment_document(parent, name, ctype, data, sections, mode)


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


def _is_list_footer(text: str) -> bool:
    """A part that holds nothing but a mailing-list footer."""
    return not _FOOTER.sub("", text.strip()).strip()


def _strip_quotes(text: str) -> str:
    """Drop quoted lines ("> ...") and their "On <date>, <who> wrote:" line, cut an unmarked
    quote (an attribution or "Original Message" line followed by plain text) and mailing-list
    footers; keep the whole text if nothing else would remain."""
    lines = _FOOTER.sub("", text.replace("\r\n", "\n")).split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if _OUTLOOK_CUT.match(stripped):
            break
        if stripped.startswith(">"):
            continue
        if _ATTRIBUTION_END.search(stripped):
            two_lines = not _ATTRIBUTION_START.match(stripped) and kept and kept[-1].strip()
            attribution = f"{kept[-1].strip()} {stripped}" if two_lines else stripped
            if _ATTRIBUTION_START.match(attribution) and re.search(r"\d", attribution):
                if two_lines:
                    kept.pop()
                following = next((ln for ln in lines[i + 1 :] if ln.strip()), "")
                if following.strip().startswith(">"):
                    continue
                break
        kept.append(line)
    result = re.sub(r"\n\s*\n\s*(?:\n\s*)+", "\n\n", "\n".join(kept)).strip()
    return result or text.strip()


def _unescape(value: str) -> str:
    """Undo the parser's surrogate escapes of 8-bit header bytes (read as UTF-8)."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _decoded(value: str) -> str:
    """A header value with RFC 2047 words decoded and folding removed."""
    try:
        text = str(make_header(decode_header(value)))
    except (email.errors.HeaderParseError, LookupError, UnicodeError, ValueError):
        text = value
    return " ".join(text.split())


def _first_id(value: str) -> str | None:
    match = _MSGID.search(value)
    if match:
        return match[1]
    bare = value.strip().strip("<>").strip()
    return bare.split()[0] if bare else None


def _date(value: str) -> date | None:
    if not value.strip():
        return None
    try:
        return parsedate_to_datetime(" ".join(value.split())).date()
    except (TypeError, ValueError, IndexError):
        logger.debug("unparseable Date header %r", value)
        return None


def safe_name(name: str, suffix: str) -> str:
    """A file-system-safe archive name: ``[A-Za-z0-9._-]`` only, at most ~100 characters."""
    clean = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "file"
    if len(clean) > 90:
        clean = f"{clean[:80]}-{short_id(name)}"
    return clean if clean.endswith(suffix) else clean + suffix


# --- HTML ---------------------------------------------------------------------------------


class _HtmlText(HTMLParser):
    """Collects visible text: paragraphs apart, other blocks on their own line, "> " quotes."""

    _PARAGRAPHS = frozenset(
        {"p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "ul", "ol", "pre", "hr"}
    )
    _LINES = frozenset({"div", "br", "li", "tr", "dd", "dt", "section", "article"})
    _HIDDEN = frozenset({"script", "style", "head", "title", "template"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, list[str]]] = [(0, [])]  # (quote depth, pieces); [] = break
        self.quote = 0
        self.hidden = 0
        self.pre = 0

    def _break(self, tag: str) -> None:
        if tag in self._PARAGRAPHS:
            self.lines.append((self.quote, ["\n"]))  # a blank line
        self.lines.append((self.quote, []))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._HIDDEN:
            self.hidden += 1
            return
        self.quote += tag == "blockquote"
        self.pre += tag == "pre"
        if tag in self._PARAGRAPHS or tag in self._LINES:
            self._break(tag)
        if tag == "li":
            self.lines[-1][1].append("- ")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._HIDDEN:
            self.hidden = max(0, self.hidden - 1)
            return
        if tag == "blockquote":
            self.quote = max(0, self.quote - 1)
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in self._PARAGRAPHS or tag in self._LINES:
            self._break(tag)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if not self.pre:
            self.lines[-1][1].append(re.sub(r"\s+", " ", data))
            return
        first, *rest = data.split("\n")
        self.lines[-1][1].append(first)
        for piece in rest:
            self.lines.append((self.quote, [piece]))

    def text(self) -> str:
        out: list[str] = []
        for depth, pieces in self.lines:
            if pieces == ["\n"]:
                if out and out[-1]:
                    out.append("")
                continue
            line = " ".join("".join(pieces).split())
            if line:
                out.append("> " * depth + line)
        return "\n".join(out).strip()


def html_to_text(html: str) -> str:
    """Readable text of an HTML body: scripts and styles dropped, blocks on their own lines."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return parser.text()
