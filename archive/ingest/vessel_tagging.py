"""Linking mail and files to the vessels they mention (by IMO number or multi-word name)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from psycopg import AsyncConnection

from archive.ingest.loaders import REGISTRY
from archive.store.database import Store
from archive.store.vessels import classify_stored_vessels

logger = logging.getLogger(__name__)


def tagged_kinds() -> list[str]:
    """The kinds whose text is read for vessel mentions (those declaring ``vessel_mentions``:
    mail, attachments, plain text, thread digests; records name their vessels themselves)."""
    return [kind.name for kind in REGISTRY.kinds() if kind.vessel_mentions]


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


@dataclass(frozen=True)
class VesselTagging:
    """What one tagging pass did."""

    tagged: int  # documents linked to the vessels they mention
    read: int  # documents whose text was read


async def tag_vessel_mentions(store: Store) -> VesselTagging:
    """Tag the documents of :func:`tagged_kinds` with the vessels they mention.

    Documents not read before are read against the whole registry. Documents read before that
    name no vessel are looked at again only for the vessels added to the registry since the
    last pass, and only where the BM25 postings hold all the words of such a name (or its IMO
    number), so a growing registry does not make every document be read again. Each document
    is marked read in the transaction that tags it, and the registry's high-water mark moves
    at the end, so a killed run resumes where it stopped. (Rows stored without their vessel
    family and class society get them first.)
    """
    await classify_stored_vessels(store)
    async with store.pool.connection() as conn:
        cur = await conn.execute("SELECT vessel_key, name, imo, added_seq FROM vessels")
        registry = await cur.fetchall()
        if not registry:
            return VesselTagging(0, 0)
        seen = max(int(r["added_seq"]) for r in registry)
        names = {
            tuple(_words(r["name"])): r["vessel_key"]
            for r in registry
            if len(_words(r["name"])) >= 2
        }
        imos = {r["imo"]: r["vessel_key"] for r in registry if r["imo"]}
        rows = await _unread(conn)
        mark = await _high_water_mark(conn)
        tagged = await _tag(conn, rows, names, imos, seen)
        if seen > mark:
            again = await _mentioning_new(conn, mark)
            rows += again
            tagged += await _tag(conn, again, names, imos, seen)
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ('vessel_tag_seq', %s)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (str(seen),),
            )
    logger.info("read %d documents, tagged %d with the vessels they mention", len(rows), tagged)
    return VesselTagging(tagged, len(rows))


_TEXT = """SELECT d.doc_id, d.title || E'\\n' || string_agg(c.content, E'\\n') AS text
           FROM documents d JOIN chunks c USING (doc_id)
           WHERE d.kind = ANY(%(kinds)s)
             AND NOT EXISTS (SELECT 1 FROM document_vessels dv WHERE dv.doc_id = d.doc_id)
             AND {which}
           GROUP BY d.doc_id, d.title"""


async def _unread(conn: AsyncConnection[Any]) -> list[dict[str, Any]]:
    """Title and text of the documents the tagger has not read."""
    which = "NOT EXISTS (SELECT 1 FROM vessel_scanned s WHERE s.doc_id = d.doc_id)"
    cur = await conn.execute(_TEXT.format(which=which), {"kinds": tagged_kinds()})  # type: ignore[arg-type]
    return list(await cur.fetchall())


async def _mentioning_new(conn: AsyncConnection[Any], mark: int) -> list[dict[str, Any]]:
    """Title and text of the untagged documents whose chunks hold every word of the name, or
    the IMO number, of a vessel added after ``mark``."""
    which = """d.doc_id IN (
        SELECT c.doc_id FROM vessels v
        CROSS JOIN LATERAL (
            SELECT ARRAY(SELECT lexeme FROM unnest(to_tsvector('english', v.name))) AS words
        ) n
        JOIN LATERAL (
            SELECT p.chunk_id FROM bm25_postings p WHERE p.lexeme = ANY(n.words)
            GROUP BY p.chunk_id HAVING count(*) = cardinality(n.words)
            UNION
            SELECT p.chunk_id FROM bm25_postings p
            WHERE v.imo IS NOT NULL AND p.lexeme IN (v.imo, 'imo' || v.imo)
        ) m ON true
        JOIN chunks c ON c.chunk_id = m.chunk_id
        WHERE v.added_seq > %(mark)s AND (cardinality(n.words) >= 2 OR v.imo IS NOT NULL))"""
    cur = await conn.execute(
        _TEXT.format(which=which),  # type: ignore[arg-type]
        {"kinds": tagged_kinds(), "mark": mark},
    )
    return list(await cur.fetchall())


async def _high_water_mark(conn: AsyncConnection[Any]) -> int:
    cur = await conn.execute("SELECT value FROM meta WHERE key = 'vessel_tag_seq'")
    row = await cur.fetchone()
    return int(row["value"]) if row else 0


async def _tag(
    conn: AsyncConnection[Any],
    rows: list[dict[str, Any]],
    names: dict[tuple[str, ...], str],
    imos: dict[str, str],
    seen: int,
) -> int:
    """Link each of ``rows`` to the vessels its text names; mark every one read."""
    tagged = 0
    untagged: list[str] = []  # read, no vessel named: marked all at once below
    for row in rows:
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
            await _mark_scanned(conn, [row["doc_id"]], seen)
        tagged += 1
    await _mark_scanned(conn, untagged, seen)
    return tagged


async def _mark_scanned(conn: AsyncConnection[Any], doc_ids: list[str], seen: int) -> None:
    await conn.execute(
        "INSERT INTO vessel_scanned (doc_id, registry) SELECT unnest(%s::text[]), %s"
        " ON CONFLICT (doc_id) DO UPDATE SET registry = EXCLUDED.registry",
        (doc_ids, f"seq:{seen}"),
    )
