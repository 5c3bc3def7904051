"""Encoded copies of a text for the planted-instruction detector: HTML character references,
base64 runs, percent-encoding, quoted-printable, hex runs, JSON ``\\u`` escapes, ROT13 and
reversed text (these two when the text says so) decoded, so an instruction hidden by an encoding
is read too. Each copy is named with the span of the original it came from."""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import quopri
import re
import urllib.parse

_ENTITY = re.compile(r"&(?:#\d{2,7}|#x[0-9a-f]{2,6}|[a-z]{2,8});", re.IGNORECASE)
_BASE64 = re.compile(r"(?<![\w+/=-])[A-Za-z0-9+/_-]{24,}={0,2}(?![\w+/=-])")
_ROT13_HINT = re.compile(r"\brot[\s_-]?13\b", re.IGNORECASE)
_PERCENT = re.compile(r"(?:%[0-9a-f]{2}){6,}", re.IGNORECASE)
_QUOTED = re.compile(r"(?:=[0-9A-F]{2}|=\r?\n)")
_HEX = re.compile(r"(?<![0-9a-f])(?:0x)?((?:[0-9a-f]{2}){12,})(?![0-9a-f])", re.IGNORECASE)
_ESCAPE = re.compile(r"\\u[0-9a-f]{4}", re.IGNORECASE)
_REVERSED_HINT = re.compile(r"\b(?:backwards?|reversed?|reverse\s+(?:the|this|it))\b", re.I)
_MAX_RUNS = 50  # base64 runs decoded per text (a mail may carry a long attachment)


def _printable(text: str) -> bool:
    shown = sum(1 for ch in text if ch.isprintable() or ch in "\n\t\r")
    return bool(text) and shown / len(text) > 0.95 and any(ch.isalpha() for ch in text)


def _base64(run: str) -> str | None:
    padded = run + "=" * (-len(run) % 4)
    try:
        raw = (
            base64.urlsafe_b64decode(padded)
            if "-" in run or "_" in run
            else base64.b64decode(padded, validate=True)
        )
        decoded = raw.decode("utf-8")
    except (binascii.Error, ValueError):  # UnicodeDecodeError is a ValueError
        return None
    return decoded if _printable(decoded) else None


def decoded_copies(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, decoded)``: the parts of ``text`` that decode to other readable text
    (HTML character references, base64 runs, the whole text when it names ROT13)."""
    copies: list[tuple[int, int, str]] = []
    if _ENTITY.search(text):
        unescaped = html.unescape(text)
        if unescaped != text:
            copies.append((0, len(text), unescaped))
    for n, m in enumerate(_BASE64.finditer(text)):
        if n >= _MAX_RUNS:
            break
        decoded = _base64(m.group(0))
        if decoded:
            copies.append((m.start(), m.end(), decoded))
    if _ROT13_HINT.search(text):
        copies.append((0, len(text), codecs.encode(text, "rot13")))
    if _REVERSED_HINT.search(text):
        copies.append((0, len(text), text[::-1]))
    copies += _byte_encodings(text)
    return copies


def _utf8(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return decoded if _printable(decoded) else None


def _byte_encodings(text: str) -> list[tuple[int, int, str]]:
    """Percent-encoded and hex runs, a quoted-printable text, JSON ``\\u`` escapes, decoded."""
    copies: list[tuple[int, int, str]] = []
    for m in _PERCENT.finditer(text):
        decoded = _utf8(urllib.parse.unquote_to_bytes(m.group(0)))
        if decoded:
            copies.append((m.start(), m.end(), decoded))
    for n, m in enumerate(_HEX.finditer(text)):
        if n >= _MAX_RUNS:
            break
        decoded = _utf8(bytes.fromhex(m.group(1)))
        if decoded:
            copies.append((m.start(), m.end(), decoded))
    if len(_QUOTED.findall(text)) >= 3:
        decoded = _utf8(quopri.decodestring(text.encode("utf-8", "replace")))
        if decoded and decoded != text:
            copies.append((0, len(text), decoded))
    if _ESCAPE.search(text):
        unescaped = _ESCAPE.sub(lambda m: chr(int(m.group(0)[2:], 16)), text)
        copies.append((0, len(text), unescaped))
    return copies
