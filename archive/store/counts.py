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
Outcome = Literal[
    "fatal",
    "injured",
    "serious",
    "fatal_or_serious",
    "not_fatal_or_serious",
    "not_fatal",
    "no_injuries",
    "minor_only",
    "loss_of_life",
    "dead_or_missing",
    "total_loss",
    "pollution",
]
OUTCOMES: dict[str, str] = {
    "fatal": "d.fatalities > 0",
    "injured": "(d.fatalities + d.serious_injuries + d.minor_injuries > 0"
    " OR d.consequences LIKE '%%serious injuries%%')",
    "serious": "d.serious_injuries > 0",
    "fatal_or_serious": "(d.fatalities > 0 OR d.serious_injuries > 0)",
    "not_fatal_or_serious": "d.fatalities + d.serious_injuries = 0",
    "not_fatal": "d.fatalities = 0",
    "no_injuries": "d.fatalities + d.serious_injuries + d.minor_injuries = 0",
    "minor_only": "d.minor_injuries > 0 AND d.fatalities + d.serious_injuries = 0",
    "loss_of_life": "d.consequences LIKE '%%loss of life%%'",
    # "deaths or missing people": the record counts someone dead or missing, or says loss of life
    "dead_or_missing": "(d.consequences LIKE '%%loss of life%%' OR EXISTS (SELECT 1 FROM chunks c"
    " WHERE c.doc_id = d.doc_id AND c.content ~ 'Dead or missing [a-z]+: [1-9]'))",
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
    years: tuple[int, ...] = ()  # listed years with gaps between them, any of them (2010, 2013)
    months: tuple[int, ...] = ()  # months of any year, any of them ((12, 1, 2): in winter)
    region: str = ""  # a US state, as NTSB records spell it ("Texas")
    regions: tuple[str, ...] = ()  # US states, any of them ("Arkansas or Indiana", "New England")
    #: aircraft make, the first words of any aircraft's make ("ROBINSON" for "ROBINSON
    #: HELICOPTER CO"), or a pattern of such words ("(NEW )?PIPER")
    make: str = ""
    #: a pattern over the model of an aircraft of ``make``, its spaces and hyphens written "-"
    #: ("^PA-?28(?![0-9])" for "PA-28R-201" and "PA 28")
    model: str = ""
    category: str = ""  # aircraft category code ("HELI")
    weather: str = ""  # VMC | IMC
    weekend: bool = False  # on a Saturday or a Sunday
    min_aircraft: int = 0  # at least this many aircraft involved
    purpose: str = ""  # any aircraft's purpose of flight code ("INST", "PERS", "AAPL")
    far_part: str = ""  # any aircraft's operating rule, 14 CFR part ("121", "135")
    damage: str = ""  # any aircraft's damage ("destroyed")
    min_fatalities: int = 0  # at least this many people killed
    flag: str = ""  # ISO 3166 alpha-3 flag state of any ship involved ("PAN")
    flags_any: tuple[str, ...] = ()  # flag states, any ship under any of them ("FRA", "ATG")
    class_society: str = ""  # the ship's classification society (archive.vessel_types)
    min_ships: int = 0  # at least this many ships involved
    min_tonnage: int = 0  # the ship's gross tonnage at least this
    #: dead or missing people of these groups ("crew", "passengers", "others"), any of them
    dead_missing: tuple[str, ...] = ()
    vessel_families: tuple[str, ...] = ()  # vessel type families ("bulk carrier"), any of them
    #: a pattern over the type names that say a family in their own words ("bulk"); the family's
    #: other types (ore and cement carriers with bulk carriers) are counted too and listed in
    #: ``RecordCount.related`` (``archive.vessel_types.own_words``)
    vessel_named: str = ""
    #: a pattern the record's type name must hold: the kind of a family a question qualifies
    #: ("chemical" for "chemical tankers")
    vessel_kind: str = ""
    severity: str = ""  # very serious | serious | less serious
    #: a pattern over the IMO initial event, lower case ("collision", "sinking|sank|founder")
    initial_event: str = ""
    mode: str = ""  # an investigation report's mode ("marine", "rail", "aviation")
    area: str = ""  # a pattern over a casualty's recorded location ("north\\s+sea")
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


#: A comma-separated field ("AIR, HELI": one value per aircraft) as an array of its values.
_EACH = "string_to_array(replace(upper({}), ' ', ''), ',')"
#: Any aircraft's make starts with the words of the ``make`` pattern.
_ANY_MAKE = "d.make ~ ('(^|, )(' || %(make)s || ')\\M')"
#: An aircraft of the make whose model the ``model`` pattern matches (the make and model fields
#: list one value per aircraft, in the same order).
_MAKE_MODEL = (
    "EXISTS (SELECT 1 FROM unnest(string_to_array(d.make, ', '), string_to_array(d.model, ', '))"
    " AS a(mk, md) WHERE a.mk ~ ('^(' || %(model_make)s || ')\\M')"
    " AND regexp_replace(a.md, '[[:space:]-]+', '-', 'g') ~ %(model)s)"
)
#: A casualty whose record states dead or missing people of a group ("Dead or missing crew: 2.").
_DEAD_MISSING = (
    "EXISTS (SELECT 1 FROM chunks c WHERE c.doc_id = d.doc_id"
    " AND c.content ~ ('Dead or missing (' || %(dead_missing)s || '): [1-9]'))"
)
_WHOLE_NUMBER = "(CASE WHEN d.metadata->>'{0}' ~ '^[0-9]+$' THEN (d.metadata->>'{0}')::bigint END)"


def _more_checks(query: RecordQuery) -> list[tuple[str, Any, str]]:
    """The conditions of the fields beyond a record's kind, dates, place and type."""
    states = [s.upper() for s in (*query.regions, *([query.region] if query.regions else []))]
    return [
        ("regions", states, "d.region = ANY(%(regions)s)"),
        ("vessel_kind", query.vessel_kind, "coalesce(d.vessel_type, '') ~* %(vessel_kind)s"),
        ("model", query.model.upper(), _MAKE_MODEL),
        ("model_make", query.make.upper() if query.model else "", "TRUE"),
        ("weekend", query.weekend, "extract(isodow FROM d.date) >= 6"),
        (
            "min_aircraft",
            query.min_aircraft,
            "cardinality(string_to_array(d.aircraft_category, ',')) >= %(min_aircraft)s",
        ),
        (
            "purpose",
            query.purpose.upper(),
            "%(purpose)s = ANY(" + _EACH.format("d.metadata->>'purpose'") + ")",
        ),
        (
            "far_part",
            query.far_part.zfill(3) if query.far_part else "",
            "%(far_part)s = ANY(" + _EACH.format("d.metadata->>'far_part'") + ")",
        ),
        (
            "damage",
            query.damage.upper(),
            "upper(d.metadata->>'damage') LIKE '%%' || %(damage)s || '%%'",
        ),
        ("min_fatalities", query.min_fatalities, "d.fatalities >= %(min_fatalities)s"),
        ("flags_any", [f.upper() for f in query.flags_any], "d.flags && %(flags_any)s"),
        ("class_society", query.class_society, "d.class_society = %(class_society)s"),
        ("min_ships", query.min_ships, f"{_WHOLE_NUMBER.format('ships')} >= %(min_ships)s"),
        (
            "min_tonnage",
            query.min_tonnage,
            f"{_WHOLE_NUMBER.format('gross_tonnage')} >= %(min_tonnage)s",
        ),
        ("dead_missing", "|".join(query.dead_missing), _DEAD_MISSING),
        ("years", list(query.years), "extract(year FROM d.date)::int = ANY(%(years)s)"),
        ("months", list(query.months), "extract(month FROM d.date)::int = ANY(%(months)s)"),
        ("area", query.area, "coalesce(d.metadata->>'location', '') ~* %(area)s"),
    ]


def where_clause(query: RecordQuery) -> tuple[sql.Composed, dict[str, Any]]:
    """The SQL condition on ``documents d`` for ``query`` and its parameters."""
    parts = [sql.SQL("d.kind = %(kind)s"), sql.SQL("d.parent_id IS NULL")]
    params: dict[str, Any] = {"kind": query.kind}
    checks: list[tuple[str, Any, str]] = [
        ("date_from", query.date_from, "d.date >= %(date_from)s"),
        ("date_to", query.date_to, "d.date <= %(date_to)s"),
        ("region", "" if query.regions else query.region.upper(), "d.region = %(region)s"),
        ("make", "" if query.model else query.make.upper(), _ANY_MAKE),
        (
            "category",
            query.category.upper(),
            f"%(category)s = ANY({_EACH.format('d.aircraft_category')})",
        ),
        ("weather", query.weather.upper(), "d.weather = %(weather)s"),
        ("flag", query.flag.upper(), "%(flag)s = ANY(d.flags)"),
        ("families", list(query.vessel_families), "d.vessel_family = ANY(%(families)s)"),
        ("severity", query.severity.lower(), "d.severity = %(severity)s"),
        ("initial_event", query.initial_event.lower(), "d.initial_event ~ %(initial_event)s"),
        ("mode", query.mode.lower(), "d.metadata->>'mode' = %(mode)s"),
        *_more_checks(query),
    ]
    for name, value, condition in checks:
        if value:
            parts.append(sql.SQL(condition))
            params[name] = value
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
        cur = await conn.execute(examples, {**params, "limit": EXAMPLES * 4})
        rows: Any = await cur.fetchall()
    return RecordCount(
        matched=int(row["matched"]),
        scope=int(row["scope"]),
        examples=distinct_incidents([passage_of(r) for r in rows])[:EXAMPLES],
        related=await related_types(store, query),
    )


def distinct_incidents(passages: list[Passage]) -> list[Passage]:
    """``passages`` with one per incident: two records of the same date whose titles differ only
    in their leading record number ("C0007677 PACIFIC — …" and "C0008321 PACIFIC — …") tell one
    incident, and an example list names it once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for p in passages:
        key = (str(p.get("date") or ""), str(p.get("title") or "").partition(" ")[2].casefold())
        if key[1] and key in seen:
            continue
        seen.add(key)
        out.append(p)
    return out


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
