"""The cause and outcome statements of a whole matching set (every record, not the top-k), for
pattern questions ("most common causes of fatal landing accidents"): an NTSB record's probable
cause, an IMO casualty's recorded initial event or consequences, a TAIC report's findings (or,
for what the reports were about, its title)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from psycopg import sql

from archive.store.counts import RecordQuery, where_clause
from archive.store.database import Store
from archive.store.passages import PASSAGE_COLUMNS, Passage, passage_of

#: Most records read for one pattern (the set's latest first).
MAX_RECORDS = 20000
#: Records read for the reference set (words every statement of a kind uses).
REFERENCE = 3000
#: What a pattern groups: causes, recorded outcomes, an investigation's findings, or the kind of
#: occurrence a report investigated (its title).
About = Literal["cause", "outcome", "finding", "kind"]
#: Sections holding a record's statements, per kind (matched case-insensitively with LIKE).
SECTIONS = {
    "ntsb_report": ("probable cause",),
    "investigation_report": ("%finding%", "%conclusion%"),
}


@dataclass(frozen=True)
class SetStatements:
    """A set's statements: ``size`` records matched, some with no statement recorded."""

    size: int
    statements: list[tuple[Passage, str]] = field(default_factory=list)  # (cite, statement)
    reference: list[str] = field(default_factory=list)  # the kind's statements, unfiltered


async def set_statements(
    store: Store, query: RecordQuery, *, topic: str = "", about: About = "cause"
) -> SetStatements:
    """Every record of ``query`` (narrowed to records any passage of which mentions all words of
    ``topic``, by the English text-search stems) with its statements. A casualty's statement is
    its recorded initial event (``about="outcome"``: its consequences) on its first passage; a
    report's are the passages of its cause or findings sections (``about="kind"``: its title,
    which names the occurrence investigated, on its first passage)."""
    where, params = where_clause(query)
    if topic.strip():
        where = sql.SQL(
            "{} AND EXISTS (SELECT 1 FROM chunks t WHERE t.doc_id = d.doc_id"
            " AND to_tsvector('english', t.content) @@ plainto_tsquery('english', %(topic)s))"
        ).format(where)
        params["topic"] = topic
    field_name = "consequences" if about == "outcome" else "initial_event"
    recorded: sql.Composable = sql.SQL("d.metadata->>{}").format(sql.Literal(field_name))
    sections = SECTIONS.get(query.kind)
    if about == "kind":
        recorded, sections = sql.SQL("d.title"), None
    statement = sql.SQL(
        "WITH chosen AS (SELECT d.doc_id, d.date, {recorded} AS recorded"
        " FROM documents d WHERE {where} ORDER BY d.date DESC NULLS LAST, d.doc_id"
        " LIMIT %(limit)s)"
        " SELECT {columns}, chosen.recorded FROM chosen"
        " JOIN chunks c ON c.doc_id = chosen.doc_id JOIN documents d ON d.doc_id = c.doc_id"
        " WHERE {sections}"
        " ORDER BY chosen.date DESC NULLS LAST, chosen.doc_id, c.ordinal"
    ).format(
        recorded=recorded,
        where=where,
        columns=sql.SQL(PASSAGE_COLUMNS),
        sections=_section_test(sections),
    )
    size_query = sql.SQL("SELECT count(*) AS n FROM documents d WHERE {}").format(where)
    params = {**params, "limit": MAX_RECORDS, "sections": list(sections or ())}
    async with store.pool.connection() as conn:
        cur = await conn.execute(size_query, params)
        size_row: Any = await cur.fetchone()
        cur = await conn.execute(statement, params)
        rows: Any = await cur.fetchall()
    out: list[tuple[Passage, str]] = []
    seen: set[str] = set()
    for row in rows:
        if sections is None:  # a recorded field: one statement per record, on its first passage
            if row["doc_id"] in seen:
                continue
            seen.add(row["doc_id"])
            if row["recorded"]:
                out.append((passage_of(row), str(row["recorded"])))
        elif row["content"]:
            out.append((passage_of(row), str(row["content"])))
    reference = await _reference(store, query.kind, sections) if sections else []
    return SetStatements(size=int(size_row["n"]), statements=out, reference=reference)


def _section_test(sections: tuple[str, ...] | None) -> sql.Composable:
    if sections is None:
        return sql.SQL("true")
    return sql.SQL("lower(coalesce(c.section, '')) LIKE ANY(%(sections)s)")


async def _reference(store: Store, kind: str, sections: tuple[str, ...]) -> list[str]:
    """The statements of every record of ``kind`` (up to :data:`REFERENCE` records), whatever
    the filters, one text per record (a report's findings joined)."""
    statement = sql.SQL(
        "SELECT string_agg(c.content, E'\\n' ORDER BY c.ordinal) AS content"
        " FROM chunks c JOIN documents d USING (doc_id)"
        " WHERE d.kind = %(kind)s AND d.parent_id IS NULL AND {}"
        " GROUP BY d.doc_id ORDER BY d.doc_id LIMIT %(limit)s"
    ).format(_section_test(sections))
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            statement, {"kind": kind, "sections": list(sections), "limit": REFERENCE}
        )
        rows: Any = await cur.fetchall()
    return [str(r["content"]) for r in rows]
