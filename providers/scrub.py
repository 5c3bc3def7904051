"""Secret scrubbing of anything shown to a user: bearer tokens, API keys, database credentials."""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote

_SECRETS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bBearer\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE), "Bearer [redacted]"),
    (re.compile(r"\b(?:pk|sk)-lf-[A-Za-z0-9-]{6,}"), "[redacted-key]"),  # Langfuse
    (re.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}"), "[redacted-key]"),  # OpenAI-style
    (re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"), "[redacted-key]"),  # Google
    (
        re.compile(
            r"(?i)\b((?:cohere|google|gemini|langfuse|openai)?_?"
            r"(?:api[_-]?key|secret[_-]?key|public[_-]?key|token|secret|password))"
            r"(\s*[:=]\s*['\"]?)[^\s'\",;&]+"
        ),
        r"\1\2[redacted]",
    ),
    # A database URL's user, password, host and port, even malformed: everything up to the last
    # "@" of the line, then up to the database name.
    (
        re.compile(r"(?i)\b(postgres(?:ql)?(?:\+\w+)?://)(?:[^\n'\"]*@)?[^/?#\s'\"]*"),
        r"\1[redacted]",
    ),
    # Keyword DSNs: password='pa ss', user=u host=h.
    (
        re.compile(r"(?i)\b(password|passwd|user|host|hostaddr|passfile)(\s*=\s*)(?:'[^']*'|\S+)"),
        r"\1\2[redacted]",
    ),
    # Long mixed-case alphanumeric tokens (Cohere keys have no prefix); hex digests do not match.
    (
        re.compile(
            r"\b(?=[A-Za-z0-9]*[a-z])(?=[A-Za-z0-9]*[A-Z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{32,}\b"
        ),
        "[redacted-key]",
    ),
)


def scrub_secrets(text: str, known: Sequence[str | None] = ()) -> str:
    """``text`` with bearer tokens, API keys and database credentials replaced by placeholders.

    ``known`` adds secret values to remove verbatim (the configured keys).
    """
    for secret in known:
        if secret and len(secret) >= 6:
            text = text.replace(secret, "[redacted]")
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


_URL_AUTHORITY = re.compile(
    r"(?i)^postgres(?:ql)?(?:\+\w+)?://(?:(?P<userinfo>.*)@)?(?P<host>[^/?#]*)"
)
_IPV4 = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_KEYWORD = re.compile(r"(?i)\b(user|password|host|hostaddr)\s*=\s*('[^']*'|\S+)")


def dsn_parts(dsn: str) -> list[str]:
    """The user, password and host names of a database URL or keyword DSN (parsed leniently:
    malformed ports and spaces in passwords are fine), to scrub wherever they appear."""
    dsn = dsn.strip()
    parts: list[str] = []
    match = _URL_AUTHORITY.match(dsn)
    if match:
        user, _, password = (match.group("userinfo") or "").partition(":")
        hosts = [h.rsplit(":", 1)[0].strip("[]") for h in match.group("host").split(",")]
        parts = [unquote(user), unquote(password), user, password, *hosts]
    else:
        parts = [value.strip("'") for _, value in _KEYWORD.findall(dsn)]
    return sorted(
        {p for p in parts if p and p not in ("localhost", "127.0.0.1")}, key=len, reverse=True
    )


def scrub_dsn(text: str, parts: Sequence[str]) -> str:
    """``text`` with each of ``parts`` (see :func:`dsn_parts`) replaced where it stands alone."""
    for part in parts:
        text = re.sub(rf"(?<![\w.-]){re.escape(part)}(?![\w-])", "[redacted]", text)
    if parts:  # the address the host name resolved to ("at "db" (10.0.0.7), port 5432")
        text = _IPV4.sub(lambda m: m.group(0) if m.group(0) == "127.0.0.1" else "[redacted]", text)
    return text
