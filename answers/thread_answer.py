"""A fix or cause question about a mail thread, answered from its replies and cited to the
message that states the answer.

The asker's problem is said in one line at most; the answer comes from the reply that answers
the question about as well as the best and that the thread and the list back most (the asker
confirmed or took it up, another replier endorsed it, its author answers others often:
:mod:`answers.reply_choice`), said with the replies that belong to it (the reply it builds on,
its author's refinements). The thread's generated digest may have found the thread: every
sentence is cited to the message that says it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from answers import prompts
from answers.aspects import Aspect
from answers.deferral import deferred_to
from answers.extractive import ended
from answers.reply_choice import Reply, choose, companions, confirms_other_ask, reports_asked
from answers.scoring import ASKS_BACK, Embed, scores
from answers.threads import (
    Message,
    Thread,
    follow_up,
    mail_thread_id,
    self_resolved,
    thread_of,
)
from answers.units import Unit, explains, is_repeat, signature, units_of
from archive.store.passages import Passage

#: Aspects a thread's replies answer (an account or a list is the composer's to give).
THREAD_ASPECTS: tuple[Aspect, ...] = ("fix", "cause", "general")
#: Sentences of the answering reply: at most this many, none below this share of its best.
MAX_REPLY_SENTENCES = 5
#: A reply of at most this many sentences is said whole (its key sentence may share no word
#: with the question: "I'm pretty sure that's a typo.").
WHOLE_REPLY_SENTENCES = 8
#: Sentences each reply joined to the answering one adds: as many as the answering reply's (a
#: joined reply often states the outcome in one short sentence among its others: "bumping
#: MIN_DUR to 100us"; two of them left it out), each above the answering reply's floor.
JOINED_SENTENCES = MAX_REPLY_SENTENCES
RELATIVE_FLOOR = 0.4
#: The problem's line is one sentence at most this long.
MAX_PROBLEM_CHARS = 220


#: The sentences an answer of one aspect leads with.
_LEADS: dict[str, tuple[str, ...]] = {"fix": ("fix", "found"), "cause": ("cause", "found")}
#: The sentences that say what a plain question asks: any answer.
_ANY_ANSWER: tuple[str, ...] = ("fix", "found", "cause", "hint")
#: What an answer of one aspect leaves to the follow-up that asks for it.
_OTHER_ROLE: dict[str, str] = {"fix": "cause", "cause": "fix"}


@dataclass(frozen=True)
class ThreadQuestion:
    """What answering from a thread needs of a turn."""

    question: str
    query: str  # what sentences are matched against
    aspect: Aspect
    passages: Sequence[Passage]  # the answer's passages, best first (the top one picks the thread)
    pool: Sequence[Passage] = ()  # everything retrieved, the thread's gathered messages included
    scope: Sequence[str] = ()
    embed: Embed | None = None
    followup: bool = False  # the problem was stated in the answer before
    conversation: str | None = None  # the conversation chosen for it (else the best passage's)


def thread_answer(
    request: ThreadQuestion,
    *,
    fresh: Callable[[str], bool],
    take: Callable[[str], None],
) -> list[str] | None:
    """The answer's lines (the problem's, the lead, the reply's cited sentences), or None when
    the question is not about a thread with a reply by someone other than the asker."""
    if not _about_thread(request):
        return None
    thread_id = request.conversation or mail_thread_id(request.passages)
    ours = [p for p in request.passages if thread_id in (p.get("conversation"), p.get("thread_id"))]
    lead = ours[0] if ours else request.passages[0]
    subject = lead.get("subject") if lead["kind"] == "email" else None
    records = [*request.pool, *request.passages]
    thread = thread_of(thread_id, records, subject) if thread_id else None
    if thread is None:
        return None
    candidates = _candidates(thread, request)
    reply = _answering(candidates, thread, request)
    if reply is None:
        return None
    replies = companions(reply, candidates, thread, _LEADS.get(request.aspect, _ANY_ANSWER))
    said = _said(replies, reply, request.aspect, fresh, take, thread.asker)
    if not said:
        return None
    lines = [] if request.followup else _problem_line(thread, reply, request, fresh, take)
    saying = {u.chunk_id for u in said}
    spoke = [r for r in replies if saying & {c["chunk_id"] for c in r.message.chunks}]
    lines.append(_lead(request.aspect, spoke or [reply], reply, thread))
    body = [f"{ended(u.text)} [C:{u.chunk_id}]" for u in said]
    body += _confirmation(reply, request, fresh, take)
    lines.append("\n" + " ".join(body))
    return lines


def _about_thread(request: ThreadQuestion) -> bool:
    """Whether the question asks what a thread concluded: a fix or a cause, or a plain first
    question whose best passage is a message. A plain question about an attachment asks what the
    attachment says, and a plain follow-up ("who replaced it?") what was already answered."""
    if request.aspect not in THREAD_ASPECTS:
        return False
    if request.aspect != "general":
        return True
    best = request.passages[0]["kind"] if request.passages else None
    return not request.followup and best != "attachment"


def _confirmation(
    reply: Reply, request: ThreadQuestion, fresh: Callable[[str], bool], take: Callable[[str], None]
) -> list[str]:
    """The asker's own words on what fixed it, when their confirmation says ("switching the
    channel to 1 fixed the problem"), cited to the confirmation."""
    confirming = reply.confirmed_by
    if confirming is None:
        return []
    units = [u for c in confirming.chunks for u in units_of(c, 0)]
    if request.aspect == "cause":
        units = [_explained(u) for u in units]
    units = [u for u in units if u.role in ("fix", "found", "cause") and fresh(u.text)]
    if not units:
        return []
    values = scores(request.query, units, request.aspect, scope=request.scope)
    unit = units[max(range(len(units)), key=lambda i: (values[i], -i))]
    take(unit.text)
    said = prompts.THREAD_CONFIRMATION.format(asker=confirming.author)
    return [f"{said} {ended(unit.text)} [C:{unit.chunk_id}]"]


def answering_reply(thread: Thread, request: ThreadQuestion) -> Reply | None:
    """The reply that answers the question (:func:`answers.reply_choice.choose`: among the
    replies by others, and the asker's own resolutions, that answer close to the best, the one
    the thread and the list back most), or the earlier reply it defers to."""
    return _answering(_candidates(thread, request), thread, request)


def _answering(candidates: list[Reply], thread: Thread, request: ThreadQuestion) -> Reply | None:
    chosen = choose(candidates, thread, _LEADS.get(request.aspect, _ANY_ANSWER))
    if chosen is None:
        return None
    return _pointed_to(chosen, candidates, thread) or chosen


def _candidates(thread: Thread, request: ThreadQuestion) -> list[Reply]:
    """The replies by others and the asker's own resolutions that say something, in reading
    order, each with its sentences scored against the question."""
    alone = follow_up(thread)  # the asker alone, who came back to say what they found
    messages = [*thread.replies(), *thread.resolutions()] or ([alone] if alone else [])
    scored = [r for m in messages if (r := _scored(m, thread, request)).units]
    if messages and all(m.key == thread.asker for m in thread.messages):
        return scored  # the asker alone: their own later word answers
    # the asker's "it now works" answers how, not why ("no explanation why the other fails")
    wanted = _LEADS.get(request.aspect, _ANY_ANSWER)
    scored = [r for r in scored if r.message.key != thread.asker or reports_asked(r, wanted)]
    if not any(r.message.key != thread.asker for r in scored):
        return []  # the asker alone: the composer's to answer
    return sorted(scored, key=lambda r: thread.messages.index(r.message))


def _pointed_to(reply: Reply, candidates: Sequence[Reply], thread: Thread) -> Reply | None:
    """The earlier reply ``reply`` defers to ("no suggestion other than what Marcus wrote",
    "Thanks, Rob.", a bare "Thanks." to another replier), when it is one of the replies that
    say something."""
    earlier = thread.messages[: thread.messages.index(reply.message)]
    target = deferred_to(reply.message, earlier, thread.asker)
    return next((r for r in candidates if target is not None and r.message is target), None)


def _scored(message: Message, thread: Thread, request: ThreadQuestion) -> Reply:
    units = [u for c in message.chunks for u in units_of(c, 0) if u.role != "confirm"]
    if request.aspect == "cause":  # a why-question: a reply's explanation is the cause
        units = [_explained(u) for u in units]
    if any(u.role in _LEADS.get(request.aspect, ()) for u in units):  # it says what was asked:
        other = _OTHER_ROLE.get(request.aspect)  # the fix is a follow-up's to give, the cause too
        units = [u for u in units if u.role != other]
    values = scores(request.query, units, request.aspect, scope=request.scope, embed=request.embed)
    by_id = {m.message_id: m for m in thread.messages}
    confirming = thread.confirmed.get(message.message_id)
    if confirming and confirms_other_ask(message, thread, request.query):
        confirming = None  # confirmed as the answer to another of the asker's questions
    return Reply(message, units, values, by_id.get(confirming) if confirming else None)


def _explained(unit: Unit) -> Unit:
    """``unit`` as a cause when it explains why in other words than a cause word ("that's
    when you get the timing error", "... means that a packet got dropped")."""
    if unit.role in ("plain", "hint", "fix") and explains(unit.text):
        return replace(unit, role="cause")
    return unit


def _said(
    replies: Sequence[Reply],
    chosen: Reply,
    aspect: Aspect,
    fresh: Callable[[str], bool],
    take: Callable[[str], None],
    asker: str | None = None,
) -> list[Unit]:
    """The answering reply's best fresh sentences (a short reply's every one, a long one's
    opening ones when none scores; the asker's own resolution read from where it says what
    was found) and each joined reply's best :data:`JOINED_SENTENCES`, in reading order."""
    seen: list[frozenset[str]] = []
    out: list[Unit] = []
    for reply in replies:
        if reply is chosen and reply.message.key == asker:
            finding = _from_finding(reply)  # told as a story: up to a short reply's length
            picked = _picked(finding, 0.0, fresh, seen, limit=WHOLE_REPLY_SENTENCES)
        elif reply is chosen:
            picked = _picked(reply, chosen.best, fresh, seen)
        else:
            picked = _picked(reply, chosen.best, fresh, seen, limit=JOINED_SENTENCES)
        out += picked
    for unit in out:
        take(unit.text)
    return _asked_first(out, _LEADS.get(aspect, ()))


def _from_finding(reply: Reply) -> Reply:
    """The asker's own resolution from the sentence that reports it on ("I did find the root
    cause of my problem, though: ..."), in its passage: the sentences before it answer earlier
    questions of the thread ("Correct, gpsd was stopped"), those after it say what was found
    (a message's other passages come in no known order)."""
    start = next((i for i, u in enumerate(reply.units) if self_resolved(u.text)), None)
    if start is None:
        return reply
    chunk = reply.units[start].chunk_id
    kept = [i for i in range(start, len(reply.units)) if reply.units[i].chunk_id == chunk]
    return replace(
        reply, units=[reply.units[i] for i in kept], scored=[reply.scored[i] for i in kept]
    )


def _picked(
    reply: Reply,
    best: float,
    fresh: Callable[[str], bool],
    seen: list[frozenset[str]],
    limit: int | None = None,
) -> list[Unit]:
    """One reply's sentences to say, in its order: the best by score (a short reply's all, in
    order, less its requests for information, unless ``limit`` is given), none below
    :data:`RELATIVE_FLOOR` of ``best``."""
    n = len(reply.units)
    order = sorted(range(n), key=lambda i: (-reply.scored[i], i))
    whole = limit is None and n <= WHOLE_REPLY_SENTENCES  # a short reply is said as written
    if limit is None and (best <= 0 or whole):
        asks = {i for i in range(n) if ASKS_BACK.search(reply.units[i].text)}
        order = [i for i in range(n) if i not in asks or len(asks) == n]  # no asking back
        best = 0.0
    if limit is None:
        limit = WHOLE_REPLY_SENTENCES if whole else MAX_REPLY_SENTENCES
    chosen: list[int] = []
    for i in order:
        unit = reply.units[i]
        if len(chosen) >= limit:
            break
        if best > 0 and reply.scored[i] < RELATIVE_FLOOR * best:
            break
        sig = signature(unit.text)
        if not fresh(unit.text) or is_repeat(sig, seen):
            continue
        seen.append(sig)
        chosen.append(i)
    return [reply.units[i] for i in sorted(chosen)]


def _asked_first(units: list[Unit], wanted: tuple[str, ...]) -> list[Unit]:
    """``units`` with the sentences of a wanted role first, the rest in the reply's order; a
    sentence the splitter cut off ("... (0 presumably?) which would be the empty slot.") stays
    with the one before it."""
    runs: list[list[Unit]] = []
    for unit in units:
        if runs and unit.text[:1].islower():
            runs[-1].append(unit)
        else:
            runs.append([unit])
    runs.sort(key=lambda run: not any(u.role in wanted for u in run))
    return [u for run in runs for u in run]


def _problem_line(
    thread: Thread,
    reply: Reply,
    request: ThreadQuestion,
    fresh: Callable[[str], bool],
    take: Callable[[str], None],
) -> list[str]:
    """One sentence of the asker's first message that says what the question is about."""
    problem = thread.problem
    if problem is None or problem is reply.message:
        return []
    units = [u for c in problem.chunks for u in units_of(c, 0)]
    units = [u for u in units if len(u.text) <= MAX_PROBLEM_CHARS and fresh(u.text)]
    if not units:
        return []
    values = scores(request.query, units, "general", scope=request.scope)
    best = max(range(len(units)), key=lambda i: (values[i], -i))
    unit = units[best]
    take(unit.text)
    asked = prompts.THREAD_PROBLEM.format(author=problem.author, date=_when(problem))
    return [f"{asked} {ended(unit.text)} [C:{unit.chunk_id}]"]


def _lead(aspect: Aspect, spoke: Sequence[Reply], reply: Reply, thread: Thread) -> str:
    """Whose replies the answer gives: "The fix, from the reply by Ann (date)", or "from the
    replies by Ann (date) and Bob (date)" when it joins replies that belong together."""
    template = {"fix": prompts.THREAD_FIX, "cause": prompts.THREAD_CAUSE}.get(
        aspect, prompts.THREAD_ANSWER
    )
    named = []
    for r in spoke:
        author = r.message.author
        if r.message.key == thread.asker:  # the asker solved it and said how
            author = prompts.THREAD_ASKER.format(author=author)
        named.append(prompts.THREAD_BY.format(author=author, date=_when(r.message)))
    source = prompts.THREAD_REPLY if len(named) == 1 else prompts.THREAD_REPLIES
    explain = "explains" if len(named) == 1 else "explain"
    authors = " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
    lead = template.format(source=source.format(authors=authors), explain=explain)
    if reply.confirmed_by is not None:
        asker = reply.confirmed_by.author
        return lead + prompts.THREAD_CONFIRMED.format(asker=asker, date=_when(reply.confirmed_by))
    return lead + ":"


def _when(message: Message) -> str:
    return message.day.isoformat() if message.day else "undated"
