"""Reading stored chunks back with what citations and context headers need."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np

from archive.store.database import Store

#: The chunk and document columns a :class:`Passage` is built from (``c`` chunks, ``d`` documents).
PASSAGE_COLUMNS = """c.chunk_id, c.doc_id, c.kind, c.source_id, c.title, c.content, c.section,
       c.page, c.date, c.sender, d.subject, c.thread_id, c.vessel_name, c.imo, c.report_no,
       d.archive_path, d.embedding_mode, d.summary"""


@dataclass(frozen=True)
class Passage:
    """A stored chunk joined to its document."""

    chunk_id: str
    doc_id: str
    kind: str
    source_id: str
    title: str
    text: str
    section: str | None
    page: int | None
    date: date | None
    sender: str | None
    subject: str | None
    thread_id: str | None
    vessel_name: str | None
    imo: str | None
    report_no: str | None
    archive_path: str
    embedding_mode: str
    summary: str
    # The stored vector, when the caller selected it; empty otherwise.
    embedding: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))


def passage_of(row: Mapping[str, Any]) -> Passage:
    """A :class:`Passage` from a row of :data:`PASSAGE_COLUMNS` (plus ``embedding`` if selected)."""
    vector = row.get("embedding")
    return Passage(
        chunk_id=row["chunk_id"],
        doc_id=row["doc_id"],
        kind=row["kind"],
        source_id=row["source_id"],
        title=row["title"],
        text=row["content"],
        section=row["section"],
        page=row["page"],
        date=row["date"],
        sender=row["sender"],
        subject=row["subject"],
        thread_id=row["thread_id"],
        vessel_name=row["vessel_name"],
        imo=row["imo"],
        report_no=row["report_no"],
        archive_path=row["archive_path"],
        embedding_mode=row["embedding_mode"],
        summary=row["summary"],
        **({} if vector is None else {"embedding": np.asarray(vector, dtype=np.float32)}),
    )


async def fetch_passages(store: Store, chunk_ids: Sequence[str]) -> dict[str, Passage]:
    """The passages for ``chunk_ids`` with their vectors (unknown ids are absent)."""
    if not chunk_ids:
        return {}
    async with store.pool.connection() as conn, conn.cursor(binary=True) as cur:
        await cur.execute(
            f"""SELECT {PASSAGE_COLUMNS}, c.embedding
               FROM chunks c JOIN documents d USING (doc_id)
               WHERE c.chunk_id = ANY(%s)""",
            (list(chunk_ids),),
        )
        rows = await cur.fetchall()
    return {r["chunk_id"]: passage_of(r) for r in rows}
