"""The cause statements of a whole matching set (every record, not the top-k), for pattern
questions ("most common causes of fatal landing accidents"): an NTSB record's probable cause, an
IMO casualty's initial event and consequences."""

from __future__ import annotations

from typing import Any

from psycopg import sql

from archive.store.counts import RecordQuery, where_clause
from archive.store.database import Store
from archive.store.passages import PASSAGE_COLUMNS, Passage, passage_of

#: Most statements read for one pattern (the set's latest first).
MAX_STATEMENTS = 5000


async def cause_statements(
    store: Store, query: RecordQuery, *, topic: str = "", limit: int = MAX_STATEMENTS
) -> list[Passage]:
    """One passage per matching record holding its cause: the "Probable Cause" section of an
    NTSB record, the fact passage of a casualty (its ``summary`` names the initial event and
    consequences). ``topic``: only records any passage of which mentions the word."""
    where, params = where_clause(query)
    if topic:
        where = sql.SQL(
            "{} AND EXISTS (SELECT 1 FROM chunks t WHERE t.doc_id = d.doc_id"
            " AND t.content ILIKE %(topic)s)"
        ).format(where)
        params["topic"] = f"%{topic}%"
    section = "Probable Cause" if query.kind == "ntsb_report" else None
    statement = sql.SQL(
        "SELECT DISTINCT ON (d.date, d.doc_id) {columns}, d.initial_event, d.consequences"
        " FROM documents d JOIN chunks c USING (doc_id)"
        " WHERE {where} AND (%(section)s::text IS NULL OR c.section = %(section)s)"
        " ORDER BY d.date DESC NULLS LAST, d.doc_id, c.ordinal LIMIT %(limit)s"
    ).format(columns=sql.SQL(PASSAGE_COLUMNS), where=where)
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement, {**params, "section": section, "limit": limit})
        rows: Any = await cur.fetchall()
    out = []
    for row in rows:
        passage = passage_of(row)
        if query.kind == "casualty":  # the typed fields are the statement
            facts = [row["initial_event"] or "", row["consequences"] or ""]
            passage["summary"] = "; ".join(f for f in facts if f)
        out.append(passage)
    return out
