"""The messages of whole mail threads, as passages that know their place in the thread: who
wrote each (the From name; a mailing list's "Ann via List" is Ann), the message it answers and
how deep it sits. A fix or cause question is answered from the replies of the thread its best
passage belongs to, not only from the chunks retrieval happened to rank."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from archive.store.database import Store
from archive.store.passages import PASSAGE_COLUMNS, Passage, passage_of

#: Most chunks read for one thread (a long thread's oldest are kept: the question and replies).
MAX_THREAD_CHUNKS = 120
#: A mailing list rewrites From to "Name via List <list@...>": the name is the author.
_VIA = re.compile(r"\s+via\s+\S.*$", re.IGNORECASE)


def author_of(from_name: str, sender: str | None) -> str:
    """Who wrote a message: its From name without a list's " via List", else its address."""
    name = _VIA.sub("", from_name or "").strip().strip("\"'")
    return name or (sender or "").strip() or "unknown sender"


async def thread_messages(
    store: Store, thread_ids: Sequence[str], *, limit: int = MAX_THREAD_CHUNKS
) -> dict[str, list[Passage]]:
    """Every chunk of the emails of ``thread_ids`` (attachments and digests aside), each with
    ``author``, ``in_reply_to`` and ``depth``, oldest message first; an unknown thread is absent."""
    if not thread_ids:
        return {}
    async with store.pool.connection() as conn:
        cur = await conn.execute(
            f"""SELECT {PASSAGE_COLUMNS}, d.metadata AS doc_metadata
               FROM chunks c JOIN documents d USING (doc_id)
               WHERE d.thread_id = ANY(%s) AND d.kind = 'email'
               ORDER BY d.thread_id, d.date NULLS LAST, d.doc_id, c.ordinal
               LIMIT %s""",
            (list(thread_ids), limit * len(thread_ids)),
        )
        rows: Any = await cur.fetchall()
    out: dict[str, list[Passage]] = {}
    for row in rows:
        meta = row["doc_metadata"]
        meta = meta if isinstance(meta, dict) else json.loads(meta or "{}")
        passage = passage_of(row)
        passage["author"] = author_of(str(meta.get("from_name") or ""), row["sender"])
        passage["in_reply_to"] = str(meta.get("in_reply_to") or "") or None
        passage["depth"] = len(str(meta.get("references") or "").split())
        members = out.setdefault(row["thread_id"], [])
        if len(members) < limit:
            members.append(passage)
    return out
