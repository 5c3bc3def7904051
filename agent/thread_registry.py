"""The thread registry: who owns a thread, its title and first question (``bosun_threads``)."""

from __future__ import annotations

from psycopg import AsyncConnection
from psycopg.rows import DictRow

from text.storable import displayable


class ThreadNotFound(LookupError):
    """The thread belongs to another user (reported as not found, so ids are not probed)."""


#: A thread's title: its first question cut to this many characters at a word boundary.
TITLE_CHARS = 60
#: The first question as kept beside the title (shown in full on hover).
QUESTION_CHARS = 1000


def thread_title(question: str, limit: int = TITLE_CHARS) -> str:
    """``question`` on one line, bidi controls removed, and if longer than ``limit`` characters
    cut after the last whole word that fits, with an ellipsis ("" for a blank question)."""
    line = " ".join(displayable(question).split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]  # room for the ellipsis
    space = cut.rfind(" ")
    # Back to the last whole word (unless the cut fell just after one), if one is not too far
    # back; else one long word is cut.
    if line[len(cut)] != " " and space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "…"


async def claim_thread(
    conn: AsyncConnection[DictRow], thread_id: str, user: str, question: str
) -> None:
    """Register ``thread_id`` as ``user``'s (titled by its first question) or touch it; raises
    :class:`ThreadNotFound` when another user owns it."""
    cur = await conn.execute(
        """INSERT INTO bosun_threads (thread_id, user_id, title, question)
           VALUES (%s, %s, %s, %s)
           ON CONFLICT (thread_id) DO UPDATE SET updated_at = now()
               WHERE bosun_threads.user_id = EXCLUDED.user_id
           RETURNING user_id""",
        (
            thread_id,
            user,
            thread_title(question) or "New conversation",
            thread_title(question, QUESTION_CHARS),
        ),
    )
    if await cur.fetchone() is None:
        raise ThreadNotFound(thread_id)
