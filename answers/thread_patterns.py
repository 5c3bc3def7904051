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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from answers.group_names import as_written, term_stems
from answers.pattern_groups import OTHER, Group, Statement, group_phrases
from answers.patterns import example_lines
from answers.scoring import scores
from answers.thread_answer import ThreadQuestion, answering_reply
from answers.thread_asks import thread_ask
from answers.threads import Message, thread_of
from answers.units import Unit, is_repeat, signature, units_of
from archive.store.passages import Passage
from archive.store.threads import ANY_WORD, MOST_WORDS, PHRASE, WORDS
from text.models import is_model_name
from text.words import content_stems, tokens

#: Sentences grouped per conversation (its best ones), and at most this many of one message.
STATEMENT_SENTENCES = 5
MESSAGE_SENTENCES = 2
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
    asked: str = ""  # the question: its own words name no group ("mailing list")
    #: whether what the replies state of either kind is grouped (a cause or a fix: what a
    #: problem area's replies say when too few state the kind asked to show a pattern)
    both: bool = False


def thread_pattern_plan(question: str) -> ThreadPatternPlan | None:
    """The plan of a question about what usually fixes or causes a problem; None for another
    question (or one that names no problem)."""
    ask = thread_ask(question)
    if ask is None:
        return None
    return ThreadPatternPlan(about=ask.about, topic=ask.topic, asked=question)


#: The sentence roles (:mod:`answers.units`) that state what a question asks.
STATING_ROLES: dict[str, tuple[str, ...]] = {
    "fix": ("fix", "found", "hint"),
    "cause": ("cause", "found"),
}


def subject_of_list(topic: str, bursts: Mapping[str, float]) -> bool:
    """Whether the list talks about ``topic`` as a subject: one of its words comes in bursts
    (:data:`BURST`: "n210", "sequence"; not "headache" or "love", said once in passing)."""
    return any(bursts.get(s, 0.0) >= BURST for s in content_stems(tokens(topic)))


def subject_words(topic: str, shares: Mapping[str, float], bursts: Mapping[str, float]) -> str:
    """The words of ``topic`` the list talks about as subjects (:func:`subject_of_list`) and
    not in common talk (:data:`COMMON_SHARE`: "usrp"), in its order: "MPM daemon" of "MPM
    daemon networked USRPs"; when none is, those the list says so seldom (in under
    :data:`KNOWN_SHARE` of its messages: too few to tell talk from a subject by burstiness)
    that they name one thing ("segfaults" of "program segfaults"); "" when none is."""
    # an identifier is one word: "benchmark_rate" is about the benchmark
    bursty = _words_whose_stems(
        topic,
        lambda s: bursts.get(s, 0.0) >= BURST and shares.get(s, 0.0) < COMMON_SHARE,
        every=False,
    )
    return bursty or _words_whose_stems(topic, lambda s: 0.0 < shares.get(s, 0.0) < KNOWN_SHARE)


#: A British "-ise" spelling ("synchronising", "synchronisation"), which English text search
#: stems apart from the "-ize" one.
_BRITISH = re.compile(r"(?<=[a-z]{3})is(?=(?:e|es|ed|ing|ation|ations)$)")


def list_spelling(topic: str, shares: Mapping[str, float]) -> str:
    """``topic`` with each word spelled as the list writes it more often: a British "-ise" as
    "-ize" where the list's messages say that more ("synchronising" is "synchronizing" on a
    list that writes "synchronization"; "promising" stays, no message says "promizing")."""
    out = []
    for word in topic.split():
        other = _BRITISH.sub("iz", word)
        out.append(other if _share(other, shares) > _share(word, shares) else word)
    return " ".join(out)


def _share(word: str, shares: Mapping[str, float]) -> float:
    return max((shares.get(s, 0.0) for s in content_stems(tokens(word))), default=0.0)


def uncommon_words(topic: str, shares: Mapping[str, float]) -> str:
    """The words of ``topic`` not in the list's common talk (:data:`COMMON_SHARE`: "usrp"), in
    its order: "bricked" of "USRP bricked"; "" when none is."""
    return _words_whose_stems(topic, lambda s: shares.get(s, 0.0) < COMMON_SHARE)


def named_words(topic: str) -> str:
    """The words of ``topic`` that name a product, command or component, in its order: a model
    name ("B200mini", "X310") or an identifier ("tx_waveforms"); "" when none does. Such a
    name is the area asked about; the words around it ("these little boards", "example")
    describe it."""
    return " ".join(w for w in topic.split() if is_model_name(w) or "_" in w.strip("_"))


def _words_whose_stems(topic: str, keep: Callable[[str], bool], *, every: bool = True) -> str:
    """The words of ``topic`` with content stems that all ``keep`` holds for (not ``every``:
    any one of them), in its order."""
    held = all if every else any
    kept = [
        word
        for word in topic.split()
        if (stems := content_stems(tokens(word))) and held(keep(s) for s in stems)
    ]
    return " ".join(kept)


def thread_statements(
    plan: ThreadPatternPlan, question: str, conversations: Mapping[str, Sequence[Passage]]
) -> list[Statement]:
    """Per conversation with a reply that answers, what its replies state: the reply the asker
    confirmed alone when there is one (that is the fix); else every reply by someone else and
    the asker's own report of what solved it, each one's sentences that say a fix (or a cause)
    and answer the question at all, the best :data:`STATEMENT_SENTENCES` of the conversation
    kept. A list's conversation often gathers several suggestions ("move the file to a RAM
    disk", "run benchmark_rate"): each may be a common fix, not only the last one said. One
    item per conversation, each sentence cited to its own message's chunk; a message reached
    from two conversations is read once."""
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
        messages = [reply.message]
        if reply.confirmed_by is None:
            messages += [m for m in (*thread.replies(), *thread.resolutions()) if m not in messages]
        messages = [m for m in messages if m.message_id not in seen]
        seen.update(m.message_id for m in messages)
        chosen = _stating(messages, reply.message, query, plan.about, both=plan.both)
        out += [Statement(thread_id, u.text, u.record) for u in chosen]
    return out


def _stating(
    messages: Sequence[Message], answering: Message, query: str, about: str, *, both: bool = False
) -> list[Unit]:
    """The sentences of ``messages`` that state what is asked: those of a stating role
    (:data:`STATING_ROLES`; with ``both`` those of a cause and of a fix) and, from the
    ``answering`` reply, any that answers the question at all; the best first,
    :data:`MESSAGE_SENTENCES` of a message at most, none said twice (a reply quoting an earlier
    one), :data:`STATEMENT_SENTENCES` in all, in reading order."""
    wanted = STATING_ROLES.get(about, ())
    if both:
        wanted, about = tuple({r for roles in STATING_ROLES.values() for r in roles}), "fix"
    units = [
        u
        for m in messages
        for c in m.chunks
        for u in units_of(c, 0)
        if len(u.text) >= MIN_SENTENCE_CHARS and "http" not in u.text
    ]
    values = scores(query, units, about, also_cause=both) if units else []  # type: ignore[arg-type]
    own = {c["doc_id"] for c in answering.chunks}
    ranked = sorted(
        (u.role not in wanted, -v, i)
        for i, (u, v) in enumerate(zip(units, values, strict=True))
        if v > 0 and (u.role in wanted or u.record["doc_id"] in own)
    )
    chosen: list[int] = []
    said: list[frozenset[str]] = []
    per_message: Counter[str] = Counter()
    for _, _, i in ranked:
        unit, sig = units[i], signature(units[i].text)
        if per_message[unit.doc_id] >= MESSAGE_SENTENCES or is_repeat(sig, said):
            continue
        chosen.append(i)
        said.append(sig)
        per_message[unit.doc_id] += 1
        if len(chosen) == STATEMENT_SENTENCES:
            break
    return [units[i] for i in sorted(chosen)]


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

    terms = term_stems(s.text for s in statements)

    def nameable(phrase: tuple[str, ...]) -> bool:
        if not any(bursts.get(stem, 0.0) >= BURST for stem in phrase):
            return False
        if len(phrase) > 1:
            return True
        return phrase[0] in terms and counts[phrase[0]] / n >= LIFT * shares.get(phrase[0], 0.0)

    asked = f"{plan.asked} {plan.topic} {plan.about} fix cause issue problem"
    ignore = set(content_stems(tokens(asked)))
    groups = group_phrases(
        statements,
        ignore=ignore,
        glue=glue,
        nameable=nameable,
        tight=True,  # many writers' free text: a name is words written together
        prefer=lambda phrase: any(word in terms for word in phrase),  # a thing's name
    )
    return [Group(as_written(g.name, g.members), g.members) for g in groups]


def compose_thread_pattern(
    plan: ThreadPatternPlan,
    matched: int,
    read: int,
    groups: list[Group],
    *,
    top: int = 6,
    how: str = WORDS,
) -> str:
    """The answer: the set (``matched`` threads mention the problem, ``how``: as a phrase, by
    its words, by all but one of them, or by any one; ``read`` conversations of them were
    read), then the largest named groups with their counts and examples cited to the messages
    that state them."""
    grouped = len({m.item for g in groups for m in g.members})
    basis = "cause or fix" if plan.both else "fix" if plan.about == "fix" else "cause"
    of = f"{read:,} conversations" if read == matched else f"the latest {read:,} conversations"
    mention = {
        PHRASE: f"“{plan.topic}”",
        MOST_WORDS: f"all but one of the words of “{plan.topic}”",
        ANY_WORD: " or ".join(plan.topic.split()),
    }.get(how, plan.topic)
    lines = [
        f"{matched:,} mail threads mention {mention}; {grouped:,} of {of} have replies that "
        f"state a {basis} (the reply the asker confirmed, else what the replies by others "
        f"say). Grouped by that {basis}, each conversation counted once:"
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
