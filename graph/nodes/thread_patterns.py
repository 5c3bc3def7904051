"""Answer a question about what usually fixes or causes a problem on a mailing list from the
fix or cause statements of every conversation that mentions it, grouped and counted."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from answers.citations import marker_ids
from answers.pattern_groups import OTHER, Group, Statement
from answers.thread_patterns import (
    ThreadPatternPlan,
    compose_thread_pattern,
    list_spelling,
    named_words,
    subject_of_list,
    subject_words,
    thread_groups,
    thread_pattern_plan,
    thread_statements,
    uncommon_words,
)
from archive.store.threads import PHRASE, WORDS, TopicSet
from graph.nodes.counted import pattern_state
from graph.state import Diagnostics, State
from providers.chat import ChatModel

logger = logging.getLogger(__name__)


class TopicThreads(Protocol):
    """The conversations mentioning a topic (``archive.store.threads.topic_conversations``),
    matched the strictest way that finds ``least`` threads (default: the store's own)."""

    def __call__(
        self, topic: str, *, least: int = ..., any_word: bool = ...
    ) -> Awaitable[TopicSet]: ...


@dataclass(frozen=True)
class Reading:
    """One reading of a pattern question: its plan, the conversations read, what they state
    and the groups of it."""

    plan: ThreadPatternPlan
    found: TopicSet
    statements: list[Statement]
    groups: list[Group]

    @property
    def named(self) -> int:
        """How many named groups of two conversations or more it shows."""
        return sum(g.name != OTHER and g.count >= 2 for g in self.groups)


#: Named groups that make a pattern of "the most common" fixes or causes without reading a
#: wider match of the topic.
ENOUGH_GROUPS = 2


def _pattern(plan: ThreadPatternPlan, question: str, found: TopicSet) -> Reading:
    """The statements of a topic set's conversations and their groups ([] when none states);
    when those of the kind asked show fewer than :data:`ENOUGH_GROUPS` groups, what the
    replies state of either kind (a cause or a fix: what the list says about the problem,
    "what goes wrong, and how is it fixed") is grouped instead when it shows more."""
    statements = thread_statements(plan, question, found.conversations)
    groups = thread_groups(plan, statements, found.shares, found.bursts) if statements else []
    reading = Reading(plan, found, statements, groups)
    if reading.named >= ENOUGH_GROUPS or plan.both:
        return reading
    either = _pattern(replace(plan, both=True), question, found)
    return either if either.named > reading.named else reading


async def _widest(
    plan: ThreadPatternPlan, question: str, topics: TopicThreads, *, any_word: bool = False
) -> Reading:
    """The match of ``plan``'s topic that shows the most named groups: the strictest first,
    looser ones (its words anywhere, all but one of them, with ``any_word`` any one of them)
    while it shows fewer than :data:`ENOUGH_GROUPS` (the strictest of equals)."""
    best = _pattern(plan, question, await topics(plan.topic, any_word=any_word))
    tried = best.found
    while best.named < ENOUGH_GROUPS and tried.matched:  # a wider match may show more
        wider = await topics(plan.topic, least=tried.matched + 1, any_word=any_word)
        if wider.matched <= tried.matched:
            break
        tried = wider
        more = _pattern(plan, question, wider)
        if more.named > best.named:
            best = more
    return best


async def _read(plan: ThreadPatternPlan, question: str, topics: TopicThreads) -> Reading:
    """The reading of ``plan``'s topic that shows the most named groups: its matches from the
    strictest (:func:`_widest`), spelled as the list spells it, then its subject (else
    uncommon) words alone and at last any one of the subject words."""
    best = await _widest(plan, question, topics)
    spelled = list_spelling(plan.topic, best.found.shares)
    if spelled != plan.topic:  # "synchronising" on a list that writes "synchronization"
        plan = replace(plan, topic=spelled)
        best = await _widest(plan, question, topics)
    shares, bursts = best.found.shares, best.found.bursts
    subjects = subject_words(plan.topic, shares, bursts)
    narrower = subjects or uncommon_words(plan.topic, shares)
    if best.named < ENOUGH_GROUPS and (narrower not in ("", plan.topic) or " " in subjects):
        # the question's words that are not subjects of the list ("networked", "choose")
        # narrow the match to nothing to group: its subject words alone are read too, and
        # any one of them at last (never a word of talk alone: "several", "number")
        tried = await _widest(
            replace(plan, topic=narrower), question, topics, any_word=bool(subjects)
        )
        logger.info("thread pattern: topic %r read as %r", plan.topic, narrower)
        best = tried if tried.named > best.named else best
    return best


def _keeps(reading: Reading, names: str) -> bool:
    """Whether every thread ``reading`` read names each of ``names``: its topic holds them and
    was matched whole (as a phrase, or all its words), not by all but one or any one word."""
    words = reading.plan.topic.split()
    return reading.found.how in (PHRASE, WORDS) and all(n in words for n in names.split())


async def _choose(plan: ThreadPatternPlan, question: str, topics: TopicThreads) -> Reading:
    """The reading that answers. A topic that names a product, command or component (and more:
    "sequence errors X310") is read whole first: threads holding all its words are about that
    problem on that product. When those show no pattern and the other words describe the
    product, or name a problem whose own reading shows no pattern, the area named alone ("B200mini"
    of "B200mini little boards", "uhd_images_downloader" of "UHD FPGA images
    uhd_images_downloader") answers when it shows one; no reading that drops the name answers
    when the name's threads show a group (its threads need not be about the product). A
    problem beside the name is read as any topic is (:func:`_read`) first, and answers when
    that shows a pattern."""
    named = named_words(plan.topic)
    if named in ("", plan.topic):
        return await _read(plan, question, topics)
    whole = await _widest(plan, question, topics)
    if whole.named >= ENOUGH_GROUPS and _keeps(whole, named):
        return whole
    rest = " ".join(w for w in plan.topic.split() if w not in named.split())
    read = None
    if subject_words(rest, whole.found.shares, whole.found.bursts):
        # the words beside the name may be a problem the list talks about ("sequence errors"
        # of "sequence errors X310"), not a description ("little boards"): read as any topic,
        # it answers when it shows a pattern, before the product's threads alone (about
        # anything)
        read = await _read(plan, question, topics)
        if read.named >= ENOUGH_GROUPS:
            return read
    by_name = await _widest(replace(plan, topic=named), question, topics, any_word=True)
    logger.info("thread pattern: topic %r read as its names %r", plan.topic, named)
    if by_name.named >= ENOUGH_GROUPS:
        return by_name
    best = read or await _read(plan, question, topics)
    if by_name.named > best.named or (by_name.named and not _keeps(best, named)):
        return by_name  # a reading that drops the names reads threads about something else
    return best


async def grouped_threads(
    state: State, topics: TopicThreads | None, model: ChatModel | None
) -> State:
    """ "What are the most common fixes for overflows on the mailing list?": every conversation
    mentioning the problem, each one's fix (or cause) from its confirmed or last answering
    reply, grouped into named groups with counts and examples cited to the stating messages. A
    question that asks no such thing, or whose conversations state nothing, goes on to the
    search. When the strictest match of the topic (its words as a phrase) shows fewer than
    :data:`ENOUGH_GROUPS` groups, looser ones (its words anywhere, all but one of them) are
    read too, and the match that shows the most groups answers (the strictest of equals); when
    none shows enough, the topic's words the list talks about as subjects
    (:func:`answers.thread_patterns.subject_words`: "MPM daemon" of "MPM daemon networked
    USRPs"; else those not of its common talk, "bricked" of "USRP bricked") are matched alone,
    at last any one of the subject words (things asked about together: "N310 and N320"), and
    answer when they show more groups. A topic that names a product or command is read as
    :func:`_choose` says."""
    question = state.get("question", "")
    plan = thread_pattern_plan(question)
    if plan is None or topics is None:
        return {"counted": False}
    start = time.perf_counter()
    best = await _choose(plan, question, topics)
    plan, found, statements, groups = best.plan, best.found, best.statements, best.groups
    matched, conversations = found.matched, found.conversations
    record: dict[str, Any] = {"pattern": f"thread {plan.about}", "topic": plan.topic}
    if not best.named:
        logger.info("thread pattern: %d threads, no group of two; searched instead", matched)
        return {  # threads on a subject of the list: the search's cutoff may not stop the turn
            "counted": False,
            "record_set": matched if subject_of_list(plan.topic, found.bursts) else 0,
            "diagnostics": Diagnostics(count={**record, "matched": matched}),
        }
    fact = compose_thread_pattern(plan, matched, len(conversations), groups, how=found.how)
    cited = set(marker_ids(fact))
    by_id = {s.passage["chunk_id"]: s.passage for s in statements}
    cite = [by_id[i] for i in by_id if i in cited]
    record.update(matched=matched, groups={g.name: g.count for g in groups})
    top = tuple(g.count for g in groups[:1])
    return await pattern_state(model, question, fact, matched, top, cite, record, start)
