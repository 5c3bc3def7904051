"""Which mail conversation a fix or cause question is about: the one whose problem (its
subject and the asker's opening message) the question restates, among the conversations of
the best passages, preferring one with a reply by someone else. A passage of the question's
words may sit in a reply to another problem (a release announcement quoting an error, a
"same here" in a neighbouring thread); the asker's problem is what the question describes.
Pure: no store, no model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from answers.aspects import subject_of
from answers.threads import Thread, follow_up, thread_of
from archive.store.passages import Passage
from text.words import content_stems, is_identifier, tokens

#: Conversations of the best passages weighed (in their retrieval order).
MAX_CANDIDATES = 4
#: What retrieval's own first choice is worth against a closer problem (a share of the
#: question's words), and what its relevance is (the best passage's reranker score, else its
#: fused score, as a share of the best candidate's): another conversation must restate the
#: question this much better.
FIRST_BONUS = 0.15
RELEVANCE = 0.2
#: A conversation with no reply by anyone but the asker answers nothing.
UNANSWERED = 0.5


@dataclass(frozen=True)
class Candidate:
    """A conversation weighed for the question."""

    conversation: str
    match: float  # share of the question's words its problem holds (identifiers count double)
    answered: bool  # someone other than the asker replied with a statement, or the asker alone
    # came back with one (:func:`answers.threads.follow_up`)
    relevance: float  # its best passage's retrieval score as a share of the best candidate's

    def weight(self, first: bool) -> float:
        bonus = FIRST_BONUS * first + RELEVANCE * self.relevance
        return self.match + bonus - UNANSWERED * (not self.answered)


def problem_match(question: str, thread: Thread) -> float:
    """The share of the question's own words (its aspect words aside) that the thread's
    subject and the asker's opening message hold; an identifier ("B205mini", "X410") counts
    double."""
    words = tokens(subject_of(question))
    wanted = {w: 2.0 if is_identifier(w) else 1.0 for w in words if is_identifier(w)}
    wanted |= {s: 1.0 for s in content_stems(words)}
    if not wanted:
        return 0.0
    problem = thread.problem or thread.messages[0]
    held_words = tokens(f"{thread.subject} {problem.text}")
    held = set(content_stems(held_words)) | set(held_words)
    return sum(v for w, v in wanted.items() if w in held) / sum(wanted.values())


def candidates_of(passages: Sequence[Passage]) -> dict[str, tuple[str | None, float]]:
    """The conversations of the mail passages among ``passages``, in their order, each with
    the subject of its best message (a new question asked by replying to an old thread is
    its own topic: :func:`answers.threads.thread_of`) and its best retrieval score (the
    reranker's, else the fused one)."""
    out: dict[str, tuple[str | None, float]] = {}
    for passage in passages:
        if passage["kind"] not in ("email", "thread_digest", "attachment"):
            continue
        conversation = passage.get("conversation") or passage.get("thread_id")
        if not conversation or (conversation not in out and len(out) >= MAX_CANDIDATES):
            continue
        rerank = passage.get("rerank")
        score = float(rerank if rerank is not None else passage.get("score") or 0.0)
        subject, best = out.get(conversation, (None, 0.0))
        if conversation not in out and passage["kind"] == "email":
            subject = passage.get("subject")
        out[conversation] = (subject, max(best, score))
    return out


def choose_conversation(
    question: str,
    order: Mapping[str, tuple[str | None, float]],
    members: Mapping[str, Sequence[Passage]],
) -> tuple[str | None, list[Candidate]]:
    """The conversation among ``order`` (retrieval's order, each with the subject of its best
    message; ``members`` its messages) whose
    problem the question restates best, retrieval's first given :data:`FIRST_BONUS`; None when
    none was read. Also every candidate weighed, for the turn's diagnostics."""
    weighed: list[Candidate] = []
    top = max((score for _, score in order.values()), default=0.0)
    for conversation, (subject, score) in order.items():
        thread = thread_of(conversation, members.get(conversation, ()), subject)
        if thread is None:
            continue
        match = round(problem_match(question, thread), 3)
        relevance = round(score / top, 3) if top > 0 else 0.0
        answered = bool(thread.replies()) or follow_up(thread) is not None
        weighed.append(Candidate(conversation, match, answered, relevance))
    if not weighed:
        return None, []
    first = next(iter(order))
    best = max(weighed, key=lambda c: c.weight(c.conversation == first))
    return best.conversation, weighed
