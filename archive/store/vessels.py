"""The vessel registry built at ingest, and the collection's counts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from archive.store.database import Store


@dataclass(frozen=True)
class RegisteredVessel:
    """A ship known to the archive."""

    key: str
    name: str
    imo: str | None
    vessel_type: str | None
    vessel_class: str | None


async def registered_vessels(store: Store) -> list[RegisteredVessel]:
    """Every vessel in the registry, by name."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT vessel_key, name, imo, vessel_type, vessel_class FROM vessels ORDER BY name"
        )
        return [
            RegisteredVessel(
                r["vessel_key"], r["name"], r["imo"], r["vessel_type"], r["vessel_class"]
            )
            for r in await cur.fetchall()
        ]


async def vessel_documents(store: Store, keys: Sequence[str]) -> list[str]:
    """Ids of the documents that name any of the vessels ``keys``."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT DISTINCT doc_id FROM document_vessels WHERE vessel_key = ANY(%s)", (list(keys),)
        )
        return [r["doc_id"] for r in await cur.fetchall()]


async def collection_counts(store: Store) -> dict[str, int]:
    """Documents, chunks, threads, vessels and ontology topics held by the collection."""
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT (SELECT count(*) FROM documents) AS documents,
                      (SELECT count(*) FROM chunks) AS chunks,
                      (SELECT count(DISTINCT thread_id) FROM documents
                        WHERE kind = 'email' AND thread_id IS NOT NULL) AS threads,
                      (SELECT count(*) FROM vessels) AS vessels,
                      (SELECT count(*) FROM topics) AS topics"""
        )
        row = await cur.fetchone()
        assert row is not None
        return {key: int(value) for key, value in row.items()}
