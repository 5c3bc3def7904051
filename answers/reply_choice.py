"""Which reply of a mail thread answers the question, and which replies go with it.

Every reply by someone other than the asker that answers the question about as well as the
best one (its best sentence at least :data:`ELIGIBLE_SHARE` of the best reply's) is weighed by
what the thread and the list say of it:

- the asker confirmed it ("that fixed it"), or took it up: answered it directly with thanks or
  repeating its own terms ("Thanks, I installed Vivado 2021.1"), and did not say it failed;
- another replier endorsed it ("this is the right answer", "I agree with Rob");
- its author answers others on the list often (``standing``, read from the store);
- it says what was asked (a fix for how, a cause for why), not only questions back;
- it is not a third user's "same here" (one with nothing of its own is never the answer).

The chosen reply is said with the replies that belong to it: the earlier reply by another
replier that it answers and the later ones that answer it (one builds on the other: "I will
add that ..."), and its author's other replies that answer (a refinement, "Yes, the same
paragraph is there for the N32x"). Each sentence keeps its own message's citation. Pure: no
store, no model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from answers.deferral import deferred_to, first_name, named_in_pointer
from answers.threads import Message, Thread, denies, self_resolved, taken_up
from answers.units import Unit
from text.sentences import sentences
from text.words import content_stems, tokens

#: A reply whose best sentence scores this share of the best reply's answers the question.
ELIGIBLE_SHARE = 0.6
#: ... and a reply the asker confirmed, this share (the asker's word outweighs the question's).
CONFIRMED_SHARE = 0.35
#: A reply joins the answering one when its best sentence scores this share of that one's
#: (the share below which no sentence of a reply is said).
JOINED_SHARE = 0.4
#: What each kind of evidence adds to a reply's weight (its share of the best score, 0.6..1).
CONFIRMED = 1.0
#: The asker reporting, of the kind asked, what fixed it or what it was ("I was able to resolve
#: it by ..." for how, "my mistake was ..." for why): the asker's own word on the outcome.
RESOLVED = 0.5
TAKEN_UP = 0.5
ENDORSED = 0.5
STANDING = 0.5
SAYS_ASKED = 0.25
#: The asker's resolution reporting what was asked after every other eligible reply.
CONCLUDED = 0.5
QUESTIONS = 0.75  # times the share of its sentences that are questions
SAME_HERE = 1.0
#: A reply to a third user's side question answers that question, not the asker's problem.
SIDE_QUESTION = 0.5
#: The asker repeats this much of a reply's own terms (a term with a digit counts two).
UPTAKE_TERMS = 2
#: Only a reply's opening is read for "same here" and endorsements.
OPENING_CHARS = 300

_SAME_HERE = re.compile(
    r"\b(?:i|we)\b[^.?!\n]{0,60}?\b(?:exactly\s+|the\s+|exact\s+|very\s+)*same\s+(?:issue|problem"
    r"|error|thing|behaviou?r|question|trouble)|\bme\s+too\b|\bsame\s+here\b|^\W*\+1\b"
    r"|\bany\s+(?:update|news|progress)\b",
    re.IGNORECASE | re.MULTILINE,
)
_ENDORSES = re.compile(
    r"\b(?:this|that|it)\s+is\s+(?:the\s+)?(?:right|correct)\s+(?:answer|approach|way|fix)\b"
    r"|\b(?:this|that)(?:\s+is|'s)\s+(?:correct|right|exactly\s+right)\b",
    re.IGNORECASE,
)
_THANKS = re.compile(r"\A\W*(?:\w+\W+){0,3}?(?:thanks?|thank\s+you|many\s+thanks)\b", re.I)


@dataclass(frozen=True)
class Reply:
    """A reply (or the asker's own resolution) with its scored sentences."""

    message: Message
    units: list[Unit]
    scored: list[float]
    confirmed_by: Message | None

    @property
    def best(self) -> float:
        return max(self.scored, default=0.0)


def same_here(text: str) -> bool:
    """Whether a reply opens by reporting the same problem ("I've been having exactly the same
    issue", "me too", "any update?") rather than answering it."""
    return bool(_SAME_HERE.search(text.strip()[:OPENING_CHARS]))


def uptake(message: Message, thread: Thread) -> bool:
    """Whether the asker answered ``message`` directly, thanking it or repeating its own terms,
    without saying it failed."""
    for later in thread.messages[thread.messages.index(message) + 1 :]:
        if later.key != thread.asker or later.in_reply_to != message.message_id:
            continue
        if denies(later.text):
            return False
        thanked = bool(_THANKS.search(later.text))
        return thanked or taken_up(message, later, thread.problem) >= UPTAKE_TERMS
    return False


def endorsed(message: Message, thread: Thread) -> bool:
    """Whether another replier (not the asker, not its author) answered ``message`` endorsing
    it ("this is the right answer"), or named its author agreeing ("I agree with Rob")."""
    first = first_name(message.author)
    for later in thread.messages[thread.messages.index(message) + 1 :]:
        if later.key in (thread.asker, message.key):
            continue
        opening = later.text.strip()[:OPENING_CHARS]
        if later.in_reply_to == message.message_id and _ENDORSES.search(opening):
            return True
        named = named_in_pointer(later.text)
        if named is not None and named.casefold() == first:
            return True
    return False


def weight(reply: Reply, thread: Thread, top: float, wanted: Sequence[str]) -> float:
    """How strongly the thread and the list back ``reply`` as the answer (see the module)."""
    message = reply.message
    own = message.key != thread.asker
    units = reply.units
    questions = sum(u.text.rstrip().endswith("?") for u in units) / max(len(units), 1)
    score = reply.best / top if top > 0 else 0.0
    score += CONFIRMED * (reply.confirmed_by is not None)
    says_asked = any(u.role in wanted for u in units)
    score += RESOLVED * (not own and reports_asked(reply, wanted))
    score += TAKEN_UP * (own and uptake(message, thread))
    score += ENDORSED * (own and endorsed(message, thread))
    score += STANDING * message.standing * own
    score += SAYS_ASKED * says_asked
    score -= QUESTIONS * questions
    score -= SAME_HERE * (own and same_here(message.text))
    score -= SIDE_QUESTION * (own and answers_side_question(message, thread))
    return score


def confirms_other_ask(message: Message, thread: Thread, query: str) -> bool:
    """Whether the asker's confirmation of ``message`` is for another of their questions than
    the one asked: ``message`` answers a later message of the asker's (a new sub-question:
    "the constellation degrades above a 16 MHz offset") and the question restates the asker's
    opening message more than that one ("what tx_offset should I pass?")."""
    by_id = {m.message_id: m for m in thread.messages}
    asked = by_id.get(message.in_reply_to or "")
    seen = {message.message_id}
    while asked is not None and asked.key != thread.asker and asked.message_id not in seen:
        seen.add(asked.message_id)
        asked = by_id.get(asked.in_reply_to or "")
    opening = thread.problem
    if asked is None or opening is None or asked is opening or asked.key != thread.asker:
        return False
    words = set(content_stems(tokens(query)))
    return _restates(words, opening) > _restates(words, asked)


def _restates(words: set[str], message: Message) -> float:
    """How closely ``words`` restate ``message``: the cosine of their stem sets (a long message
    holds many words by its length alone)."""
    held = set(content_stems(tokens(message.text)))
    return len(words & held) / math.sqrt(len(held) or 1)


def answers_side_question(message: Message, thread: Thread) -> bool:
    """Whether ``message`` answers a third user's question ("Do we need to connect the antenna
    ports in loopback?"): a message by neither the asker nor its author that asks something
    and is not a "same here" (one restating the asker's problem is answered for the asker
    too)."""
    parent = next((m for m in thread.messages if m.message_id == message.in_reply_to), None)
    if parent is None or parent.key in (thread.asker, message.key):
        return False
    asks = any(s.rstrip().endswith("?") for s in sentences(parent.text))
    return asks and not same_here(parent.text)


def choose(candidates: Sequence[Reply], thread: Thread, wanted: Sequence[str]) -> Reply | None:
    """The reply that answers: among those answering close to the best, the one the thread
    and the list back most (ties: the later). A "same here" that says nothing else is never
    chosen."""
    echoes = [r for r in candidates if r.message.key != thread.asker and echoed(r)]
    usable = [r for r in candidates if not (r in echoes and not said_more(r))]
    if not usable:
        return None
    # a "same here" restates the problem in the question's words: it sets no bar for the rest
    answers = [r for r in usable if r not in echoes] or usable
    top = max(r.best for r in answers)
    eligible = [
        r
        for r in usable
        if r.best >= (CONFIRMED_SHARE if backed(r, thread, wanted) else ELIGIBLE_SHARE) * top
    ] or [r for r in answers if r.best == top]  # a best score below zero is no share's bar
    last = _concluding(eligible, thread, wanted, top)
    return max(
        reversed(eligible),
        key=lambda r: weight(r, thread, top, wanted) + CONCLUDED * (r is last),
    )


def _concluding(
    eligible: Sequence[Reply], thread: Thread, wanted: Sequence[str], top: float
) -> Reply | None:
    """The asker's own resolution that reports what was asked after every other eligible
    reply and answers the question best: the thread's last word ("The resolution is that
    ..."), which the replies before it only guessed at (a resolution of another of the
    asker's problems answers the question less well than a reply does)."""
    if not eligible:
        return None
    last = max(eligible, key=lambda r: thread.messages.index(r.message))
    mine = last.message.key == thread.asker and reports_asked(last, wanted)
    return last if mine and last.best >= top else None


def reports_asked(reply: Reply, wanted: Sequence[str]) -> bool:
    """Whether the asker's own resolution reports what was asked: its sentence saying what
    fixed it ("I was able to resolve it by ...") answers how, one saying what it was ("my
    mistake was ...") why and how; "it now works!" beside "I have no explanation why" is no
    cause."""
    return any(u.role in wanted and self_resolved(u.text) for u in reply.units)


def backed(reply: Reply, thread: Thread, wanted: Sequence[str]) -> bool:
    """Whether the asker vouched for ``reply``: confirmed it, or wrote it reporting what was
    asked (:func:`reports_asked`)."""
    if reply.message.key == thread.asker:
        return reports_asked(reply, wanted)
    return reply.confirmed_by is not None


def echoed(reply: Reply) -> bool:
    """Whether a reply opens by reporting the same problem (:func:`same_here`)."""
    return same_here(reply.message.text)


def said_more(reply: Reply) -> bool:
    """Whether a "same here" reply says something besides: a statement that is neither the
    same-problem report nor a question."""
    return any(
        not _SAME_HERE.search(u.text) and not u.text.rstrip().endswith("?") for u in reply.units
    )


def companions(
    chosen: Reply, candidates: Sequence[Reply], thread: Thread, wanted: Sequence[str]
) -> list[Reply]:
    """``chosen`` with the replies that belong to it, in reading order: its author's other
    replies (refinements), the earlier reply by another replier that it answers (it builds on
    that one), and the replies by others that answer one of its author's (they build on it: "I
    will add that ..."; a pointer back, "what Brian wrote", adds nothing), each when it answers
    the question close to ``chosen``; the earlier reply only when it says something of the role
    asked (``wanted``: a fix for how; "please send the measurements" is not built on)."""
    if chosen.message.key == thread.asker:
        return [chosen]
    floor = JOINED_SHARE * chosen.best
    close = [r for r in candidates if r.message.key != thread.asker and r.best >= floor]
    own = [chosen, *(r for r in close if r.message.key == chosen.message.key)]
    # a reply answering any of its author's messages builds on it (the floor is its own)
    answered = {m.message_id for m in thread.messages if m.key == chosen.message.key}
    out = [*own]
    out += [
        r
        for r in close
        if r.message.message_id == chosen.message.in_reply_to
        and any(u.role in wanted for u in r.units)
    ]
    out += [
        r
        for r in close
        if r.message.in_reply_to in answered
        and deferred_to(r.message, thread.messages, thread.asker) is None
    ]
    order = {id(m): i for i, m in enumerate(thread.messages)}
    unique: dict[int, Reply] = {}
    for r in out:
        unique.setdefault(id(r.message), r)
    return sorted(unique.values(), key=lambda r: order[id(r.message)])
