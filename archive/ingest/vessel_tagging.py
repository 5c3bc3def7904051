"""Linking mail and files to the vessels they mention (by IMO number or multi-word name)."""

from __future__ import annotations

import logging
import re
from typing import Any

from psycopg import AsyncConnection

from archive.store.database import Store
from archive.store.vessels import classify_stored_vessels

logger = logging.getLogger(__name__)

TAGGED_KINDS = ["email", "attachment", "text", "thread_digest"]
_WORD = re.compile(r"[a-z0-9]+")
_IMO = re.compile(r"\b(?:imo[\s:#-]*)?(\d{7})\b", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def mentioned(text: str, names: dict[tuple[str, ...], str], imos: dict[str, str]) -> list[str]:
    """Registry keys of the vessels ``text`` names, in order of first mention."""
    found: dict[str, None] = {}
    for match in _IMO.finditer(text):
        if match.group(1) in imos:
            found.setdefault(imos[match.group(1)])
    words = _words(text)
    longest = max((len(n) for n in names), default=0)
    for i in range(len(words)):
        for size in range(2, longest + 1):
            key = names.get(tuple(words[i : i + size]))
            if key:
                found.setdefault(key)
    return list(found)


async def tag_vessel_mentions(store: Store) -> int:
    """Tag the documents of :data:`TAGGED_KINDS` not yet read against the current vessel
    registry with the vessels they mention; each document is marked read in the transaction
    that tags it, so a killed run resumes where it stopped. (rows stored
    without their vessel family and class society get them first)."""
    await classify_stored_vessels(store)
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT vessel_key, name, imo FROM vessels")
        registry = await cur.fetchall()
        if not registry:
            return 0
        cur = await conn.execute(
            "SELECT md5(string_agg(vessel_key || ':' || name || ':' || coalesce(imo, ''), ','"
            " ORDER BY vessel_key)) AS registry FROM vessels"
        )
        fingerprint = (await cur.fetchone())["registry"]  # type: ignore[index]
        names = {
            tuple(_words(r["name"])): r["vessel_key"]
            for r in registry
            if len(_words(r["name"])) >= 2
        }
        imos = {r["imo"]: r["vessel_key"] for r in registry if r["imo"]}
        cur = await conn.execute(
            """SELECT d.doc_id, d.title || E'\\n' || string_agg(c.content, E'\\n') AS text
               FROM documents d JOIN chunks c USING (doc_id)
               WHERE d.kind = ANY(%s)
                 AND NOT EXISTS (SELECT 1 FROM document_vessels dv WHERE dv.doc_id = d.doc_id)
                 AND NOT EXISTS (SELECT 1 FROM vessel_scanned s
                                 WHERE s.doc_id = d.doc_id AND s.registry = %s)
               GROUP BY d.doc_id, d.title""",
            (TAGGED_KINDS, fingerprint),
        )
        tagged = 0
        untagged: list[str] = []  # read, no vessel named: marked all at once below
        for row in await cur.fetchall():
            keys = mentioned(row["text"], names, imos)
            if not keys:
                untagged.append(row["doc_id"])
                continue
            async with conn.transaction():
                for key in keys:
                    await conn.execute(
                        "INSERT INTO document_vessels (doc_id, vessel_key) VALUES (%s, %s)"
                        " ON CONFLICT DO NOTHING",
                        (row["doc_id"], key),
                    )
                for table in ("documents", "chunks"):
                    await conn.execute(
                        f"UPDATE {table} t SET vessel_name = v.name, imo = v.imo,"  # noqa: S608
                        " vessel_type = v.vessel_type, vessel_class = v.vessel_class,"
                        " vessel_family = v.vessel_family, class_society = v.class_society"
                        " FROM vessels v WHERE v.vessel_key = %s AND t.doc_id = %s",
                        (keys[0], row["doc_id"]),
                    )
                await _mark_scanned(conn, [row["doc_id"]], fingerprint)
            tagged += 1
        await _mark_scanned(conn, untagged, fingerprint)
    logger.info("tagged %d documents with the vessels they mention", tagged)
    return tagged


async def _mark_scanned(conn: AsyncConnection[Any], doc_ids: list[str], fingerprint: str) -> None:
    await conn.execute(
        "INSERT INTO vessel_scanned (doc_id, registry) SELECT unnest(%s::text[]), %s"
        " ON CONFLICT (doc_id) DO UPDATE SET registry = EXCLUDED.registry",
        (doc_ids, fingerprint),
    )
