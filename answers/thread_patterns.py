"""Pattern questions over mail threads ("What are the most common fixes for overflows on the
mailing list?", "What usually causes underflows?"): every conversation that mentions the problem,
each one's fix or cause statement, grouped into named groups with counts and cited examples.

A conversation's statement is what :mod:`answers.thread_answer` would answer a fix or cause
question from: the reply the asker confirmed, else the latest of the replies by others that
answer it best (or the asker's own report of what solved it). Its best sentences are grouped
(:func:`answers.pattern_groups.group_phrases`), one item per stating message, and every example
is cited to the message that states it, never to the thread's digest. Pure: no store, no model.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from answers.pattern_groups import OTHER, Group, Statement, group_phrases
from answers.patterns import example_lines
from answers.thread_answer import ThreadQuestion, answering_reply
from answers.threads import thread_of
from archive.store.passages import Passage
from text.words import content_stems, tokens

#: Words that make a question about what usually happens on the list, not about one thread.
_CUE_WORDS = (
    r"(?:most\s+)?common(?:ly)?|usual(?:ly)?|typical(?:ly)?|(?:most\s+)?frequent(?:ly)?|"
    r"most\s+often|recurring|generally|in\s+general"
)
_FIX_WORDS = (
    r"fix(?:es|ed)?|solutions?|solved?|workarounds?|remed(?:y|ies)|resolv(?:e|ed)|"
    r"resolutions?|cures?"
)
_CAUSE_WORDS = r"causes?|caused|reasons?|why|root\s+causes?|leads?\s+to"


def _words(alternatives: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


_CUE, _FIX, _CAUSE = _words(_CUE_WORDS), _words(_FIX_WORDS), _words(_CAUSE_WORDS)
#: Words of such a question that say how it is asked, not what about: the cues above, and these.
_FRAME = _words(
    r"what|which|how|are|is|the|do|does|did|people|users?|on|in|of|for|to|with|a|an|"
    r"mailing|list|usrp[\s-]*users|forum|threads?|problems?|issues?|trouble|get|gets|got|"
    r"suggested|recommended|proposed|given|most|often|general|root|leads?|main|top|"
    + "|".join((_CUE_WORDS, _FIX_WORDS, _CAUSE_WORDS))
)
#: Sentences of a stating reply grouped per conversation (its best ones).
STATEMENT_SENTENCES = 3
#: A sentence this short says nothing to group ("Hi Martin,").
MIN_SENTENCE_CHARS = 24
#: A stem in at least this share of the conversations' statements names no group ("uhd").
GLUE_SHARE = 0.45
#: Conversations needed before words common to their statements are taken for glue.
MIN_GLUE_ITEMS = 6
#: A stem in at least this share of the list's messages is common talk ("use", "like").
COMMON_SHARE = 0.08
#: A single word names a group when the statements use it this many times as often as the list
#: does, and a message that says it says it this many times on average.
LIFT = 4.0
BURST = 1.3
#: A word said about once wherever it is said is talk ("next", "absolutely"), and ends no
#: phrase either, once the list holds it often enough to tell.
TALK_BURST = 1.15
KNOWN_SHARE = 0.003


@dataclass(frozen=True)
class ThreadPatternPlan:
    """A pattern question over threads: what is grouped and the problem's words."""

    about: str  # fix | cause
    topic: str  # the problem area's words ("overflows"), matched in the messages


def thread_pattern_plan(question: str) -> ThreadPatternPlan | None:
    """The plan of a question about what usually fixes or causes a problem; None for another
    question (or one that names no problem)."""
    fix, cause = _FIX.search(question), _CAUSE.search(question)
    if not (_CUE.search(question) and (fix or cause)):
        return None
    topic = " ".join(_FRAME.sub(" ", re.sub(r"[^\w\s-]", " ", question)).split())
    if not content_stems(tokens(topic)):
        return None
    about = "fix" if fix and (not cause or fix.start() < cause.start()) else "cause"
    return ThreadPatternPlan(about=about, topic=topic)


def thread_statements(
    plan: ThreadPatternPlan, question: str, conversations: Mapping[str, Sequence[Passage]]
) -> list[Statement]:
    """Per conversation with a reply that answers, its best sentences that answer at all (one
    item per stating message, however many conversations reach it), each cited to its own
    chunk."""
    out: list[Statement] = []
    seen: set[str] = set()
    query = f"{plan.topic} {plan.about}"
    for thread_id, passages in conversations.items():
        thread = thread_of(thread_id, passages)
        if thread is None:
            continue
        request = ThreadQuestion(question, query, plan.about, passages, pool=passages)  # type: ignore[arg-type]
        reply = answering_reply(thread, request)
        if reply is None or reply.message.message_id in seen:
            continue
        seen.add(reply.message.message_id)
        ranked = sorted(range(len(reply.units)), key=lambda i: (-reply.scored[i], i))
        chosen = [
            reply.units[i]
            for i in ranked
            if reply.scored[i] > 0
            and len(reply.units[i].text) >= MIN_SENTENCE_CHARS
            and "http" not in reply.units[i].text
        ][:STATEMENT_SENTENCES]
        item = reply.message.message_id
        out += [Statement(item, u.text, u.record) for u in sorted(chosen, key=lambda u: u.position)]
    return out


def thread_groups(
    plan: ThreadPatternPlan,
    statements: Sequence[Statement],
    shares: Mapping[str, float],
    bursts: Mapping[str, float],
) -> list[Group]:
    """Named groups of the statements, largest first ("Other" last). ``shares``: each stem's
    share of the whole list's messages; a stem of the list's common talk (:data:`COMMON_SHARE`:
    "use", "like") ends no phrase, nor does talk (:data:`TALK_BURST`). A phrase names a group
    only when it holds a topic's word (``bursts``: a message that says it says it
    :data:`BURST` times on average: "dram", "hugepages", not "maybe", "suggest"; Church and
    Gale's burstiness), and a single word only when these statements use it :data:`LIFT`
    times as often as the list does. The question's own words, and words most of these
    statements use, name nothing either."""
    per_item: dict[str, set[str]] = {}
    for s in statements:
        per_item.setdefault(s.item, set()).update(content_stems(tokens(s.text)))
    counts = Counter(stem for stems in per_item.values() for stem in stems)
    n = max(len(per_item), 1)
    glue = {s for s, k in counts.items() if n >= MIN_GLUE_ITEMS and k >= GLUE_SHARE * n}
    glue |= {s for s, share in shares.items() if share >= COMMON_SHARE}
    glue |= {s for s, b in bursts.items() if b < TALK_BURST and shares.get(s, 0.0) >= KNOWN_SHARE}

    def nameable(phrase: tuple[str, ...]) -> bool:
        if not any(bursts.get(stem, 0.0) >= BURST for stem in phrase):
            return False
        return len(phrase) > 1 or counts[phrase[0]] / n >= LIFT * shares.get(phrase[0], 0.0)

    ignore = set(content_stems(tokens(f"{plan.topic} {plan.about} fix cause issue problem")))
    return group_phrases(statements, ignore=ignore, glue=glue, nameable=nameable)


def compose_thread_pattern(
    plan: ThreadPatternPlan, matched: int, read: int, groups: list[Group], *, top: int = 6
) -> str:
    """The answer: the set (``matched`` threads mention the problem, ``read`` conversations of
    them were read), then the largest named groups with their counts and examples cited to the
    messages that state them."""
    grouped = len({m.item for g in groups for m in g.members})
    basis = "fix" if plan.about == "fix" else "cause"
    of = f"{read:,} conversations" if read == matched else f"the latest {read:,} conversations"
    lines = [
        f"{matched:,} mail threads mention {plan.topic}; {grouped:,} of {of} have a reply that "
        f"states a {basis} (the reply the asker confirmed, else the last that answers). "
        f"Grouped by that {basis}:"
    ]
    shown: list[frozenset[str]] = []
    named = [g for g in groups if g.name != OTHER and g.count >= 2][:top]
    for group in named:
        share = 100 * group.count / max(grouped, 1)
        lines.append(f"- **{group.name}** — {group.count:,} of {grouped:,} ({share:.0f}%)")
        for line in example_lines(group, shown):
            markers = "".join(f"[C:{s.passage['chunk_id']}]" for s in line)
            who = "; ".join(_who(s.passage) for s in line)
            lines.append(f"  - {who}: {_clip(line[0].text)} {markers}")
    rest = grouped - sum(g.count for g in named)
    if rest:
        lines.append(f"The other {rest:,} of {grouped:,} fall in none of these groups.")
    return "\n".join(lines)


def _who(passage: Passage) -> str:
    author = str(passage.get("author") or passage.get("sender") or "unknown sender")
    day = passage.get("date") or "undated"
    return f"{author} ({day})"


def _clip(text: str, limit: int = 220) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
