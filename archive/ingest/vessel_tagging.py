"""Linking mail and files to the vessels they mention (by IMO number or multi-word name)."""

from __future__ import annotations

import logging
import re

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
    """Tag untagged documents of :data:`TAGGED_KINDS` with the vessels they mention (after
    giving rows stored without them their vessel family and class society)."""
    await classify_stored_vessels(store)
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT vessel_key, name, imo FROM vessels")
        registry = await cur.fetchall()
        names = {
            tuple(_words(r["name"])): r["vessel_key"]
            for r in registry
            if len(_words(r["name"])) >= 2
        }
        imos = {r["imo"]: r["vessel_key"] for r in registry if r["imo"]}
        if not registry:
            return 0
        cur = await conn.execute(
            """SELECT d.doc_id, d.title || E'\\n' || string_agg(c.content, E'\\n') AS text
               FROM documents d JOIN chunks c USING (doc_id)
               WHERE d.kind = ANY(%s)
                 AND NOT EXISTS (SELECT 1 FROM document_vessels dv WHERE dv.doc_id = d.doc_id)
               GROUP BY d.doc_id, d.title""",
            (TAGGED_KINDS,),
        )
        tagged = 0
        for row in await cur.fetchall():
            keys = mentioned(row["text"], names, imos)
            if not keys:
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
            tagged += 1
    logger.info("tagged %d documents with the vessels they mention", tagged)
    return tagged
