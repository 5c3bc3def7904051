"""The vessel registry built at ingest, and the collection's counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from psycopg import AsyncConnection, sql
from psycopg.rows import dict_row

from archive.store.schema import check_collection_name
from archive.vessel_types import class_society, vessel_family

if TYPE_CHECKING:  # `bosun status` reads counts without the store's stack (numpy, the pool)
    from archive.store.database import Store


@dataclass(frozen=True)
class RegisteredVessel:
    """A ship known to the archive."""

    key: str
    name: str
    imo: str | None
    vessel_type: str | None
    vessel_class: str | None
    vessel_family: str | None = None  # archive.vessel_types family of vessel_type
    class_society: str | None = None  # archive.vessel_types society of vessel_class


async def registered_vessels(store: Store) -> list[RegisteredVessel]:
    """Every vessel in the registry, by name."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT vessel_key, name, imo, vessel_type, vessel_class, vessel_family,"
            " class_society FROM vessels ORDER BY name"
        )
        rows = cast(list[dict[str, Any]], await cur.fetchall())  # the pool's dict_row
        return [RegisteredVessel(r.pop("vessel_key"), **r) for r in rows]


async def classify_stored_vessels(store: Store) -> int:
    """Fill the vessel family and class society of registry, document and chunk rows stored
    without them (before migration 005); returns the distinct spellings classified."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT DISTINCT 'type' AS what, vessel_type AS spelled FROM vessels
                   WHERE vessel_type IS NOT NULL AND vessel_family IS NULL
               UNION SELECT DISTINCT 'class', vessel_class FROM vessels
                   WHERE vessel_class IS NOT NULL AND class_society IS NULL"""
        )
        rows = cast(list[dict[str, str]], await cur.fetchall())  # the pool's dict_row
        todo = [(r["what"], r["spelled"]) for r in rows]
        for what, spelled in todo:
            source, target = ("vessel_type", "vessel_family")
            value = vessel_family(spelled)
            if what == "class":
                source, target, value = "vessel_class", "class_society", class_society(spelled)
            if value is None:
                continue
            for table in ("vessels", "documents", "chunks"):
                await conn.execute(
                    f"UPDATE {table} SET {target} = %s"  # noqa: S608
                    f" WHERE {source} = %s AND {target} IS NULL",
                    (value, spelled),
                )
    return len(todo)


async def vessel_documents(store: Store, keys: Sequence[str]) -> list[str]:
    """Ids of the documents that name any of the vessels ``keys``."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT doc_id FROM document_vessels WHERE vessel_key = ANY(%s)", (list(keys),)
        )
        return [r["doc_id"] for r in await cur.fetchall()]


@dataclass(frozen=True)
class ArchiveExamples:
    """What a greeting can suggest asking about: things the archive really holds."""

    documents: int  # 0: nothing ingested yet
    report_no: str | None = None  # the report with the most passages
    vessel: str | None = None  # the vessel the most documents name


async def archive_examples(store: Store) -> ArchiveExamples:
    """:class:`ArchiveExamples` of the collection, in one indexed statement."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT (SELECT count(*) FROM documents) AS documents,
                      (SELECT report_no FROM documents WHERE report_no IS NOT NULL
                        ORDER BY chunk_count DESC, report_no LIMIT 1) AS report_no,
                      (SELECT v.name FROM document_vessels dv JOIN vessels v USING (vessel_key)
                        GROUP BY v.vessel_key, v.name ORDER BY count(*) DESC, v.name
                        LIMIT 1) AS vessel"""
        )
        row = cast(dict[str, Any] | None, await cur.fetchone())
    if row is None:
        return ArchiveExamples(0)
    return ArchiveExamples(int(row["documents"]), row["report_no"], row["vessel"])


_COUNTS = """SELECT (SELECT count(*) FROM documents) AS documents,
                      (SELECT count(*) FROM chunks) AS chunks,
                      (SELECT count(DISTINCT thread_id) FROM documents
                        WHERE kind = 'email' AND thread_id IS NOT NULL) AS threads,
                      (SELECT count(*) FROM vessels) AS vessels,
                      (SELECT count(*) FROM topics) AS topics"""


async def collection_counts(store: Store) -> dict[str, int]:
    """Documents, chunks, threads, vessels and ontology topics held by the collection."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(_COUNTS)
        row = await cur.fetchone()
        assert row is not None
        return {key: int(value) for key, value in row.items()}


async def collection_status(uri: str, collection: str) -> dict[str, Any]:
    """:func:`collection_counts` and the embedding model of ``collection``, read without
    opening a :class:`Store` (no model, no migration: `bosun status`); a collection that does
    not exist yet reads as empty, its model as None."""
    schema = check_collection_name(collection)
    async with await AsyncConnection.connect(uri, autocommit=True, row_factory=dict_row) as conn:
        cur = await conn.execute(
            "SELECT to_regclass(%s) IS NOT NULL AS documents, to_regclass(%s) IS NOT NULL AS meta",
            (f"{schema}.documents", f"{schema}.meta"),
        )
        found = await cur.fetchone()
        if found is None or not (found["documents"] and found["meta"]):
            empty: dict[str, Any] = dict.fromkeys(("documents", "chunks", "threads"), 0)
            return {
                **empty,
                "vessels": 0,
                "topics": 0,
                "embedding_model": None,
                "embedding_dim": None,
            }
        await conn.execute(sql.SQL("SET search_path = {}, public").format(sql.Identifier(schema)))
        cur = await conn.execute(_COUNTS)
        counts = await cur.fetchone()
        assert counts is not None
        cur = await conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('embedding_model', 'embedding_dim')"
        )
        meta = {row["key"]: row["value"] for row in await cur.fetchall()}
    dim = meta.get("embedding_dim")
    return {
        **{key: int(value) for key, value in counts.items()},
        "embedding_model": meta.get("embedding_model"),
        "embedding_dim": int(dim) if dim else None,
    }
