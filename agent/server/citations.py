"""``GET /api/citations/{chunk_id}`` (the cited passage inside its document's text) and
``GET /api/files`` (the archived original behind a signed link)."""

from __future__ import annotations

import asyncio
import mimetypes
import re
from typing import Any, cast

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse

from agent.server import ratelimit
from agent.server.auth import require_user
from agent.server.config import ServerConfig
from agent.server.labels import record_download, record_open
from agent.server.payloads import download_link, for_display
from agent.server.runtime import config_of, runtime_of
from agent.server.signing import verify
from archive.originals import ArchivePathError, LocalOriginals, Originals

CHUNK_ID = re.compile(r"[0-9a-f]{12}")
#: One archive path segment as the archive writes them (``archive.originals.safe_name``).
SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,119}")

_CHUNK = """SELECT c.chunk_id, c.doc_id, c.content, c.section, c.page, d.kind, d.source_id,
       d.title, d.date, d.sender, d.subject, d.report_no, d.vessel_name, d.imo, d.thread_id,
       d.parent_id, d.archive_path
FROM chunks c JOIN documents d USING (doc_id) WHERE c.chunk_id = %s"""
#: The message an attachment came with, and its first passage (to open it in the panel).
_PARENT = """SELECT d.source_id, d.title, d.subject, d.sender, d.date, d.archive_path,
       (SELECT c.chunk_id FROM chunks c WHERE c.doc_id = d.doc_id ORDER BY c.ordinal LIMIT 1)
       AS chunk_id
FROM documents d WHERE d.source_id = %s AND d.kind = 'email'"""
_DOCUMENT_CHUNKS = "SELECT chunk_id, content FROM chunks WHERE doc_id = %s ORDER BY ordinal"


async def citation(request: Request) -> JSONResponse:
    user = require_user(request)
    chunk_id = request.path_params["chunk_id"]
    if not CHUNK_ID.fullmatch(chunk_id):  # before anything touches the database
        raise HTTPException(400, "a chunk id is exactly 12 lowercase hex characters")
    config = config_of(request)
    runtime = await runtime_of(request)
    await ratelimit.hit(
        runtime.pool,
        ratelimit.client_key(request, user),
        "citations",
        config.citations_per_minute,
    )
    async with runtime.services.store.pool.connection() as conn:
        row = cast(
            dict[str, Any] | None, await (await conn.execute(_CHUNK, (chunk_id,))).fetchone()
        )
        if row is None:
            raise HTTPException(404, "no such passage")
        parts = cast(
            list[dict[str, Any]],
            await (await conn.execute(_DOCUMENT_CHUNKS, (row["doc_id"],))).fetchall(),
        )
        parent = None
        if row["kind"] == "attachment" and row["parent_id"]:
            found = await conn.execute(_PARENT, (row["parent_id"],))
            parent = cast(dict[str, Any] | None, await found.fetchone())
    async with runtime.pool.connection() as conn:
        await record_open(
            conn, user_id=user, collection=runtime.services.store.schema, chunk_id=chunk_id
        )
    text, start, end = document_text([(p["chunk_id"], p["content"]) for p in parts], chunk_id)
    document = for_display(
        {
            k: (v.isoformat() if hasattr(v, "isoformat") else v)
            for k, v in row.items()
            if k not in ("content", "chunk_id", "archive_path")
        }
    )
    return JSONResponse(
        {
            "chunk_id": chunk_id,
            "passage": row["content"],
            "document": document,
            "original_text": text,
            "highlight": {"start": start, "end": end},
            "download_url": download_link(
                runtime.services.archive, config, row["archive_path"], user
            ),
            "parent": parent and _message_of(parent, runtime.services.archive, config, user),
        }
    )


def _message_of(
    parent: dict[str, Any], originals: Originals, config: ServerConfig, user: str
) -> dict[str, Any]:
    """The message an attachment came with: what the panel shows, and its own download."""
    shown = {
        "source_id": parent["source_id"],
        "chunk_id": parent["chunk_id"],
        "subject": parent["subject"] or parent["title"],
        "sender": parent["sender"],
        "date": parent["date"].isoformat() if parent["date"] else None,
        "download_url": download_link(originals, config, parent["archive_path"], user),
    }
    return for_display(shown)


def document_text(parts: list[tuple[str, str]], chunk_id: str) -> tuple[str, int, int]:
    """A document's text from its passages in order (the overlap each repeats from the one
    before dropped), and where ``chunk_id``'s passage lies in it."""
    text = ""
    start = end = 0
    for cid, content in parts:
        overlap = _overlap(text, content)
        if cid == chunk_id:
            start = len(text) - overlap
            end = start + len(content)
        if text and not overlap:
            text += "\n\n"
            start, end = (start + 2, end + 2) if cid == chunk_id else (start, end)
        text += content[overlap:]
    return text, start, end


def _overlap(before: str, after: str, longest: int = 600) -> int:
    """Length of the longest suffix of ``before`` that starts ``after`` (chunks overlap by whole
    sentences, at most a few hundred characters)."""
    for size in range(min(len(before), len(after), longest), 19, -1):  # < 20: a repeated word
        if before.endswith(after[:size]):
            return size
    return 0


def archive_relative(path: str) -> str:
    """``path`` if it is a plain ``kind/doc_id/name`` archive path; 400 for anything else
    (parent segments, encoded or double-encoded dots, absolute paths, backslashes, NULs)."""
    segments = path.split("/")
    if not (1 <= len(segments) <= 8) or not all(SEGMENT.fullmatch(s) for s in segments):
        raise HTTPException(400, "not an archive path")
    return path


async def download(request: Request) -> FileResponse:
    query = request.query_params
    config = config_of(request)
    path = archive_relative(query.get("path", ""))
    user = query.get("u", "")
    if not verify(config.secret, path, query.get("exp", ""), user, query.get("sig", "")):
        raise HTTPException(403, "this download link is expired or invalid")
    runtime = await runtime_of(request)
    await ratelimit.hit(
        runtime.pool,
        ratelimit.client_key(request, user),
        "citations",
        config.citations_per_minute,
    )
    originals = runtime.services.archive
    if not isinstance(originals, LocalOriginals):  # object storage serves its own links
        raise HTTPException(404, "originals are downloaded from object storage")
    try:  # symlinks out of the archive refused; file system calls kept off the event loop
        file = await asyncio.to_thread(originals.resolve, path)
    except ArchivePathError:
        raise HTTPException(403, "not an archive path") from None
    if not await asyncio.to_thread(file.is_file):
        raise HTTPException(404, "the original is not in the archive")
    async with runtime.pool.connection() as conn:
        await record_download(
            conn, user_id=user, collection=runtime.services.store.schema, archive_path=path
        )
    media, _ = mimetypes.guess_type(file.name)
    return FileResponse(file, media_type=media or "application/octet-stream", filename=file.name)
