"""A reply that points back to an earlier one: "no suggestion other than what Marcus wrote",
"Thanks, Rob.", "I agree with Martin". Such a reply is the thread's latest word but not its
answer; the answer is the named replier's reply before it. "As Marcus said, ..." and "to add
onto what Marcus said: ..." are not pointers: they go on with an answer of their own. Pure: no
store, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from answers.threads import Message

_NAME = r"(?P<name>[A-Z][a-z]{1,20})"
#: Words that hand the answer to someone named: thanking them at the reply's opening, agreeing
#: with them, or pointing at what they wrote.
_DEFERS = (
    re.compile(rf"\A\W*(?i:thanks|thank\s+you|many\s+thanks)(?:,\s*|\s+){_NAME}\b"),
    re.compile(rf"\bother\s+than\s+what\s+{_NAME}\s+(?:wrote|said|suggested|posted)\b"),
    re.compile(rf"\b(?:agree|concur)\s+with\s+(?:what\s+)?{_NAME}\b"),
    re.compile(rf"\b(?:second|seconding|\+1\s+to)\s+(?:what\s+)?{_NAME}\b"),
    re.compile(rf"\b{_NAME}\s+makes?\s+(?:excellent|good|valid|great)\s+points?\b"),
)
#: A reply opening by thanking, naming no one: it thanks the message it answers.
_BARE_THANKS = re.compile(r"\A\W*(?:thanks|thank\s+you|many\s+thanks)\s*[.!]", re.IGNORECASE)
#: Only the opening of a reply is read for a pointer (later text is its own).
OPENING_CHARS = 300


def named_in_pointer(text: str) -> str | None:
    """The first name a reply defers to in its opening, or None."""
    opening = text.strip()[:OPENING_CHARS]
    for pattern in _DEFERS:
        if m := pattern.search(opening):
            return m["name"]
    return None


def deferred_to(reply: Message, earlier: Sequence[Message], asker: str | None) -> Message | None:
    """The message among ``earlier`` (in reading order, before ``reply``) that ``reply`` points
    back to: the latest by another author whose first name it gives, or, a reply opening with a
    bare "Thanks." to another replier's message, that message; None when it points at no one
    there."""
    name = named_in_pointer(reply.text)
    if name is None:
        parent = next((m for m in earlier if m.message_id == reply.in_reply_to), None)
        thanked = _BARE_THANKS.search(reply.text.strip()[:OPENING_CHARS])
        if thanked and parent is not None and parent.key not in (reply.key, asker):
            return parent
        return None
    named = [m for m in earlier if m.key != reply.key and first_name(m.author) == name.casefold()]
    return named[-1] if named else None


def first_name(author: str) -> str:
    """An author's first name, folded ("Rob Kossler" -> "rob")."""
    words = re.findall(r"[A-Za-z]+", author.split("<")[0])
    return words[0].casefold() if words else ""
