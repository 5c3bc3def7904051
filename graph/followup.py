"""Follow-ups: a question that leans on an earlier one is searched with that one's subject, and
answered for its own aspect without repeating what was already said."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from typing_extensions import TypedDict

from answers import subject_of
from answers.record_aspects import record_aspect

_ANAPHORA = re.compile(
    r"\b(it|its|it's|this|that|these|those|they|them|their|he|she|his|her|there|the same)\b",
    re.IGNORECASE,
)
_CONTINUATION = re.compile(r"^\s*(and|also|what about|how about|then|why|how come)\b", re.I)
#: "which command did the maintainer suggest?": a definite reference to someone or something of
#: the conversation, in a question that names nothing of its own.
_REFERENT = re.compile(
    r"\bthe\s+(?:maintainer|developer|author|sender|user|crew|pilot|captain|master|engineer"
    r"|superintendent|fix|solution|workaround|command|patch|firmware|version|cause|problem"
    r"|issue|error|repair|investigation|report|accident|incident|thread|reply|answer|vessel"
    r"|ship|aircraft|airplane|engine|part|board|device)s?\b",
    re.IGNORECASE,
)
#: "were there any injuries?": "there" points at nothing (only the question's length does).
_EXISTENTIAL = re.compile(
    r"\b(?:(?:is|are|was|were|will|has|have|had)\s+there|there\s+(?:is|are|was|were|been))\b", re.I
)
MAX_FOLLOWUP_WORDS = 10


class Followup(TypedDict):
    """What a follow-up leans on (plain data: it is kept in graph state)."""

    subject: str  # the earlier self-contained question
    query: str  # what is searched: the subject's words and the follow-up
    said: list[str]  # the answers given since that question: not to be repeated
    grounded: bool  # the last answer cited the archive: the subject is in it
    documents: list[str]  # the documents the last answer cited: the subject's own first


def is_followup(question: str) -> bool:
    """A short question that points back at something said before."""
    words = question.split()
    if len(words) > MAX_FOLLOWUP_WORDS:
        return False
    if _ANAPHORA.search(_EXISTENTIAL.sub(" ", question)) or _CONTINUATION.search(question):
        return True
    # "was anyone hurt?", "what was the location?": an aspect of a record, and no record named.
    asks_aspect = bool(_REFERENT.search(question)) or record_aspect(question) is not None
    return asks_aspect and not _names_anything(words)


def _names_anything(words: Sequence[str]) -> bool:
    """A capitalised word after the first, or a number: the question has a subject of its own."""
    return any(w[:1].isupper() for w in words[1:]) or any(ch.isdigit() for w in words for ch in w)


def followup_of(question: str, history: Sequence[AnyMessage]) -> Followup | None:
    """The follow-up ``question`` (the last message of ``history``) leans on, or None when it
    stands on its own or nothing came before."""
    if not is_followup(question):
        return None
    earlier = list(history)[:-1]
    for index in range(len(earlier) - 1, -1, -1):
        message = earlier[index]
        if not isinstance(message, HumanMessage) or not isinstance(message.content, str):
            continue
        previous = message.content.strip()
        if not previous or is_followup(previous):
            continue
        answers = [m for m in earlier[index + 1 :] if isinstance(m, AIMessage) and m.text]
        subject = subject_of(previous) or previous
        return Followup(
            subject=previous,
            query=f"{subject} {question.strip()}",
            said=[m.text for m in answers],
            grounded=bool(answers) and _cites(answers[-1]),
            documents=_cited_documents(answers[-1]) if answers else [],
        )
    return None


def standalone_query(question: str, history: Sequence[AnyMessage]) -> str:
    """The search text for ``question``: a follow-up's subject and the follow-up itself."""
    followup = followup_of(question, history)
    return followup["query"] if followup else question


def _cited_documents(answer: AIMessage) -> list[str]:
    citations = answer.additional_kwargs.get("citations") or []
    return list(dict.fromkeys(str(c["doc_id"]) for c in citations if c.get("doc_id")))


def _cites(answer: AIMessage) -> bool:
    return bool(answer.additional_kwargs.get("citations")) or "[C:" in answer.text
