"""What a MIME part holds, by its content and file name as well as its declared type: text to
index (logs, code, configs, notebooks sent as ``application/octet-stream``), a PDF, or something
only listed (images, signatures, binaries); S/MIME signed-data and PGP clear-signed text
unwrapped to the message they sign."""

from __future__ import annotations

import email
import email.policy
import json
import logging
import re
from email.message import MIMEPart
from pathlib import PurePath
from typing import Literal

from asn1crypto import cms

from text.storable import MAX_DEPTH

logger = logging.getLogger(__name__)

PartKind = Literal["text", "pdf", "image", "signature", "binary"]

SIGNATURE_TYPES = frozenset(
    {"application/pkcs7-signature", "application/x-pkcs7-signature", "application/pgp-signature"}
)
SMIME_TYPES = frozenset({"application/pkcs7-mime", "application/x-pkcs7-mime"})
_SIGNATURE_SUFFIXES = frozenset({".p7s", ".asc", ".sig", ".gpg", ".pgp", ".p7m", ".p7c"})
_IMAGE_SUFFIXES = frozenset(
    {".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp", ".ico", ".heic", ".emz"}
)
# Formats that are never text, whatever their first bytes look like.
_BINARY_SUFFIXES = frozenset(
    {".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".exe", ".dll", ".so", ".bin",
     ".dat", ".bit", ".rbf", ".img", ".iso", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx",
     ".odt", ".mat", ".npy", ".pcap", ".wav", ".mp3", ".mp4", ".avi", ".mov"}
)  # fmt: skip
_IMAGE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"II*\x00", b"MM\x00*")
_SNIFF_BYTES = 8192
_PGP_SIGNED = re.compile(
    r"-----BEGIN PGP SIGNED MESSAGE-----\s*\n(?:[\w-]+:[^\n]*\n)*\s*\n"
    r"(?P<body>.*?)\n-----BEGIN PGP SIGNATURE-----.*?-----END PGP SIGNATURE-----",
    re.DOTALL,
)


def part_kind(part: MIMEPart, name: str, data: bytes) -> PartKind:
    """How an attachment is handled: by declared type, file name and first bytes."""
    ctype = part.get_content_type()
    suffix = PurePath(name.lower()).suffix
    if ctype in SIGNATURE_TYPES or ctype in SMIME_TYPES or suffix in _SIGNATURE_SUFFIXES:
        return "signature"
    if ctype == "application/pdf" or suffix == ".pdf" or data.startswith(b"%PDF-"):
        return "pdf"
    if part.get_content_maintype() == "image" or suffix in _IMAGE_SUFFIXES:
        return "image"
    if data.startswith(_IMAGE_MAGIC):
        return "image"
    if suffix in _BINARY_SUFFIXES:
        return "binary"
    return "text" if looks_like_text(data) else "binary"


def looks_like_text(data: bytes) -> bool:
    """Whether bytes read as text: no NUL, valid UTF-8 (or Latin-1 of printable characters),
    under 1% control characters in the first 8 KiB."""
    sample = data[:_SNIFF_BYTES]
    if not sample.strip() or b"\x00" in sample:
        return False
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError as err:
        if err.start >= len(sample) - 3:  # a character cut by the sample's end
            text = sample[: err.start].decode("utf-8")
        else:
            text = sample.decode("latin-1")
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f\v\x1b")
    controls += sum(1 for ch in text if 0x7F <= ord(ch) < 0xA0)
    return controls <= len(text) // 100


def attachment_text(part: MIMEPart, name: str, data: bytes) -> str:
    """The text of a text attachment in its declared charset (else UTF-8); a Jupyter notebook
    as its cells' sources and text outputs."""
    charset = part.get_content_charset() or "utf-8"
    try:
        text = data.decode(charset, errors="replace")
    except LookupError:
        text = data.decode("utf-8", errors="replace")
    text = text.replace("\x00", "")
    if name.lower().endswith(".ipynb"):
        return notebook_text(text) or text
    return text


def notebook_text(raw: str) -> str:
    """A notebook's cell sources and text outputs, in order; "" if it is not notebook JSON."""
    try:
        cells = json.loads(raw).get("cells", [])
    except (json.JSONDecodeError, AttributeError):
        return ""
    pieces: list[str] = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            continue
        pieces.append(_joined(cell.get("source")))
        for output in cell.get("outputs") or []:
            if isinstance(output, dict):
                text = output.get("text") or (output.get("data") or {}).get("text/plain")
                pieces.append(_joined(text))
    return "\n\n".join(p.strip() for p in pieces if p and p.strip())


def _joined(value: object) -> str:
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return value if isinstance(value, str) else ""


def smime_content(part: MIMEPart) -> MIMEPart | None:
    """The signed MIME entity inside an S/MIME ``signed-data`` part (``smime.p7m``); None when
    the part is encrypted, detached or not CMS."""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes) or not data:
        return None
    try:
        info = cms.ContentInfo.load(data)
        if info["content_type"].native != "signed_data":
            return None
        inner = info["content"]["encap_content_info"]["content"].native
    except (ValueError, TypeError, KeyError) as err:
        logger.warning("unreadable S/MIME part: %s", err)
        return None
    if not isinstance(inner, bytes):
        return None
    if mime_depth(inner) > MAX_DEPTH:  # the stdlib parser recurses once per level
        logger.warning("S/MIME content nested past %d levels: kept as an attachment", MAX_DEPTH)
        return None
    return email.message_from_bytes(inner, policy=email.policy.default)  # type: ignore[return-value]


def without_pgp_armor(text: str) -> str:
    """Clear-signed PGP text without its armor and signature, dash-escaped lines restored."""

    def body(match: re.Match[str]) -> str:
        return re.sub(r"^- ", "", match["body"], flags=re.MULTILINE)

    return _PGP_SIGNED.sub(body, text)


_BOUNDARY = re.compile(rb'boundary\s*=\s*"?([^";\r\n]+)"?', re.IGNORECASE)


def mime_depth(raw: bytes) -> int:
    """How deeply the multipart parts of ``raw`` nest, read from its boundary lines in one pass
    (no recursion): a boundary opens a level at its first ``--B`` line and closes at ``--B--``."""
    declared = {m.group(1).strip() for m in _BOUNDARY.finditer(raw)}
    if not declared:
        return 0
    stack: list[bytes] = []
    deepest = 0
    for line in raw.splitlines():
        if not line.startswith(b"--"):
            continue
        token = line[2:].rstrip()
        closing = token.endswith(b"--") and token[:-2] in declared
        name = token[:-2] if closing else token
        if name not in declared:
            continue
        if closing:
            while stack and stack.pop() != name:
                pass
        elif name not in stack:
            stack.append(name)
            deepest = max(deepest, len(stack))
    return deepest
