"""Citation payloads with fresh signed links, and a thread's history as the page renders it."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from agent.server.config import ServerConfig
from agent.server.signing import signed_url
from text.storable import displayable

#: Fields the preview and the panel show as a line of their own: no bidi controls there.
DISPLAY_FIELDS = ("title", "subject", "sender", "section")


def for_display(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with each display field made :func:`~text.storable.displayable` (bidi
    controls would reorder what the reader sees, e.g. ``exe.pdf`` shown for ``fdp.exe``)."""
    return {
        k: displayable(v) if k in DISPLAY_FIELDS and isinstance(v, str) else v
        for k, v in fields.items()
    }


def with_links(
    payloads: list[dict[str, Any]], config: ServerConfig, user: str
) -> list[dict[str, Any]]:
    """Each payload with ``download_url`` signed now (links expire; the stored payload has none)
    and the archive path left out (the link is the only way to the file)."""
    out = []
    for payload in payloads:
        item = for_display({k: v for k, v in payload.items() if k != "archive_path"})
        item["download_url"] = signed_url(
            config.secret, payload["archive_path"], user=user, ttl_s=config.link_ttl_s
        )
        out.append(item)
    return out


def fallback_payloads(message: AIMessage) -> list[dict[str, Any]]:
    """Payloads from the citations stored on the message itself (a turn with no recorded row)."""
    return [
        {
            "n": c["number"],
            "chunk_id": c["id"],
            "title": c["title"],
            "subject": c.get("subject"),
            "sender": c.get("sender"),
            "date": c.get("date"),
            "page": c.get("page"),
            "section": c.get("section"),
            "snippet": c.get("snippet") or "",
            "source_id": c["source_id"],
            "kind": c["kind"],
            "archive_path": c["archive_path"],
        }
        for c in message.additional_kwargs.get("citations") or []
    ]


def history(
    messages: list[BaseMessage],
    turns: dict[str, dict[str, Any]],
    config: ServerConfig,
    user: str,
) -> list[dict[str, Any]]:
    """User questions and assistant answers (tool calls and tool results left out)."""
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
                    "citations": with_links(payloads, config, user),
                    "meta": row["meta"] if row else None,
                }
            )
    return out
