"""Reading stored chunks back with what citations and context headers need."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import numpy as np

from agent.store.database import Store


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
    embedding: np.ndarray


async def fetch_passages(store: Store, chunk_ids: Sequence[str]) -> dict[str, Passage]:
    """The passages for ``chunk_ids`` (unknown ids are absent from the result)."""
    if not chunk_ids:
        return {}
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT c.chunk_id, c.doc_id, c.kind, c.source_id, c.title, c.content, c.section,
                      c.page, c.date, c.sender, d.subject, c.thread_id, c.vessel_name, c.imo,
                      c.report_no, d.archive_path, d.embedding_mode, d.summary, c.embedding
               FROM chunks c JOIN documents d USING (doc_id)
               WHERE c.chunk_id = ANY(%s)""",
            (list(chunk_ids),),
        )
        rows = await cur.fetchall()
    return {
        r["chunk_id"]: Passage(
            chunk_id=r["chunk_id"], doc_id=r["doc_id"], kind=r["kind"], source_id=r["source_id"],
            title=r["title"], text=r["content"], section=r["section"], page=r["page"],
            date=r["date"], sender=r["sender"], subject=r["subject"], thread_id=r["thread_id"],
            vessel_name=r["vessel_name"], imo=r["imo"], report_no=r["report_no"],
            archive_path=r["archive_path"], embedding_mode=r["embedding_mode"],
            summary=r["summary"], embedding=np.asarray(r["embedding"], dtype=np.float32),
        )
        for r in rows
    }  # fmt: skip
