"""The roles in a mail thread: the asker's problem, the replies by others, the asker's
confirmation ("that fixed it", "works now"), and the reply a fix or cause question is answered
from.

A thread is built from its messages' passages (chunks with ``author``, ``in_reply_to`` and
``references``, see :mod:`archive.store.threads`). Pure: no store, no model. Quoted text ("> ..."
lines, everything after an "On ... wrote:" line) is never read as the replier's own words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from answers.units import OWN_FINDING
from archive.store.passages import Passage
from archive.store.threads import author_key, root_subject
from text.sentences import sentences
from text.words import content_stems, tokens

#: Passage kinds that are messages of a thread (a digest only points at its thread).
MAIL_KINDS = ("email", "thread_digest", "attachment")
#: A reply states something when one of its sentences is this long ("Thanks!" is not).
MIN_STATEMENT_CHARS = 24

_QUOTED = re.compile(r"^\s*>")
#: The attribution line above a quoted message ("On Tue, 3 May 2024, Ann wrote:", split over two
#: lines at times) and Outlook's separator: everything from there on is quoted.
_ATTRIBUTION = re.compile(
    r"^\s*(?:On\b.{0,300}?\bwrote:\s*$|-{2,}\s*Original Message\s*-{2,}"
    r"|\*{0,2}From:\*{0,2}[^\n]*\n\s*\*{0,2}(?:Sent|Date):)",
    re.IGNORECASE | re.MULTILINE | re.DOTALL,
)
#: Markdown from a list's web form: a backslash ending a line (a hard line break, at times with
#: the line's end folded into a space) and a backslash-escaped punctuation mark.
_HARD_BREAK = re.compile(r"[ \t]*\\(?=[ \t]*(?:\n|$)|[ \t]+[A-Z\\])", re.MULTILINE)
_ESCAPED = re.compile(r"\\([\[\]~_*#.()!<>`{}|+-])")
#: A sign-off on a line of its own ("Regards", "Best regards,", "Cheers", "-- "): the few lines
#: below it are the author's name and signature (title, phone, company notices), not words of
#: the reply. Not "Thanks": the asker's thanks is how a confirmation is read.
_SIGN_OFF = re.compile(
    r"^[ \t]*(?:(?:(?:best|kind|warm|with\s+best)\s+)?(?:regards|wishes)|cheers|sincerely|best"
    r"|br|rgds|greetings)[ \t]*[,.!]?[ \t]*$|^--[ \t]?$",
    re.IGNORECASE | re.MULTILINE,
)
#: At most this many lines below a sign-off are a signature.
MAX_SIGNATURE_LINES = 8
#: The asker saying a reply worked.
_CONFIRMS = re.compile(
    r"\b(?:(?:that|this|it|which)\s+(?:fixed|solved|resolved|did\s+(?:it|the\s+trick)|worked|helped)"
    r"|works?\s+(?:now|great|fine|perfectly|like\s+a\s+charm|for\s+me)|(?:now|it|this|that)\s+works|worked\s+(?:great|"
    r"like\s+a\s+charm|perfectly|fine|for\s+me)|that\s+was\s+(?:it|the\s+(?:problem|issue))"
    r"|did\s+the\s+trick|fixed\s+(?:it|the\s+(?:problem|issue))|(?:problem|issue)\s+(?:is\s+)?"
    r"(?:solved|resolved|fixed|gone)|you\s+were\s+(?:right|correct|bang\s+on)|working\s+now"
    r"|succeeded|seems\s+to\s+have\s+fixed"
    # thanks for the answer itself, not for the trouble ("thanks for pointing out the solution")
    r"|thanks?(?:\s+you)?(?:\s+\w+){0,3}\s+for\s+(?:\w+\s+){0,3}(?:solution|insight|explanation"
    r"|clarification|pointing\s+(?:out|me))"
    r"|i\s+(?:concur|agree)\s+with|consider\s+(?:this|it)\s+(?:solved|resolved|closed)"
    r"|(?:that|this|it)\s+(?:explains|makes\s+sense)|(?:proceed|go)\s+with\s+your\s+suggest\w*)\b"
    # a bare "Yes, thanks!" to a reply that asked whether it helped
    r"|\A\W*(?:yes|yep|yeah|perfect|great)\W+(?:thanks?|thank\s+you)\W*\Z",
    re.IGNORECASE,
)
#: ... or saying it did not.
_DENIES = re.compile(
    r"\b(?:(?:did|does|do)\s*(?:n['’]t|\s+not)\s+(?:work|help|fix|solve|change)|no\s+luck"
    r"|still\s+(?:get|see|have|fail|doesn|does\s+not|not|the\s+same)|unfortunately"
    r"|same\s+(?:error|problem|issue|result))",
    re.IGNORECASE,
)


#: The asker reporting what the problem turned out to be, or how they solved it themselves.
_SELF_RESOLVED = re.compile(
    r"\b(?:i\s+(?:fixed|solved|resolved|managed\s+to|got\s+it)|(?:my|the|our)\s+(?:issue|problem"
    r"|mistake)\s+was|was\s+the\s+(?:culprit|root\s+cause)|i\s+(?:found|realized|realised)\s+that"
    r"|turn(?:s|ed)\s+out|it\s+was\s+my|(?:the|my|our)\s+(?:resolution|solution|explanation)"
    r"\s+(?:is|was)\s+that)\b"
    rf"|{OWN_FINDING}",
    re.IGNORECASE,
)
#: ... and saying it found or did it on its own ("I worked it out", "I was able to resolve it by
#: ..."): not a confirmation of a reply, even when it thanks one.
_OWN_FINDING = re.compile(OWN_FINDING, re.IGNORECASE)


def own_text(text: str) -> str:
    """``text`` without what it quotes: "> " lines, and everything from an attribution line
    ("On ... wrote:", "-----Original Message-----") on; without its signature: everything from
    a sign-off line ("Regards", "Cheers,", "-- ") that follows words of its own on. A mail
    written in a list's web form has its Markdown undone (a line ending in "\\" is a line
    break, "\\[INFO\\]" is "[INFO]"), or its sentences would run together into one too long to
    quote."""
    cut = _ATTRIBUTION.search(text)
    if cut is not None:
        text = text[: cut.start()]
    text = _ESCAPED.sub(r"\1", _HARD_BREAK.sub("\n", text))
    own = "\n".join(line for line in text.splitlines() if not _QUOTED.match(line)).strip()
    # the signature below a sign-off is no statement (a greeting "Best," opening it is no sign-off)
    ends = [
        m.start()
        for m in _SIGN_OFF.finditer(own)
        if own[: m.start()].strip()
        and len(own[m.end() :].strip().splitlines()) <= MAX_SIGNATURE_LINES
    ]
    return own[: ends[0]].rstrip() if ends else own


@dataclass
class Message:
    """One mail of a thread and its chunks (its own words only)."""

    message_id: str
    author: str
    day: date | None
    in_reply_to: str | None
    references: tuple[str, ...] = ()
    chunks: list[Passage] = field(default_factory=list)

    @property
    def key(self) -> str:
        return author_key(self.author)

    @property
    def text(self) -> str:
        return "\n".join(c["text"] for c in self.chunks)

    @property
    def standing(self) -> float:
        """How often the author answers others on the list (0..1, from the store)."""
        return max((c.get("standing") or 0.0 for c in self.chunks), default=0.0)


@dataclass
class Thread:
    """A thread's messages in reading order and its roles."""

    thread_id: str
    subject: str
    messages: list[Message]
    asker: str | None  # author key of the thread's question; None when no message opens it
    confirmed: dict[str, str] = field(default_factory=dict)  # reply id -> confirming message id

    @property
    def problem(self) -> Message | None:
        """The asker's first message."""
        return next((m for m in self.messages if self.asker and m.key == self.asker), None)

    def replies(self) -> list[Message]:
        """Messages by others than the asker that say something of their own."""
        return [m for m in self.messages if m.key != self.asker and substantive(m.text)]

    def resolutions(self) -> list[Message]:
        """The asker's later messages reporting what the problem was or how they solved it
        (not a confirmation of a reply, not "it still fails")."""
        confirming = set(self.confirmed.values())
        return [
            m
            for m in self.messages[1:]
            if m.key == self.asker and m.message_id not in confirming and self_resolved(m.text)
        ]


def follow_up(thread: Thread) -> Message | None:
    """In a thread only its asker wrote, the asker's latest message after the opening one when
    it states something and does not say it still fails: nobody answered, so a later word of
    the asker's own is the thread's outcome ("This was a user error on my part ...")."""
    if len(thread.messages) < 2 or any(m.key != thread.asker for m in thread.messages):
        return None
    latest = thread.messages[-1]
    return latest if substantive(latest.text) and not denies(latest.text) else None


def self_resolved(text: str) -> bool:
    """Whether the asker's later message reports what the problem was or how they solved it: a
    sentence says so and does not say it still fails ("it now works!" beside "I can't explain
    why the other one does not work" still reports a fix)."""
    return any(_SELF_RESOLVED.search(s) and not _DENIES.search(s) for s in sentences(text))


def own_finding(text: str) -> bool:
    """Whether a message reports a fix its author found or made on their own (see
    :data:`answers.units.OWN_FINDING`), in a sentence that does not say it still fails."""
    return any(_OWN_FINDING.search(s) and not _DENIES.search(s) for s in sentences(text))


def substantive(text: str) -> bool:
    """A reply with a statement of its own: a sentence of :data:`MIN_STATEMENT_CHARS` or more
    that is not a question (not a bare greeting, thanks or "what does lsusb show?")."""
    return any(len(s) >= MIN_STATEMENT_CHARS and not s.endswith("?") for s in sentences(text))


def thread_of(
    thread_id: str, passages: Iterable[Passage], subject: str | None = None
) -> Thread | None:
    """The conversation ``thread_id`` from the emails among ``passages`` (its thread's, and
    those gathered for it, see :mod:`archive.store.threads`): chunks of one message joined,
    quoted text dropped; None without two messages. With ``subject`` (the message the answer
    leads with), a conversation that changed subject midway (a new question asked by replying
    to an old thread) is only its messages of that subject, when it has two."""
    emails = [
        p
        for p in passages
        if p["kind"] == "email" and thread_id in (p.get("thread_id"), p.get("conversation"))
    ]
    if subject and (root := root_subject(subject)):
        same = [
            p for p in emails if _same_topic(root, root_subject(p.get("subject") or p["title"]))
        ]
        if len({p["doc_id"] for p in same}) >= 2:
            emails = same
    by_doc: dict[str, Message] = {}
    for passage in emails:
        message = by_doc.get(passage["doc_id"])
        if message is None:
            message = by_doc[passage["doc_id"]] = Message(
                message_id=passage["source_id"],
                author=passage.get("author") or passage.get("sender") or "unknown sender",
                day=_day(passage.get("date")),
                in_reply_to=passage.get("in_reply_to"),
                references=tuple(passage.get("references") or ()),
            )
        if all(c["chunk_id"] != passage["chunk_id"] for c in message.chunks):
            message.chunks.append({**passage, "text": own_text(passage["text"])})
    if len(by_doc) < 2:
        return None
    messages = _reading_order(list(by_doc.values()))
    first = messages[0]
    subject = first.chunks[0].get("subject") or first.chunks[0]["title"]
    thread = Thread(thread_id, subject, messages, _asker(messages))
    thread.confirmed = _confirmations(thread)
    return thread


def _same_topic(root: str, other: str) -> bool:
    """Whether two root subjects name one topic: equal, or one inside the other (a prefix the
    list does not strip, "RES: UHD Python API", or "X (solved)")."""
    return bool(other) and (root in other or other in root)


def _day(value: str | None) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        return None


def _ancestors(messages: Sequence[Message]) -> list[set[int]]:
    """For each message, the messages of the conversation it answers or references."""
    index = {m.message_id: i for i, m in enumerate(messages)}
    out = []
    for i, m in enumerate(messages):
        named = {*m.references, m.in_reply_to or ""}
        out.append({index[n] for n in named if n in index} - {i})
    return out


def _reading_order(messages: list[Message]) -> list[Message]:
    """Oldest first, a reply always after the messages it references (dates are days, and
    clocks differ: the reply chain orders them)."""
    ancestors = _ancestors(messages)

    def key(i: int) -> tuple[date, int, str]:
        days = [day for j in (i, *ancestors[i]) if (day := messages[j].day) is not None]
        return (max(days, default=date.max), len(ancestors[i]), messages[i].message_id)

    return [messages[i] for i in sorted(range(len(messages)), key=key)]


def _asker(messages: Sequence[Message]) -> str | None:
    """The author of the first message that answers no other message of the conversation."""
    ancestors = _ancestors(messages)
    opening = next((m for m, up in zip(messages, ancestors, strict=True) if not up), None)
    return opening.key if opening is not None else None


def _terms(text: str) -> set[str]:
    """A message's content stems, and its tokens holding a digit ("2021.1", "4.6", "sw1")."""
    words = tokens(text)
    return set(content_stems(words)) | {w for w in words if any(ch.isdigit() for ch in w)}


def taken_up(reply: Message, later: Message, problem: Message | None) -> int:
    """How much of ``reply``'s own terms (not the problem's) ``later`` repeats: a term with a
    digit counts two ("Vivado 2021.1"), a word one."""
    known = _terms(problem.text) if problem is not None and problem is not reply else set()
    shared = (_terms(reply.text) - known) & _terms(later.text)
    return sum(2 if any(ch.isdigit() for ch in term) else 1 for term in shared)


def denies(text: str) -> bool:
    """Whether the asker's message says a reply did not work ("still the same error")."""
    return bool(_DENIES.search(text))


def confirms(text: str) -> bool:
    """Whether the asker's message says a reply worked (and not that it did not)."""
    return bool(_CONFIRMS.search(text)) and not _DENIES.search(text)


def _confirmations(thread: Thread) -> dict[str, str]:
    """Reply id -> the asker's message confirming it: the reply it answers when that is by
    someone else, else the last substantive reply before it. A confirmation the asker took
    back by later reporting what they found on their own ("Thanks for the suggestion ..." on
    one day, "I did find the root cause of my problem, though: ..." on the next) confirms
    nothing: the asker's latest word on the outcome is the thread's conclusion."""
    out: dict[str, str] = {}
    by_id = {m.message_id: m for m in thread.messages}
    found = [
        i
        for i, m in enumerate(thread.messages)
        if i > 0 and m.key == thread.asker and own_finding(m.text)
    ]
    for i, message in enumerate(thread.messages):
        if message.key != thread.asker or i == 0 or not confirms(message.text):
            continue
        if found and i < found[-1]:  # taken back by the asker's later finding
            continue
        if own_finding(message.text):  # "Thanks, I worked it out: ..." is its own resolution
            continue
        parent = by_id.get(message.in_reply_to or "")
        if parent is None or parent.key == thread.asker or not substantive(parent.text):
            before = [m for m in thread.messages[:i] if m.key != thread.asker]
            before = [m for m in before if substantive(m.text)]
            # the reply whose own terms the confirmation repeats ("I compiled 4.6 and the
            # issue is gone" confirms "this is fixed in 4.5 and 4.6"), else the latest
            parent = max(
                reversed(before), key=lambda m: taken_up(m, message, thread.problem), default=None
            )
        if parent is not None:
            out.setdefault(parent.message_id, message.message_id)
    return out


def mail_thread_id(passages: Sequence[Passage]) -> str | None:
    """The conversation of the best passage when it is mail (a message, an attachment or the
    thread's digest): a fix or cause question about it is answered from its replies."""
    if not passages or passages[0]["kind"] not in MAIL_KINDS:
        return None
    return passages[0].get("conversation") or passages[0].get("thread_id")


@dataclass(frozen=True)
class Roles:
    """A thread's roles as a chat model is told them: one summary line, a label per passage."""

    summary: str
    labels: dict[str, str]  # chunk id -> "the asker's question", "reply by Ann (confirmed)", ...
    order: list[str]  # chunk ids in reading order

    def rank(self, chunk_id: str) -> int:
        """A passage's place in reading order (an unplaced one, an attachment, last)."""
        return self.order.index(chunk_id) if chunk_id in self.order else len(self.order)


def thread_roles(thread_id: str, records: Sequence[Passage]) -> Roles | None:
    """The roles of the thread ``thread_id`` among ``records`` (None without two messages)."""
    thread = thread_of(thread_id, records)
    if thread is None:
        return None
    labels: dict[str, str] = {}
    confirming = set(thread.confirmed.values())
    for message in thread.messages:
        if message.key == thread.asker:
            label = "the asker's question" if message is thread.problem else "the asker"
            if message.message_id in confirming:
                label = "the asker, confirming a reply worked"
        else:
            label = f"reply by {message.author}"
            if message.message_id in thread.confirmed:
                label += ", which the asker confirmed worked"
        for chunk in message.chunks:
            labels[chunk["chunk_id"]] = label
    order = [c["chunk_id"] for m in thread.messages for c in m.chunks]
    asker = thread.problem.author if thread.problem else "unknown (the opening message is missing)"
    others = sorted({m.author for m in thread.replies()})
    summary = f"Roles: asked by {asker}; replies by {', '.join(others) or 'no one else'}."
    confirmed = [m.author for m in thread.messages if m.message_id in thread.confirmed]
    if confirmed:
        summary += f" The asker confirmed the reply by {confirmed[0]} worked."
    return Roles(summary, labels, order)
