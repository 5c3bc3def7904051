"""Citation payloads with fresh signed links, and a thread's history as the page renders it."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from agent.server.config import ServerConfig
from agent.server.signing import signed_url
from agent.turns import citation_payloads
from archive.originals import Originals
from text.storable import displayable


def download_link(originals: Originals, config: ServerConfig, path: str, user: str) -> str:
    """A link to the original at ``path``, valid BOSUN_LINK_TTL_S seconds: the storage's own
    pre-signed GET where it serves files (S3), else the app's HMAC-signed ``/api/files`` link.
    Callers issue it only after their ownership and id checks."""
    ttl_s = config.link_ttl_s
    presigned = originals.download_url(path, ttl_s=ttl_s)
    return presigned or signed_url(config.secret, path, user=user, ttl_s=ttl_s)


#: Fields the preview and the panel show as a line of their own: no bidi controls there.
DISPLAY_FIELDS = ("title", "subject", "sender", "section", "lineage")


def for_display(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with each display field made :func:`~text.storable.displayable` (bidi
    controls would reorder what the reader sees, e.g. ``exe.pdf`` shown for ``fdp.exe``)."""
    return {
        k: displayable(v) if k in DISPLAY_FIELDS and isinstance(v, str) else v
        for k, v in fields.items()
    }


def with_links(
    payloads: list[dict[str, Any]], config: ServerConfig, user: str, originals: Originals
) -> list[dict[str, Any]]:
    """Each payload with ``download_url`` signed now (links expire; the stored payload has none)
    and the archive path left out (the link is the only way to the file)."""
    out = []
    for payload in payloads:
        item = for_display({k: v for k, v in payload.items() if k != "archive_path"})
        item["download_url"] = download_link(originals, config, payload["archive_path"], user)
        out.append(item)
    return out


def fallback_payloads(message: AIMessage) -> list[dict[str, Any]]:
    """Payloads from the citations stored on the message itself (a turn with no recorded row)."""
    return citation_payloads({"citations": message.additional_kwargs.get("citations") or []})


def history(
    messages: list[BaseMessage],
    turns: dict[str, dict[str, Any]],
    config: ServerConfig,
    user: str,
    originals: Originals,
    feedback: dict[str, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """User questions and assistant answers (tool calls and tool results left out); each answer
    with the feedback its reader gave (``{"score", "comment"}`` from ``feedback`` by message id,
    or None)."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, HumanMessage):
            out.append(
                {
                    "id": message.id,
                    "role": "user",
                    "content": message.text,
                    "citations": None,
                    "meta": None,
                    "feedback": None,
                }
            )
        elif isinstance(message, AIMessage) and not message.tool_calls and message.text:
            row = turns.get(message.id or "")
            payloads = row["citations"] if row else fallback_payloads(message)
            out.append(
                {
                    "id": message.id,
                    "role": "assistant",
                    "content": message.text,
                    "citations": with_links(payloads, config, user, originals),
                    "meta": row["meta"] if row else None,
                    "feedback": (feedback or {}).get(message.id or ""),
                }
            )
    return out
