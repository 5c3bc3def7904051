"""What the composer does for a question about one aspect of one record (see
:mod:`answers.record_aspects`): the aspect's line from the record's fields, alone or before why
it happened; and no metadata line of an aspect nobody asked about."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from answers.aspects import Aspect, asks_cause
from answers.incidents import incident_key
from answers.record_aspects import aspect_line, is_metadata_line, record_aspect, subject_record
from answers.units import Unit, is_repeat, said_sentences, signature
from archive.store.passages import Passage
from text.names import found_names, names_of


@dataclass(frozen=True)
class RecordFacts:
    """The answer's line about the asked aspect of its subject record."""

    line: str  # the aspect from the record's fields, cited to it
    subject: Passage  # the record
    alone: bool  # the question asks nothing else (else: the line, then why it happened)

    def own(self, passages: Sequence[Passage]) -> list[Passage]:
        """``passages`` of the subject record only (all of them when none is)."""
        own = [p for p in passages if p["doc_id"] == self.subject["doc_id"]]
        return own or [self.subject]

    @staticmethod
    def narrowed(
        facts: RecordFacts | None, aspect: Aspect, passages: list[Passage]
    ) -> tuple[Aspect, list[Passage]]:
        """The aspect and passages of the rest of the answer: with ``facts`` (the asked aspect
        and why), why it happened from the subject record's passages."""
        return ("cause", facts.own(passages)) if facts is not None else (aspect, passages)

    @staticmethod
    def unpadded(question: str, fresh: Callable[[str], bool]) -> Callable[[str], bool]:
        """``fresh`` that also refuses a metadata line of an aspect ``question`` does not ask."""
        asked = record_aspect(question)
        return lambda text: fresh(text) and not is_metadata_line(text, asked)


def record_facts(
    question: str,
    passages: Sequence[Passage],
    pool: Sequence[Passage],
    documents: Sequence[str],
) -> RecordFacts | None:
    """The line answering ``question``'s record aspect from its subject's fields (a follow-up's
    subject: ``documents``), or None when it asks none, has no subject or the subject lacks the
    field."""
    aspect = record_aspect(question)
    if aspect is None:
        return None
    subject = subject_record(question, passages, pool, documents)
    line = aspect_line(subject, aspect) if subject is not None else None
    if subject is None or line is None:
        return None
    return RecordFacts(line=line, subject=subject, alone=not asks_cause(question))


def named_subject_only(
    question: str,
    aspect: Aspect,
    passages: list[Passage],
    pool: Sequence[Passage],
    documents: Sequence[str],
) -> list[Passage]:
    """For a what-happened question about one incident (its top record holds every name the
    question gives, or it is a follow-up's subject), the passages telling that incident only
    (:func:`answers.incidents.incident_key`: a thread's messages stay together): the account of
    one accident cites no other record. Other questions keep ``passages``."""
    if aspect != "happened":
        return passages
    subject = subject_record(question, passages, pool, documents)
    if subject is None:
        return passages
    told = incident_key(subject)
    own = {p["chunk_id"]: p for p in (*passages, *pool) if incident_key(p) == told}
    return list(own.values()) or [subject]


def without_filler(question: str, units: list[Unit]) -> list[Unit]:
    """``units`` without metadata lines ("Vessel: Baltic Trader, IMO 9345678, ...") of an aspect
    ``question`` does not ask about."""
    asked = record_aspect(question)
    return [u for u in units if not is_metadata_line(u.text, asked)]


def unsaid(notes: Sequence[str], said: Sequence[str]) -> list[str]:
    """``notes`` (how dates were used) less those an earlier answer of the conversation said:
    "Dates filtered to ..., as asked." is said once, not on every follow-up."""
    seen = said_sentences(said)
    return [note for note in notes if not is_repeat(signature(note), seen)]


def named_first(question: str, passages: Sequence[Passage]) -> list[Passage]:
    """``passages`` with those whose record holds more of the question's names first (stable):
    "the PA20 crash near Dover" is the PA-20's at Dover, not another PA-20's ranked above it."""
    names = names_of(question)
    if len(names) < 2:
        return list(passages)

    def held(passage: Passage) -> int:
        return len(found_names(question, names, f"{passage['title']} {passage['text']}"))

    return sorted(passages, key=lambda p: -held(p))
