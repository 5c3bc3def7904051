"""Exact counts over the archive's typed record fields (migration 014): the whole matching set,
not the top-k passages a search returns.

A :class:`RecordQuery` has two parts: the *scope* (kind of record, dates, place, make, flag, ...)
and the *outcome* asked about (fatal, injured, loss of life, ...). The count reports both
numbers, ``matched`` (scope and outcome) among ``scope``, with a few example passages of the
matched set to cite (the most recent first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from psycopg import sql

from archive.store.database import Store
from archive.store.passages import PASSAGE_COLUMNS, Passage, passage_of

#: Outcomes a count can ask about, each one SQL condition on the typed columns of ``d``.
Outcome = Literal["fatal", "injured", "serious", "loss_of_life", "total_loss", "pollution"]
OUTCOMES: dict[str, str] = {
    "fatal": "d.fatalities > 0",
    "injured": "(d.fatalities + d.serious_injuries + d.minor_injuries > 0"
    " OR d.consequences LIKE '%%serious injuries%%')",
    "serious": "d.serious_injuries > 0",
    "loss_of_life": "d.consequences LIKE '%%loss of life%%'",
    "total_loss": "d.consequences LIKE '%%total loss%%'",
    "pollution": "d.consequences LIKE '%%pollution%%'",
}
#: Example passages returned with a count.
EXAMPLES = 3


@dataclass(frozen=True)
class RecordQuery:
    """Which records a count covers; empty fields do not filter."""

    kind: str  # ntsb_report | casualty
    date_from: date | None = None
    date_to: date | None = None  # inclusive
    region: str = ""  # a US state, as NTSB records spell it ("Texas")
    make: str = ""  # aircraft make, its first words ("ROBINSON" for "ROBINSON HELICOPTER CO")
    category: str = ""  # aircraft category code ("HELI")
    weather: str = ""  # VMC | IMC
    flag: str = ""  # ISO 3166 alpha-3 flag state of any ship involved ("PAN")
    vessel_families: tuple[str, ...] = ()  # vessel type families ("bulk carrier"), any of them
    #: a pattern over the type names that say a family in their own words ("bulk"); the family's
    #: other types (ore and cement carriers with bulk carriers) are counted too and listed in
    #: ``RecordCount.related`` (``archive.vessel_types.own_words``)
    vessel_named: str = ""
    severity: str = ""  # very serious | serious | less serious
    initial_event: str = ""  # a word of the IMO initial event ("collision", "grounding")
    mode: str = ""  # an investigation report's mode ("marine", "rail", "aviation")
    outcomes: tuple[str, ...] = ()  # keys of OUTCOMES, all required

    def scope_only(self) -> RecordQuery:
        """The same query without its outcomes: the set the count is taken among."""
        return RecordQuery(**{**self.__dict__, "outcomes": ()})

    def whole_families(self) -> RecordQuery:
        """The same query with no related types to list (a pattern names its family whole)."""
        return RecordQuery(**{**self.__dict__, "vessel_named": ""})


@dataclass(frozen=True)
class RecordCount:
    """``matched`` records of ``scope`` (scope and outcomes), with passages to cite."""

    matched: int
    scope: int
    examples: list[Passage] = field(default_factory=list)
    #: records of ``matched`` whose type names the family otherwise (type name, count): said
    #: with the count ("Ore Carrier" among bulk carriers)
    related: list[tuple[str, int]] = field(default_factory=list)


def where_clause(query: RecordQuery) -> tuple[sql.Composed, dict[str, Any]]:
    """The SQL condition on ``documents d`` for ``query`` and its parameters."""
    parts = [sql.SQL("d.kind = %(kind)s"), sql.SQL("d.parent_id IS NULL")]
    params: dict[str, Any] = {"kind": query.kind}
    checks: list[tuple[str, Any, str]] = [
        ("date_from", query.date_from, "d.date >= %(date_from)s"),
        ("date_to", query.date_to, "d.date <= %(date_to)s"),
        ("region", query.region.upper(), "d.region = %(region)s"),
        ("make", query.make.upper(), "d.make ~ ('^' || %(make)s || '\\M')"),
        ("category", query.category.upper(), "d.aircraft_category = %(category)s"),
        ("weather", query.weather.upper(), "d.weather = %(weather)s"),
        ("flag", query.flag.upper(), "%(flag)s = ANY(d.flags)"),
        ("families", list(query.vessel_families), "d.vessel_family = ANY(%(families)s)"),
        ("severity", query.severity.lower(), "d.severity = %(severity)s"),
        ("initial_event", query.initial_event.lower(), "d.initial_event LIKE %(initial_event)s"),
        ("mode", query.mode.lower(), "d.metadata->>'mode' = %(mode)s"),
    ]
    for name, value, condition in checks:
        if value:
            parts.append(sql.SQL(condition))
            params[name] = f"%{value}%" if name == "initial_event" else value
    for outcome in query.outcomes:
        parts.append(sql.SQL(OUTCOMES[outcome]))
    return sql.SQL(" AND ").join(parts), params


async def count_records(store: Store, query: RecordQuery) -> RecordCount:
    """Count ``query``'s records and its scope exactly; cite the latest matched records."""
    unknown = [o for o in query.outcomes if o not in OUTCOMES]
    if unknown:
        raise ValueError(f"unknown outcome(s) {unknown}; known: {sorted(OUTCOMES)}")
    where, params = where_clause(query)
    scope_where, scope_params = where_clause(query.scope_only())
    counted = sql.SQL(
        "SELECT (SELECT count(*) FROM documents d WHERE {}) AS matched,"
        " (SELECT count(*) FROM documents d WHERE {}) AS scope"
    ).format(where, scope_where)
    examples = sql.SQL(
        "SELECT DISTINCT ON (d.date, d.doc_id) {columns} FROM documents d"
        " JOIN chunks c USING (doc_id) WHERE {where}"
        " ORDER BY d.date DESC NULLS LAST, d.doc_id, c.ordinal LIMIT %(limit)s"
    ).format(columns=sql.SQL(PASSAGE_COLUMNS), where=where)
    async with store.pool.connection() as conn:
        cur = await conn.execute(counted, {**scope_params, **params})
        row: Any = await cur.fetchone()
        cur = await conn.execute(examples, {**params, "limit": EXAMPLES})
        rows: Any = await cur.fetchall()
    return RecordCount(
        matched=int(row["matched"]),
        scope=int(row["scope"]),
        examples=[passage_of(r) for r in rows],
        related=await related_types(store, query),
    )


async def related_types(store: Store, query: RecordQuery) -> list[tuple[str, int]]:
    """The records ``query`` matches whose type name does not say their family ("Ore Carrier"
    among bulk carriers), per type name (spellings that differ only in case together, the most
    used one shown), most first; [] when the query names no family in its own words."""
    if not query.vessel_named:
        return []
    where, params = where_clause(query)
    statement = sql.SQL(
        "SELECT d.vessel_type, count(*) AS n FROM documents d WHERE {}"
        " AND NOT coalesce(d.vessel_type, '') ~* %(named)s GROUP BY d.vessel_type"
    ).format(where)
    async with store.pool.connection() as conn:
        cur = await conn.execute(statement, {**params, "named": query.vessel_named})
        rows: Any = await cur.fetchall()
    spellings: dict[str, list[tuple[int, str]]] = {}
    for r in rows:
        name = str(r["vessel_type"] or "no type recorded")
        spellings.setdefault(name.casefold(), []).append((int(r["n"]), name))
    merged = [(max(found)[1], sum(n for n, _ in found)) for found in spellings.values()]
    return sorted(merged, key=lambda t: (-t[1], t[0]))
