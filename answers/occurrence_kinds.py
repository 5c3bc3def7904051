"""What a set of investigation reports was about: the kind of occurrence each report
investigated, as its title names it ("Signal passed at danger …", "Derailment of …",
"Collision between … level crossing …"), not what its findings say went wrong.

A question asks for the kinds when it asks what kinds or types of occurrence a set holds, what
the reports were about, or which problems or occurrences were investigated; one that also asks
why (causes, factors, findings, safety issues, what led to them) keeps the findings. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from text.words import stem

#: Kinds or types of the occurrences themselves ("which kinds of occurrences", "common kinds?",
#: "what type of occurrence"), what the reports were about ("what were they mostly about?"),
#: or the problems investigated ("the rail problems TAIC investigated").
_KINDS = re.compile(
    r"\b(?:kinds?|types?|sorts?|categor(?:y|ies))\b(?!\s+of\s+(?:causes?|factors?|findings?|"
    r"safety\s+issues?|errors?|failures?|reasons?|mistakes?|lessons?))"
    r"|\b(?:were|are|was|is)\s+(?:they|these|those|the\s+\w+)\s+(?:\w+\s+)?about\b"
    r"|\b(?:problems?|occurrences?|events?|things?)\s+(?:(?:that|which)\s+)?"
    r"(?:TAIC|the\s+Commission|they|it|investigators)\s+(?:\w+\s+)?"
    r"(?:investigated|looked\s+into|examined|covered)\b",
    re.IGNORECASE,
)
#: Words asking why, or what an investigation found: such a question groups findings.
_WHY = re.compile(
    r"\b(?:why|caus\w*|factors?|findings?|found|reasons?|safety\s+issues?|lead\s+up|led\s+up|"
    r"leads?\s+to|led\s+to|contribut\w*|behind|lessons?|go(?:es)?\s+wrong|went\s+wrong)\b",
    re.IGNORECASE,
)
#: A report's number and what precedes it ("Final report RO-2014-101: ", "Inquiry 11-106: "),
#: and its trailing date.
_NUMBER = re.compile(r"^.*?\b(?:[A-Z]{2}\s?-\s?)?\d{2,4}\s?-\s?\d{3}\s*:\s*")
_DATE = re.compile(
    r",?\s*\d{1,2}\s+(?:January|February|March|April|May|June|July|August|September|October|"
    r"November|December)\s+\d{4}\s*$",
    re.IGNORECASE,
)


def asks_occurrence_kinds(question: str) -> bool:
    """Whether ``question`` asks what kinds of occurrence its reports were about, not why."""
    return bool(_KINDS.search(question)) and not _WHY.search(question)


def occurrence_of(title: str) -> str:
    """The occurrence a report's ``title`` names, without its number and date: "Final report
    RO-2014-101: Collision between …, Rangiriri, 27 February 2014" → "Collision between …,
    Rangiriri"."""
    return _DATE.sub("", _NUMBER.sub("", title.strip(), count=1)).strip()


#: Words that name something happening, by their form: "derailment", "collision", "separation",
#: "failure", "fatality", "grounding", "crossing", "passed", "struck", or one of the few short
#: nouns of an occurrence ("fire", "loss", "impact"); not the vehicle or the place of a title.
_EVENT_WORD = re.compile(
    r"[a-z]{3,}(?:ments?|sions?|tions?|ures?|ities|ity|ings?|ed)|struck|fell|sank|"
    r"fires?|explosions?|loss|impacts?|contact|falls?|strikes?|crash(?:es)?|overruns?|"
    r"roll-?overs?|breach(?:es)?|fatal",
)
#: Words of that form that name no occurrence.
_NOT_EVENT = frozenset({"during", "being", "following", "including", "regarding", "station"})
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def event_stems(texts: Iterable[str]) -> set[str]:
    """Stems of the words in ``texts`` that name something happening (:data:`_EVENT_WORD`):
    a group of occurrences is named by one of them, never by a vehicle or a place alone."""
    return {
        stem(word)
        for text in texts
        for word in (w.lower() for w in _WORD.findall(text))
        if _EVENT_WORD.fullmatch(word) and word not in _NOT_EVENT
    }
