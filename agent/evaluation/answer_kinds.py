"""Answer quality per kind of question: does the answer say what the archive says?

Question sets (``benchmarks/questions/answers_*.jsonl``) hold one object a line with a ``kind``:

- ``cause``: ``{"question", "report_no"}``, gold = that NTSB record's ``probable_cause`` (read
  from ``--ntsb-records``) or an inline ``"gold"``;
- ``fix``: ``{"question", "gold"}``, gold = the thread's fix as written in it (a command, a
  setting), found in a cited sentence of the answer;
- ``pattern``: ``{"question", "min_documents"}`` (default 3): distinct documents cited; with
  ``"set"`` (the matching set's size, ``"set_exact"``) and ``"dominant"`` (what the largest group
  is about, ``benchmarks/questions/make_pattern_questions.py``) also named groups with counts,
  cited examples per top group and the dominant group named
  (:mod:`agent.evaluation.pattern_score`); a mail-thread pattern line carries ``"min_groups"``
  and, where read, ``"dominant_messages"`` (Message-ID prefixes one top group must cite,
  ``benchmarks/questions/make_thread_pattern_questions.py``);
- ``followup``: ``{"question", "followup", "gold" or "report_no" (optional, for the follow-up)}``:
  two turns on one thread; the follow-up must be answered (cited) and repeat no sentence of the
  first answer;
- ``count``: ``{"question", "count"}``, gold = the number of matching records computed from the
  raw records (``benchmarks/questions/make_count_questions.py``): the first number the answer
  states must be it exactly;
- ``claim`` and ``dates``, and a ``followup`` asking one ``aspect`` of a record: scored by
  :mod:`agent.evaluation.followup_scores` (``make_followup_questions.py`` writes them).

Every answer is also checked for valid citations, repeated sentences (normalised-token Jaccard
at least :data:`REPEAT_JACCARD`) and whether the cutoff or a filter wrongly stopped it.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from agent.evaluation import followup_scores
from agent.evaluation.answers import QuestionsError
from agent.evaluation.pattern_score import PatternGold, measure_pattern
from agent.evaluation.thread_gold import cites_message, fix_stated
from graph.builder import BosunGraph
from graph.context import Context
from graph.state import diagnostics_of
from text.sentences import sentences
from tools.timing import elapsed_ms

KINDS = ("cause", "fix", "pattern", "followup", "count", "claim", "dates")
_NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w])|(?<![\w.,])\d+(?![\w])")
#: Two sentences of one answer (or of a follow-up and the answer before) this alike repeat.
REPEAT_JACCARD = 0.8
_MARKER = re.compile(r"\s*\[(?:C:)?[^\]\s]{1,16}\]")


@dataclass(frozen=True)
class KindQuestion:
    """One question of a kind, with its gold."""

    kind: str
    question: str
    gold: str = ""
    followup: str = ""
    min_documents: int = 3
    count: int | None = None  # a count question's exact answer
    pattern: PatternGold | None = None  # a pattern question's set and dominant group
    phrases: tuple[str, ...] = ()  # a thread question's gold key phrases (see thread_gold)
    stated_in: tuple[str, ...] = ()  # ... and the messages that state them
    spec: Mapping[str, Any] = field(default_factory=dict)  # the line (followup_scores reads it)


@dataclass
class Turn:
    """What one turn produced."""

    answer: str
    stopped: bool
    citations: list[dict[str, Any]]
    invalid: int
    ms: float
    filters: dict[str, Any] = field(default_factory=dict)  # the filters in force after the turn


@dataclass
class KindResult:
    """One question's measurements."""

    question: KindQuestion
    turns: list[Turn] = field(default_factory=list)

    @property
    def last(self) -> Turn:
        return self.turns[-1]

    def measures(self) -> dict[str, Any]:
        q, last = self.question, self.last
        out: dict[str, Any] = {
            "stopped": any(t.stopped for t in self.turns),
            "citations_valid": all(t.citations and not t.invalid for t in self.turns),
            "repeated": sum(repeats(t.answer) for t in self.turns),
            "ms": last.ms,
        }
        if q.gold:
            out["gold"] = contains(last.answer, q.gold)
        if q.phrases:
            out["gold"] = fix_stated(last.answer, last.citations, q.phrases, q.stated_in)
            out["message_cited"] = cites_message(last.citations, q.stated_in)
        if q.count is not None:
            out["exact_count"] = first_number(last.answer) == q.count
        if q.kind == "pattern":
            out["documents"] = len({c["doc_id"] for c in last.citations})
        if q.pattern is not None:
            out.update(measure_pattern(last.answer, last.citations, q.pattern))
        if q.kind == "followup":
            first = self.turns[0]
            out["followup_answered"] = bool(last.citations) and not last.stopped
            out["followup_not_repeated"] = not overlap(first.answer, last.answer)
        out |= followup_scores.measure(
            q.kind,
            q.spec,
            [t.answer for t in self.turns],
            [t.citations for t in self.turns],
            last.filters,
        )
        return out


def first_number(answer: str) -> int | None:
    """The first whole number an answer states ("1,377" is 1377), citation markers aside."""
    match = _NUMBER.search(_MARKER.sub(" ", answer))
    return int(match[0].replace(",", "")) if match else None


def normalised(text: str) -> str:
    """Lower-case words joined by single spaces, citation markers and punctuation dropped."""
    return " ".join(re.findall(r"[a-z0-9]+", _MARKER.sub(" ", text).lower()))


def contains(answer: str, gold: str) -> bool:
    """Whether the answer states ``gold`` word for word (case, punctuation, markers aside)."""
    return normalised(gold) in normalised(answer)


def _words(sentence: str) -> frozenset[str]:
    return frozenset(re.findall(r"[a-z0-9]+", sentence.lower()))


def _similar(a: frozenset[str], b: frozenset[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= REPEAT_JACCARD


def _answer_sentences(answer: str) -> list[frozenset[str]]:
    plain = _MARKER.sub(" ", answer)
    return [w for s in sentences(plain) if len(w := _words(s)) >= 4]


def repeats(answer: str) -> int:
    """Sentences of ``answer`` that repeat an earlier one of it."""
    seen: list[frozenset[str]] = []
    count = 0
    for words in _answer_sentences(answer):
        if any(_similar(words, other) for other in seen):
            count += 1
        seen.append(words)
    return count


def overlap(first: str, second: str) -> bool:
    """Whether ``second`` repeats a sentence of ``first``."""
    said = _answer_sentences(first)
    return any(_similar(w, other) for w in _answer_sentences(second) for other in said)


def read_kind_questions(path: Path, *, gold_causes: Mapping[str, str]) -> list[KindQuestion]:
    """Questions of :data:`KINDS` from ``path`` (see the module docstring)."""
    out = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise QuestionsError(f"cannot read {path}: {err.strerror or err}") from err
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise QuestionsError(f"{where}: not JSON ({err.msg})") from err
        kind = row.get("kind") if isinstance(row, dict) else None
        if kind not in KINDS:
            raise QuestionsError(f'{where}: "kind" must be one of {", ".join(KINDS)}')
        phrases = thread_phrases(row, where)
        gold = "" if phrases else _gold(kind, row, gold_causes, where)
        out.append(
            KindQuestion(
                kind=kind,
                question=str(row.get("question") or ""),
                gold=gold,
                followup=str(row.get("followup") or ""),
                min_documents=int(row.get("min_documents", 3)),
                count=row.get("count") if kind == "count" else None,
                pattern=_pattern_gold(row) if kind == "pattern" else None,
                phrases=phrases,
                stated_in=tuple(row.get("stated_in") or [row.get("message_id", "")]),
                spec=row,
            )
        )
    return out


def _gold(kind: str, row: dict[str, Any], gold_causes: Mapping[str, str], where: str) -> str:
    """A question's gold statement; QuestionsError when its kind's fields are missing."""
    gold = str(row.get("gold") or "")
    asks_cause = kind == "cause" or (kind == "followup" and not row.get("aspect"))
    if asks_cause and not gold and row.get("report_no"):
        gold = gold_causes.get(str(row.get("report_no", "")).upper(), "")
        if not gold:
            raise QuestionsError(f"{where}: no probable cause for {row.get('report_no')!r}")
    if kind == "cause" and not gold:
        raise QuestionsError(f'{where}: a cause question needs "report_no" or "gold"')
    if kind == "count" and not isinstance(row.get("count"), int):
        raise QuestionsError(f'{where}: a count question needs a whole number "count"')
    if kind == "followup" and not row.get("followup"):
        raise QuestionsError(f'{where}: a followup needs "followup"')
    if kind == "dates" and not isinstance(row.get("today"), str):
        raise QuestionsError(f'{where}: a dates question needs "today" (an ISO date)')
    return gold


def _pattern_gold(row: dict[str, Any]) -> PatternGold | None:
    """A pattern question's gold when its line carries one (``set``, ``dominant``,
    ``dominant_messages`` or ``min_groups``)."""
    if not {"set", "dominant", "dominant_messages", "min_groups"} & set(row):
        return None
    size = row.get("set")
    return PatternGold(
        size=int(size) if isinstance(size, int) else None,
        exact=bool(row.get("set_exact", True)),
        dominant=str(row.get("dominant") or ""),
        dominant_messages=tuple(str(m) for m in row.get("dominant_messages") or ()),
    )


def thread_phrases(row: dict[str, Any], where: str) -> tuple[str, ...]:
    """A thread question's gold key phrases (``"gold"`` a list); () for other questions."""
    gold = row.get("gold")
    if not isinstance(gold, list):
        return ()
    if not gold or not all(isinstance(p, str) and p.strip() for p in gold):
        raise QuestionsError(f'{where}: "gold" must be a string or a list of key phrases')
    if not row.get("message_id"):
        raise QuestionsError(f'{where}: a thread question needs the "message_id" that states it')
    return tuple(gold)


def read_gold_causes(path: Path | None) -> dict[str, str]:
    """``ntsb_no`` -> ``probable_cause`` of an NTSB JSONL file (empty without one)."""
    if path is None or not path.exists():
        return {}
    causes = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if record.get("probable_cause"):
                causes[str(record["ntsb_no"]).upper()] = str(record["probable_cause"]).strip()
    return causes


async def run_kind_questions(
    graph: BosunGraph, questions: Sequence[KindQuestion], context: Context, *, progress: Any = None
) -> list[KindResult]:
    """Each question on its own thread (a follow-up as a second turn on it)."""
    results = []
    for question in questions:
        config: Any = {"configurable": {"thread_id": f"eval-{uuid.uuid4().hex[:12]}"}}
        result = KindResult(question)
        today = question.spec.get("today")
        asked = replace(context, today=str(today)) if today else context
        for text in filter(None, (question.question, question.followup)):
            started = time.perf_counter()
            state = await graph.ainvoke(
                {"messages": [HumanMessage(content=text)]}, config, context=asked
            )
            result.turns.append(_turn(state, elapsed_ms(started)))
        results.append(result)
        if progress is not None:
            progress.update(1)
    return results


def _turn(state: Mapping[str, Any], ms: float) -> Turn:
    stopped = bool(state.get("cutoff") or state.get("filter_problem"))
    stopped = stopped or state.get("intent") != "factual_query"
    return Turn(
        answer=str(state["messages"][-1].content),
        stopped=stopped,
        citations=list(state.get("citations") or []),
        invalid=int((diagnostics_of(state).get("citation_check") or {}).get("invalid", 0)),
        ms=ms,
        filters=dict(state.get("filters") or {}),
    )
