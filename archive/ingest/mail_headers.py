"""Mail header values: RFC 2047 decoding, message ids, dates, safe file names."""

from __future__ import annotations

import logging
import re
from datetime import date
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.utils import parsedate_to_datetime

from archive.ingest.model import short_id

logger = logging.getLogger(__name__)

MSGID = re.compile(r"<([^<>\s]+)>")


def unescape(value: str) -> str:
    """Undo the parser's surrogate escapes of 8-bit header bytes (read as UTF-8)."""
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def decoded(value: str) -> str:
    """A header value with RFC 2047 words decoded and folding removed."""
    try:
        text = str(make_header(decode_header(value)))
    except (HeaderParseError, LookupError, UnicodeError, ValueError):
        text = value
    return " ".join(text.split())


def first_id(value: str) -> str | None:
    match = MSGID.search(value)
    if match:
        return match[1]
    bare = value.strip().strip("<>").strip()
    return bare.split()[0] if bare else None


def header_date(value: str) -> date | None:
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
