"""A thread digest built from its messages' own sentences: problem → investigation → resolution
(pure text, no store; the digest pass is :mod:`archive.ingest.digests`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from archive.ingest.enrich import SUMMARY_CHARS, clean_subject, clip, informative_sentences
from archive.ingest.model import Section, SourceDocument, short_id

MIN_WORDS = 200
MAX_WORDS = 400
#: Word budgets of the digest's parts (the investigation gets what is left of MAX_WORDS).
PROBLEM_WORDS = 110
RESOLUTION_WORDS = 110
#: A sentence longer than this is cut.
SENTENCE_WORDS = 60
#: A last message with fewer informative words than this (a "thanks, that worked") closes the
#: thread but does not hold its resolution.
SUBSTANTIVE_WORDS = 15
#: Characters of each message a chat model sees.
LLM_MESSAGE_CHARS = 2500

_CUES = re.compile(
    r"\b(?:caus\w*|found|find|fix\w*|solv\w*|resolv\w*|replac\w*|repair\w*|work\w*|issue|problem|"
    r"error|fail\w*|because|due to|turn\w* out|root|test\w*|measur\w*|check\w*|suggest\w*|try|"
    r"tried|updat\w*|upgrad\w*|version|instead|solution|confirm\w*|result\w*|show\w*|suspect\w*)\b",
    re.IGNORECASE,
)
_WORDS = re.compile(r"[A-Za-z0-9][\w'’.-]*")


@dataclass
class ThreadMessage:
    """One message of a thread as the store holds it."""

    source_id: str  # Message-ID
    sender: str
    date: date | None
    subject: str
    depth: int  # references before it: the thread order within a day
    text: str
    attachments: list[str] = field(default_factory=list)  # file names


def digest_text(subject: str, messages: Sequence[ThreadMessage]) -> str:
    """The extractive problem -> investigation -> resolution digest of a thread, oldest first."""
    if len(messages) < 2:
        raise ValueError("a digest needs at least two messages")
    first = messages[0]
    end = _resolution_index(messages)
    last = messages[end]
    header = (
        f'Thread "{subject}": {len(messages)} messages, {_span(messages)}, between '
        f"{_names(messages)}."
    )
    problem = _take(informative_sentences(first.text), PROBLEM_WORDS)
    resolution = _take(informative_sentences(last.text), RESOLUTION_WORDS, prefer_cues=True)
    closing = messages[end + 1 :]
    used = _count(header) + _count(" ".join(problem)) + _count(" ".join(resolution)) + 8
    middle = messages[1:end]
    findings = _findings(middle, subject, first.text, budget=max(MAX_WORDS - used, 0))

    parts = [header, f"Problem ({_who(first)}): " + (" ".join(problem) or "(no text)")]
    if findings:
        parts.append("Investigation: " + " ".join(findings))
    parts.append(f"Resolution ({_who(last)}): " + (" ".join(resolution) or "(no text)"))
    if closing:
        parts[-1] += f" The thread ends with {_names(closing)} replying ({_span(closing)})."
    text = "\n\n".join(parts)
    return trim_words(text, MAX_WORDS)


def digest_summary(subject: str, messages: Sequence[ThreadMessage]) -> str:
    """The digest's context summary: subject, span, the problem's and the resolution's gist
    (each given half of the room the head line leaves)."""
    problem = informative_sentences(messages[0].text)
    last = messages[_resolution_index(messages)]
    resolution = _take(informative_sentences(last.text), 40, prefer_cues=True)
    head = f'Email thread "{subject}", {len(messages)} messages, {_span(messages)}.'
    gist = [
        f"Problem: {problem[0]}" if problem else "",
        f"Resolution: {resolution[0]}" if resolution else "",
    ]
    gist = [g for g in gist if g]
    room = (SUMMARY_CHARS - len(head)) // max(len(gist), 1) - 1
    if room < 30:
        return clip(head, SUMMARY_CHARS)
    return clip(" ".join([head, *(clip(g, room) for g in gist)]), SUMMARY_CHARS)


def digest_document(
    thread_id: str,
    messages: Sequence[ThreadMessage],
    *,
    thread_hash: str,
    text: str | None = None,
    method: str = "extractive",
) -> SourceDocument:
    """The ``thread_digest`` document of a thread (``text`` overrides the extractive digest)."""
    subject = clean_subject(messages[0].subject)
    body = text or digest_text(subject, messages)
    first_date = next((m.date for m in messages if m.date), None)
    last_date = next((m.date for m in reversed(messages) if m.date), None)
    metadata = {
        "messages": " ".join(m.source_id for m in messages),
        "message_count": str(len(messages)),
        "thread_hash": thread_hash,
        "method": method,
    }
    if last_date:
        metadata["last_date"] = last_date.isoformat()
    return SourceDocument(
        kind="thread_digest",
        source_id=f"digest:{thread_id}",
        title=f"Thread digest: {subject}",
        sections=[Section("digest", body)],
        original=body.encode("utf-8"),
        archive_name=f"digest-{short_id(thread_id)}.txt",
        date=first_date,
        subject=subject,
        thread_id=thread_id,
        embedding_mode="full",
        summary=digest_summary(subject, messages),
        metadata=metadata,
    )


def _resolution_index(messages: Sequence[ThreadMessage]) -> int:
    """The last message with substance (a closing "thanks, it works" is not the resolution)."""
    for i in range(len(messages) - 1, 0, -1):
        if _count(" ".join(informative_sentences(messages[i].text))) >= SUBSTANTIVE_WORDS:
            return i
    return len(messages) - 1


def _findings(
    middle: Sequence[ThreadMessage], subject: str, problem: str, *, budget: int
) -> list[str]:
    """Per middle message its most informative sentences (thread terms, cue words, figures), in
    thread order, sharing ``budget`` words; attachments named."""
    if not middle or budget <= 0:
        return []
    keys = {w.lower() for w in _WORDS.findall(f"{subject} {problem}") if len(w) > 3}
    share = max(budget // len(middle), 25)
    out: list[str] = []
    used = 0
    for message in middle:
        sentences = informative_sentences(message.text)
        scored = sorted(
            range(len(sentences)),
            key=lambda i: (-_salience(sentences[i], keys), i),
        )
        chosen: list[int] = []
        words = 0
        for i in scored:
            n = _count(_cap(sentences[i]))
            if words + n > share and chosen:
                continue
            chosen.append(i)
            words += n
            if words >= share:
                break
        picked = [_cap(sentences[i]) for i in sorted(chosen)]
        if message.attachments:
            picked.append(f"Attached: {', '.join(message.attachments)}.")
        if not picked:
            continue
        entry = f"{_who(message)}: {' '.join(picked)}"
        if used + _count(entry) > budget and out:
            break
        out.append(entry)
        used += _count(entry)
    return out


def _salience(sentence: str, keys: set[str]) -> float:
    words = [w.lower() for w in _WORDS.findall(sentence)]
    overlap = len(keys & set(words))
    return overlap + 1.5 * len(_CUES.findall(sentence)) + 0.5 * any(c.isdigit() for c in sentence)


def _take(sentences: list[str], budget: int, *, prefer_cues: bool = False) -> list[str]:
    """Whole sentences up to ``budget`` words: in order, or (``prefer_cues``) those with cue
    words first, then restored to their order. The first sentence is always kept (cut if long)."""
    capped = [_cap(s) for s in sentences]
    if not capped:
        return []
    order = list(range(len(capped)))
    if prefer_cues:
        order.sort(key=lambda i: (-len(_CUES.findall(capped[i])), i))
    chosen: list[int] = []
    words = 0
    for i in order:
        n = _count(capped[i])
        if chosen and words + n > budget:
            continue
        chosen.append(i)
        words += n
    return [capped[i] for i in sorted(chosen)]


def _cap(sentence: str) -> str:
    words = sentence.split()
    return sentence if len(words) <= SENTENCE_WORDS else " ".join(words[:SENTENCE_WORDS]) + " …"


def trim_words(text: str, max_words: int) -> str:
    words = text.split(" ")
    if _count(text) <= max_words:
        return text
    kept: list[str] = []
    n = 0
    for word in words:
        n += len(_WORDS.findall(word))
        if n > max_words:
            break
        kept.append(word)
    return " ".join(kept).rstrip(" ,;:") + " …"


def _count(text: str) -> int:
    return len(_WORDS.findall(text))


def _who(message: ThreadMessage) -> str:
    return f"{message.sender}, {message.date.isoformat()}" if message.date else message.sender


def _names(messages: Sequence[ThreadMessage]) -> str:
    names = list(dict.fromkeys(m.sender for m in messages))
    return ", ".join(names[:4]) + (f" and {len(names) - 4} others" if len(names) > 4 else "")


def _span(messages: Sequence[ThreadMessage]) -> str:
    dates = [m.date for m in messages if m.date]
    if not dates:
        return "undated"
    lo, hi = min(dates), max(dates)
    return lo.isoformat() if lo == hi else f"{lo.isoformat()} to {hi.isoformat()}"
