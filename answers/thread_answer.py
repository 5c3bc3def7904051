"""A fix or cause question about a mail thread, answered from its replies and cited to the
message that states the answer.

The asker's problem is said in one line at most; the answer comes from the reply the asker
confirmed ("that fixed it"), else from the latest of the replies by others that answer the
question best (its best sentence at least :data:`CLOSE_TO_BEST` of the best reply's). The
thread's generated digest may have found the thread: the citation goes to the message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from answers import prompts
from answers.aspects import Aspect
from answers.deferral import deferred_to
from answers.extractive import ended
from answers.scoring import Embed, scores
from answers.threads import Message, Thread, mail_thread_id, thread_of
from answers.units import Unit, is_repeat, signature, units_of
from archive.store.passages import Passage

#: Aspects a thread's replies answer (an account or a list is the composer's to give).
THREAD_ASPECTS: tuple[Aspect, ...] = ("fix", "cause", "general")
#: A reply whose best sentence scores this share of the best reply's answers as well; the
#: latest such reply is the thread's last word on it.
CLOSE_TO_BEST = 0.75
#: Sentences of the answering reply: at most this many, none below this share of its best.
MAX_REPLY_SENTENCES = 5
#: A reply of at most this many sentences is said whole (its key sentence may share no word
#: with the question: "I'm pretty sure that's a typo.").
WHOLE_REPLY_SENTENCES = 8
RELATIVE_FLOOR = 0.4
#: The problem's line is one sentence at most this long.
MAX_PROBLEM_CHARS = 220


#: The sentences an answer of one aspect leads with.
_LEADS: dict[str, tuple[str, ...]] = {"fix": ("fix", "found"), "cause": ("cause", "found")}
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


@dataclass(frozen=True)
class Reply:
    """The reply that answers, with its scored sentences."""

    message: Message
    units: list[Unit]
    scored: list[float]
    confirmed_by: Message | None

    @property
    def best(self) -> float:
        return max(self.scored, default=0.0)


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
    thread_id = mail_thread_id(request.passages)
    lead = request.passages[0]
    subject = lead.get("subject") if lead["kind"] == "email" else None
    records = [*request.pool, *request.passages]
    thread = thread_of(thread_id, records, subject) if thread_id else None
    if thread is None:
        return None
    reply = answering_reply(thread, request)
    if reply is None:
        return None
    said = _said(reply, request.aspect, fresh, take)
    if not said:
        return None
    lines = [] if request.followup else _problem_line(thread, reply, request, fresh, take)
    lines.append(_lead(request.aspect, reply, thread))
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
    units = [u for u in units if u.role in ("fix", "found", "cause") and fresh(u.text)]
    if not units:
        return []
    values = scores(request.query, units, request.aspect, scope=request.scope)
    unit = units[max(range(len(units)), key=lambda i: (values[i], -i))]
    take(unit.text)
    said = prompts.THREAD_CONFIRMATION.format(asker=confirming.author)
    return [f"{said} {ended(unit.text)} [C:{unit.chunk_id}]"]


def answering_reply(thread: Thread, request: ThreadQuestion) -> Reply | None:
    """The reply the asker confirmed, else the latest of the replies that answer the question
    close to the best one."""
    scored = [_scored(m, thread, request) for m in thread.replies()]
    scored = [r for r in scored if r.units]
    confirmed = [r for r in scored if r.confirmed_by is not None]
    if confirmed:
        return max(confirmed, key=lambda r: r.best)
    if not scored:
        return None
    resolved = [r for m in thread.resolutions() if (r := _scored(m, thread, request)).units]
    candidates = sorted([*scored, *resolved], key=lambda r: thread.messages.index(r.message))
    top = max(r.best for r in candidates)
    latest = [r for r in candidates if r.best >= CLOSE_TO_BEST * top][-1]  # in reading order
    return _pointed_to(latest, candidates, thread) or latest


def _pointed_to(reply: Reply, candidates: Sequence[Reply], thread: Thread) -> Reply | None:
    """The earlier reply ``reply`` defers to ("no suggestion other than what Marcus wrote",
    "Thanks, Rob.", a bare "Thanks." to another replier), when it is one of the replies that
    say something."""
    earlier = thread.messages[: thread.messages.index(reply.message)]
    target = deferred_to(reply.message, earlier, thread.asker)
    return next((r for r in candidates if target is not None and r.message is target), None)


def _scored(message: Message, thread: Thread, request: ThreadQuestion) -> Reply:
    units = [u for c in message.chunks for u in units_of(c, 0) if u.role != "confirm"]
    if any(u.role in _LEADS.get(request.aspect, ()) for u in units):  # it says what was asked:
        other = _OTHER_ROLE.get(request.aspect)  # the fix is a follow-up's to give, the cause too
        units = [u for u in units if u.role != other]
    values = scores(request.query, units, request.aspect, scope=request.scope, embed=request.embed)
    by_id = {m.message_id: m for m in thread.messages}
    confirming = thread.confirmed.get(message.message_id)
    return Reply(message, units, values, by_id.get(confirming) if confirming else None)


def _said(
    reply: Reply, aspect: Aspect, fresh: Callable[[str], bool], take: Callable[[str], None]
) -> list[Unit]:
    """The reply's best fresh sentences in its own order; a short reply's every sentence, and a
    long one's opening ones when none scores."""
    best = reply.best
    order = sorted(range(len(reply.units)), key=lambda i: (-reply.scored[i], i))
    whole = len(reply.units) <= WHOLE_REPLY_SENTENCES  # a short reply is said as written
    if best <= 0 or whole:
        order = list(range(len(reply.units)))
        best = 0.0
    limit = WHOLE_REPLY_SENTENCES if whole else MAX_REPLY_SENTENCES
    chosen: list[int] = []
    seen: list[frozenset[str]] = []
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
    for i in chosen:
        take(reply.units[i].text)
    return _asked_first([reply.units[i] for i in sorted(chosen)], _LEADS.get(aspect, ()))


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


def _lead(aspect: Aspect, reply: Reply, thread: Thread) -> str:
    template = {"fix": prompts.THREAD_FIX, "cause": prompts.THREAD_CAUSE}.get(
        aspect, prompts.THREAD_ANSWER
    )
    author = reply.message.author
    if reply.message.key == thread.asker:  # the asker solved it and said how
        author = prompts.THREAD_ASKER.format(author=author)
    lead = template.format(author=author, date=_when(reply.message))
    if reply.confirmed_by is not None:
        asker = reply.confirmed_by.author
        return lead + prompts.THREAD_CONFIRMED.format(asker=asker, date=_when(reply.confirmed_by))
    return lead + ":"


def _when(message: Message) -> str:
    return message.day.isoformat() if message.day else "undated"
