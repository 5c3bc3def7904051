"""Offline answers composed for the question asked, every sentence copied from a passage and cited.

A cause question gets the stated cause first (an NTSB "Probable Cause" section, a "root cause"
sentence), a how-fixed question the resolution first, a what-happened question a one-line record
first, a pattern question one line per distinct document. No sentence is said twice, in this
answer or in the conversation's earlier ones, and what the archive does not hold is said.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from answers import prompts
from answers.aspects import Aspect, asks_cause, question_aspect
from answers.extractive import ended
from answers.followup_answer import (
    RecordFacts,
    named_first,
    named_subject_only,
    record_facts,
    unsaid,
    without_filler,
)
from answers.lines import (
    Missing,
    closest_records,
    missing_terms,
    record_label,
    subject_first,
    year_first,
)
from answers.scoring import Embed, scores
from answers.thread_answer import ThreadQuestion, thread_answer
from answers.units import (
    CAUSE_SECTIONS,
    Unit,
    is_repeat,
    said_sentences,
    signature,
    units_of,
)
from archive.store.passages import Passage

#: Passages whose sentences are considered (the answer's passages are best first).
MAX_PASSAGES = 8
#: A sentence scoring below this share of the best one is left out.
RELATIVE_FLOOR = 0.4
#: Sentences from one passage, unless they are one stated cause.
PER_PASSAGE = 2


@dataclass(frozen=True)
class AnswerRequest:
    """What the composer needs from a turn."""

    question: str  # what this turn asks, in its own words (decides the aspect answered)
    query: str  # what the sentences are matched against (a follow-up's subject + its aspect)
    passages: Sequence[Passage]  # the answer's passages, best first
    pool: Sequence[Passage] = ()  # everything retrieved this turn (a document's cause)
    conversation: str | None = None  # the mail conversation a thread question is about
    scope: Sequence[str] = ()  # names the filters restrict to: they do not make an answer
    said: Sequence[str] = ()  # earlier answers of the conversation: not repeated
    subject_documents: Sequence[str] = ()  # a follow-up's subject: the documents cited before
    year: int | None = None  # a year mentioned in passing: its records first
    notes: Sequence[str] = ()  # lines said before the answer (how dates were used)
    embed: Embed | None = None  # sentence embeddings for choosing by meaning
    max_sentences: int = 4
    aspect: Aspect | None = None  # None: from the question


@dataclass
class _Answer:
    lines: list[str] = field(default_factory=list)
    seen: list[frozenset[str]] = field(default_factory=list)

    def fresh(self, text: str) -> bool:
        return not is_repeat(signature(text), self.seen)

    def take(self, text: str) -> None:
        self.seen.append(signature(text))


def compose_answer(request: AnswerRequest) -> str:
    """The answer to ``request.question`` from its passages (see the module docstring)."""
    if not request.passages:
        return prompts.NO_RESULTS_REPLY
    aspect = request.aspect or question_aspect(request.question)
    passages = subject_first(
        named_first(request.question, year_first(request.passages, request.year)),
        request.pool,
        request.subject_documents,
    )
    head = unsaid(request.notes, request.said)
    facts = record_facts(request.question, passages, request.pool, request.subject_documents)
    if facts is not None and facts.alone:
        return _joined(head, prompts.EXTRACTIVE_LEAD, [facts.line])
    aspect, passages = RecordFacts.narrowed(facts, aspect, passages)
    passages = named_subject_only(
        request.question, aspect, passages, request.pool, request.subject_documents
    )
    # "nothing retrieved mentions X" is checked against all that was retrieved, not only the
    # passages the answer is built from
    retrieved = [*passages, *request.pool]
    missing = missing_terms(request.question, retrieved, scope=request.scope, year=request.year)
    answer = _Answer(seen=said_sentences(request.said))
    fresh = RecordFacts.unpadded(request.question, answer.fresh)

    if facts is None and (missing.essential or aspect == "pattern"):
        records = _records(request, passages, missing, head, fresh, answer)
        if records is not None:
            return records
    threaded = thread_answer(  # a question about a mail thread: from the reply that answers
        ThreadQuestion(
            request.question,
            request.query,
            aspect,
            passages,
            request.pool,
            request.scope,
            request.embed,
            followup=bool(request.said),
            conversation=request.conversation,
        ),
        fresh=answer.fresh,
        take=answer.take,
    )
    if threaded is not None:
        return "\n".join([*head, *threaded])
    units = [u for rank, r in enumerate(passages[:MAX_PASSAGES]) for u in units_of(r, rank)]
    units = without_filler(request.question, units)
    units += _cause_units(aspect, passages, request.pool, units)
    scored = scores(
        request.query,
        units,
        aspect,
        scope=request.scope,
        embed=request.embed,
        also_cause=asks_cause(request.question),
    )
    first: list[str] = [facts.line] if facts is not None else []
    if aspect == "happened":
        first = _record_line(passages[0], units, scored, answer)
    said = _best_said(units, scored, answer)
    unsaid_best = max(
        (v for u, v in zip(units, scored, strict=True) if answer.fresh(u.text)), default=0.0
    )
    pointed = said is not None and request.said and not first and said[0] > unsaid_best
    if said is not None and pointed and not _cause_unsaid(aspect, units, answer):
        return _pointed_back(head, said[1])  # the follow-up's answer was said above
    chosen = _choose(units, scored, aspect, answer, request.max_sentences)
    if not chosen and not first:
        return _pointed_back(head, said[1]) if said is not None else _fallback(head, units, answer)
    body = first + [f"{ended(u.text)} [C:{u.chunk_id}]" for u in _ordered(chosen, aspect)]
    return _joined(
        head, prompts.EXTRACTIVE_LEAD, [" ".join(body)] if aspect != "happened" else body
    )


def _records(
    request: AnswerRequest,
    passages: Sequence[Passage],
    missing: Missing,
    head: list[str],
    fresh: Callable[[str], bool],
    answer: _Answer,
) -> str | None:
    """The closest records, one line each: what the archive holds when the question names
    something it lacks, or a pattern over several records (None: fewer than two)."""
    listed: Aspect = "cause" if asks_cause(request.question) else "pattern"

    def score(units: list[Unit]) -> list[float]:
        return scores(request.query, units, listed, scope=request.scope, embed=request.embed)

    body = closest_records(passages, request.pool, score=score, fresh=fresh, take=answer.take)
    if missing.essential:
        head.append(prompts.NOT_FOUND.format(terms=", ".join(missing.terms)))
        return _joined(head, prompts.CLOSEST_RECORDS, body)
    if len(body) > 1:
        return _joined(head, prompts.PATTERN_LEAD.format(n=len(body)), body)
    return None


def _cause_units(
    aspect: Aspect,
    passages: Sequence[Passage],
    pool: Sequence[Passage],
    units: list[Unit],
) -> list[Unit]:
    """For a cause question, the top document's cause section when it was retrieved but is not
    among the answer's passages."""
    if aspect != "cause":
        return []
    top = passages[0]["doc_id"]
    if any(u.doc_id == top and u.stated and u.role == "cause" for u in units):
        return []
    for record in pool:
        if record["doc_id"] == top and CAUSE_SECTIONS.search(record.get("section") or ""):
            return units_of(record, 0)
    return []


def _cause_unsaid(aspect: Aspect, units: Sequence[Unit], answer: _Answer) -> bool:
    """Whether a cause question has a stated cause (an NTSB "Probable Cause") not yet said: it
    is the answer, even where a sentence said above scores higher for mentioning a cause."""
    return aspect == "cause" and any(
        u.stated and u.role == "cause" and answer.fresh(u.text) for u in units
    )


def _pointed_back(head: list[str], unit: Unit) -> str:
    return _joined(head, prompts.ALREADY_SAID, [f"{ended(unit.text)} [C:{unit.chunk_id}]"])


def _best_said(
    units: Sequence[Unit], scored: Sequence[float], answer: _Answer
) -> tuple[float, Unit] | None:
    """The best-scoring sentence an earlier answer of the conversation already said."""
    said = [
        (v, u) for u, v in zip(units, scored, strict=True) if v > 0 and not answer.fresh(u.text)
    ]
    return max(said, key=lambda pair: pair[0]) if said else None


def _choose(
    units: Sequence[Unit], scored: Sequence[float], aspect: Aspect, answer: _Answer, limit: int
) -> list[Unit]:
    """The best fresh sentences, at most :data:`PER_PASSAGE` a passage; for a cause question
    the best stated cause whole, however many sentences it has."""
    order = sorted(range(len(units)), key=lambda i: (-scored[i], units[i].rank, units[i].position))
    chosen: list[Unit] = []
    taken: dict[str, int] = {}
    whole = _stated_cause(units, scored, order) if aspect == "cause" else None
    if whole is not None:
        for unit in units:
            if unit.chunk_id == whole and answer.fresh(unit.text):
                answer.take(unit.text)
                chosen.append(unit)
        taken[whole] = PER_PASSAGE
    budget = limit if whole is None else len(chosen) + max(limit - len(chosen), 2)
    best = max(scored, default=0.0)
    per_passage = PER_PASSAGE + (aspect == "fix")  # a fix often takes a few sentences to state
    floor = max(RELATIVE_FLOOR * best, 1e-9)  # far weaker sentences only pad the answer
    for i in order:
        unit = units[i]
        if len(chosen) >= budget:
            break
        if scored[i] < floor or taken.get(unit.chunk_id, 0) >= per_passage:
            continue
        if not _fits(unit, aspect, chosen) or not answer.fresh(unit.text):
            continue
        answer.take(unit.text)
        taken[unit.chunk_id] = taken.get(unit.chunk_id, 0) + 1
        chosen.append(unit)
    return chosen


def _fits(unit: Unit, aspect: Aspect, chosen: Sequence[Unit]) -> bool:
    """Whether ``unit`` belongs in an answer of ``aspect`` that already holds ``chosen``."""
    if aspect == "happened" and unit.stated and unit.role == "cause":
        return False  # what happened is told; why is a follow-up's to ask
    if aspect == "cause" and unit.role == "fix":  # the fix is a follow-up's to give
        return False
    # A one-event answer stays with the event of its best sentence.
    return not (chosen and aspect in ("cause", "fix") and not _same_subject(unit, chosen[0]))


def _same_subject(unit: Unit, lead: Unit) -> bool:
    """Whether two sentences are about the same event: one document, or one mail thread."""
    thread = unit.record.get("thread_id")
    return unit.doc_id == lead.doc_id or (bool(thread) and thread == lead.record.get("thread_id"))


def _stated_cause(units: Sequence[Unit], scored: Sequence[float], order: list[int]) -> str | None:
    """The chunk of the best-scoring sentence of a cause section (NTSB "Probable Cause"), if
    any is relevant: it is said whole."""
    for i in order:
        unit = units[i]
        section = unit.record.get("section") or ""
        if unit.role == "cause" and scored[i] > 0 and CAUSE_SECTIONS.search(section):
            return unit.chunk_id
    return None


def _ordered(chosen: list[Unit], aspect: Aspect) -> list[Unit]:
    """Cause and fix answers lead with what they asked for (best first), then the rest in
    passage order; other answers read in passage order."""
    wanted = {"cause": ("cause", "found"), "fix": ("fix", "found")}.get(aspect)
    if wanted is None:
        return sorted(chosen, key=lambda u: (u.rank, u.position))
    lead = [u for u in chosen if u.role in wanted]
    if lead and lead[0].stated:  # a stated cause or resolution reads in its own order
        lead = [u for u in lead if u.chunk_id == lead[0].chunk_id] + [
            u for u in lead if u.chunk_id != lead[0].chunk_id
        ]
    rest = sorted((u for u in chosen if u.role not in wanted), key=lambda u: (u.rank, u.position))
    return lead + rest


def _record_line(
    record: Passage, units: Sequence[Unit], scored: Sequence[float], answer: _Answer
) -> list[str]:
    """What happened: the top document's record (report, date, place, aircraft or vessel) and
    its outcome (a stated cause only when nothing else is there: a follow-up asks for it)."""
    own = [
        (scored[i] + {"outcome": 2.0, "cause": 0.5}.get(u.role, 0.0) - 3.0 * u.stated, u)
        for i, u in enumerate(units)
        if u.doc_id == record["doc_id"]
    ]
    if not own:
        return []
    _, best = max(own, key=lambda pair: (pair[0], -pair[1].position))
    answer.take(best.text)
    return [f"{record_label(record)}: {ended(best.text)} [C:{best.chunk_id}]"]


def _fallback(head: list[str], units: Sequence[Unit], answer: _Answer) -> str:
    """No sentence answers the question: the first fresh sentence of the best two passages."""
    lines: list[str] = []
    for rank in (0, 1):
        unit = next((u for u in units if u.rank == rank and answer.fresh(u.text)), None)
        if unit is not None:
            answer.take(unit.text)
            lines.append(f"{ended(unit.text)} [C:{unit.chunk_id}]")
    if not lines:
        return "\n\n".join([*head, prompts.NOTHING_NEW]) if head else prompts.NOTHING_NEW
    return _joined(head, prompts.EXTRACTIVE_NOTHING, [" ".join(lines)])


def _joined(head: Sequence[str], lead: str, body: Sequence[str]) -> str:
    top = "\n".join([*head, lead])
    return f"{top}\n\n" + "\n".join(body)
