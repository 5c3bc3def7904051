"""Secret scrubbing of anything shown to a user: bearer tokens, API keys, database credentials."""

from __future__ import annotations

import re
from collections.abc import Sequence

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
    (
        re.compile(r"(?i)\b(postgres(?:ql)?(?:\+\w+)?://)[^\s'\"@/]*@"),
        r"\1[redacted]@",
    ),
    (re.compile(r"(?i)\b(password=)\S+"), r"\1[redacted]"),
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
