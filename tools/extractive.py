"""Offline answers: the passages' own best sentences, each cited, when no chat model is configured.

Nothing is generated: every sentence is copied from a retrieved passage and followed by that
passage's ``[C:<chunk id>]`` marker, so the answer is as trustworthy as the retrieval.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from archive.store.passages import Passage
from providers.rerankers.features import content_stems, is_identifier, tokens
from tools import prompts

_SENTENCE_END = re.compile(r"([.!?][\"')\]]*)\s+(?=[\"'(\[]?[A-Z0-9])|\n\s*\n|\n(?=\s*[-*•\d])")
MIN_CHARS = 25
MAX_CHARS = 400


@dataclass(frozen=True)
class _Sentence:
    text: str
    chunk_id: str
    rank: int  # passage rank, 0 = most relevant
    position: int  # sentence index within the passage
    score: float


#: Words ending in a full stop that do not end a sentence ("No. 3 cylinder", "Capt. Smith").
ABBREVIATIONS = frozenset(
    """no nos nr mr mrs ms dr st capt cpt eng approx ca fig figs vs etc e.g i.e al inc ltd co
    jan feb mar apr jun jul aug sep sept oct nov dec dept ref para sec art vol pp p""".split()  # noqa: SIM905
)


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (and list items), whitespace flattened."""
    parts: list[str] = []
    start = 0
    for boundary in _SENTENCE_END.finditer(text):
        end = boundary.end(1) if boundary.group(1) else boundary.start()
        words = text[start:end].split()
        last_word = words[-1] if words else ""
        if boundary.group(1) and (
            last_word.lower().rstrip(".") in ABBREVIATIONS or re.fullmatch(r"[A-Z]\.", last_word)
        ):
            continue  # "No. 3", "J. Smith": not the end of a sentence
        parts.append(text[start:end])
        start = boundary.end()
    parts.append(text[start:])
    flat = (" ".join(p.split()) for p in parts)
    return [p for p in flat if p]


def _score(question_stems: set[str], ids: set[str], sentence: str, rank: int) -> float:
    words = tokens(sentence)
    stems = set(content_stems(words))
    overlap = len(question_stems & stems) / math.sqrt(len(question_stems) or 1)
    exact = len(ids & set(words))
    if not overlap and not exact:
        return 0.0
    return overlap + 1.0 * exact + 0.3 / (1 + rank)


def extractive_answer(
    question: str,
    passages: Sequence[Passage],
    *,
    scope: Iterable[str] = (),
    max_sentences: int = 4,
    per_passage: int = 2,
    max_passages: int = 5,
) -> str:
    """The passages' sentences that best match ``question``, in passage order, each cited.

    ``scope`` names what the filters already restrict to (vessel names, report numbers): every
    passage mentions them, so they do not make a sentence an answer.
    """
    words = tokens(question)
    scoped = {t for name in scope for t in tokens(name)}
    question_stems = set(content_stems(words)) - set(content_stems(list(scoped)))
    ids = {w for w in words if is_identifier(w)} - scoped
    if not question_stems and not ids:  # the question is only the scope: use it after all
        question_stems, ids = set(content_stems(words)), {w for w in words if is_identifier(w)}
    scored: list[_Sentence] = []
    for rank, record in enumerate(passages[:max_passages]):
        for position, sentence in enumerate(sentences(record["text"])):
            if not MIN_CHARS <= len(sentence) <= MAX_CHARS:
                continue
            score = _score(question_stems, ids, sentence, rank)
            if score > 0:
                scored.append(_Sentence(sentence, record["chunk_id"], rank, position, score))
    chosen: list[_Sentence] = []
    taken: dict[str, int] = {}
    seen: set[str] = set()
    for s in sorted(scored, key=lambda s: (-s.score, s.rank, s.position)):
        key = s.text.casefold()
        if key in seen or taken.get(s.chunk_id, 0) >= per_passage:
            continue
        seen.add(key)
        taken[s.chunk_id] = taken.get(s.chunk_id, 0) + 1
        chosen.append(s)
        if len(chosen) >= max_sentences:
            break
    if not chosen:
        return _fallback(passages)
    chosen.sort(key=lambda s: (s.rank, s.position))
    body = " ".join(f"{_ended(s.text)} [C:{s.chunk_id}]" for s in chosen)
    return f"{prompts.EXTRACTIVE_LEAD}\n\n{body}"


def _fallback(passages: Sequence[Passage]) -> str:
    """No sentence shares a term with the question: the opening of the best passages, cited."""
    lines: list[str] = []
    for record in passages[:2]:
        first = next(
            (s for s in sentences(record["text"]) if len(s) >= MIN_CHARS), record["text"].strip()
        )
        if first:
            lines.append(f"{_ended(first[:MAX_CHARS])} [C:{record['chunk_id']}]")
    if not lines:
        return prompts.NO_RESULTS_REPLY
    return f"{prompts.EXTRACTIVE_NOTHING}\n\n" + " ".join(lines)


def _ended(sentence: str) -> str:
    return sentence if sentence[-1:] in ".!?\"')" else sentence + "."
