"""The pure parts of benchmarks/feedback_simulation.py: the seeded split of a split's queries into
simulation and evaluation queries, the simulated user, the event schedule and the tables.

Nothing here reads results: the split is a hash of the seed and the query id, decided before any
query is run, and the user's choices are a pure function of (seed, query id, what was shown).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

#: Feedback counts at which the collection is adapted and the evaluation queries scored.
CHECKPOINTS = (50, 100, 200, 500, 1000)
QUICK_CHECKPOINTS = (50, 100)
#: Share of a split's queries the simulated users ask; the rest are only ever evaluated.
SIMULATION_SHARE = 2 / 3
#: Citations a user looks at: the first five the answer shows.
SHOWN = 5

ActionKind = Literal["open", "download", "thumb"]


def _rank(seed: int, query_id: str) -> int:
    digest = hashlib.sha256(f"{seed}:{query_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def split_queries(
    query_ids: Sequence[str], seed: int, share: float = SIMULATION_SHARE
) -> tuple[list[str], list[str]]:
    """(simulation queries, evaluation queries): the ids ordered by a hash of (seed, id), the
    first ``share`` of them simulated. Stable across runs and machines; both lists in hash order,
    so a prefix of either is itself a seeded sample."""
    if not 0.0 < share < 1.0:
        raise ValueError(f"the simulated share must lie strictly between 0 and 1, not {share}")
    ordered = sorted(dict.fromkeys(query_ids), key=lambda q: (_rank(seed, q), q))
    cut = round(len(ordered) * share)
    return ordered[:cut], ordered[cut:]


def sub_corpus(
    corpus_ids: Sequence[str],
    qrels: Mapping[str, Mapping[str, int]],
    query_ids: Sequence[str],
    distractors: int,
    seed: int,
) -> set[str]:
    """The documents of a quick run's smaller collection: every document judged for
    ``query_ids`` and ``distractors`` others drawn by a hash of (seed, id). Chosen from the
    judgements of the queries the run uses, never from any result."""
    judged = {doc for q in query_ids for doc in qrels[q]}
    others = sorted((d for d in corpus_ids if d not in judged), key=lambda d: (_rank(seed, d), d))
    return judged | set(others[:distractors])


@dataclass(frozen=True)
class Shown:
    """One citation an answer showed: its number, passage and document."""

    n: int
    chunk_id: str
    source_id: str


@dataclass(frozen=True)
class Action:
    """One feedback event a simulated user sends: open or download a citation, or a thumb."""

    kind: ActionKind
    chunk_id: str | None = None  # the citation opened or downloaded
    source_id: str | None = None  # its document
    score: int = 0  # the thumb: 1 or -1
    wrong: bool = False  # the noise: a citation opened that is not relevant
    answer: tuple[str, ...] = ()  # the thumb: the documents of every citation the answer showed


@dataclass(frozen=True)
class UserModel:
    """How a simulated user reacts to an answer.

    When a relevant document is among the first :data:`SHOWN` citations the user opens it and,
    with probability ``download``, downloads its original. With probability ``noise`` the user
    also opens one of the non-relevant citations shown (a curious or mistaken click). With
    probability ``thumbs`` the user then gives a thumb: up when a relevant citation was shown,
    down otherwise (also for an answer that showed none).
    """

    seed: int = 0
    noise: float = 0.1
    download: float = 0.25
    thumbs: float = 1.0

    def __post_init__(self) -> None:
        for name in ("noise", "download", "thumbs"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} is a probability, not {value}")

    def react(
        self, query_id: str, shown: Sequence[Shown], relevant: Mapping[str, int]
    ) -> list[Action]:
        """The actions of the user who asked ``query_id`` and was shown ``shown``, in order."""
        rng = random.Random(f"{self.seed}:{query_id}")
        top = sorted(shown, key=lambda c: c.n)[:SHOWN]
        hits = [c for c in top if relevant.get(c.source_id, 0) > 0]
        misses = [c for c in top if relevant.get(c.source_id, 0) <= 0]
        # Every draw is made whatever the outcome, so one choice never shifts another's dice.
        downloads, mistakes, thumbs = rng.random(), rng.random(), rng.random()
        wrong = misses[rng.randrange(len(misses))] if misses else None
        actions: list[Action] = []
        if hits:
            actions.append(Action("open", hits[0].chunk_id, hits[0].source_id))
            if downloads < self.download:
                actions.append(Action("download", hits[0].chunk_id, hits[0].source_id))
        if wrong is not None and mistakes < self.noise:
            actions.append(Action("open", wrong.chunk_id, wrong.source_id, wrong=True))
        if thumbs < self.thumbs:
            answer = tuple(c.source_id for c in sorted(shown, key=lambda c: c.n))
            actions.append(Action("thumb", score=1 if hits else -1, answer=answer))
        return actions


@dataclass
class Ledger:
    """What the simulated users have done so far."""

    turns: int = 0  # questions asked
    events: int = 0  # feedback actions sent
    shown_relevant: int = 0  # turns that showed a relevant citation in the first five
    wrong_opens: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)
    # Documents that received positive feedback: opened or downloaded in an answer that was not
    # thumbed down (what `bosun adapt`'s click model takes as a positive).
    labelled: set[str] = field(default_factory=set)
    # This turn's opened documents not labelled before it (a thumbs-down withdraws them).
    opened_now: set[str] = field(default_factory=set)
    # The last answer's actions not sent yet (a checkpoint fell between them), with its turn.
    backlog: list[tuple[Action, Any]] = field(default_factory=list)

    def answered(self, actions: Sequence[Action], turn: Any) -> None:
        """One more question asked; its user's ``actions`` wait to be sent."""
        self.turns += 1
        self.shown_relevant += any(a.kind == "open" and not a.wrong for a in actions)
        self.backlog = [(a, turn) for a in actions]
        self.opened_now = set()

    def record(self, action: Action) -> None:
        """One feedback event sent."""
        self.events += 1
        self.by_kind[action.kind] = self.by_kind.get(action.kind, 0) + 1
        self.wrong_opens += action.wrong
        if action.source_id is not None and action.source_id not in self.labelled:
            self.labelled.add(action.source_id)
            self.opened_now.add(action.source_id)
        if action.score == -1:
            self.labelled -= self.opened_now


def remembered(qrels: Mapping[str, int], labelled: set[str]) -> bool:
    """Whether a relevant document of an evaluation query received positive feedback from some
    simulated user (:attr:`Ledger.labelled`): the query can gain from memory, not only from
    generalisation."""
    return any(score > 0 and doc in labelled for doc, score in qrels.items())


@dataclass(frozen=True)
class Checkpoint:
    """The evaluation queries scored after ``events`` feedback events."""

    events: int
    turns: int
    installed: bool  # whether this `bosun adapt` installed its model (else the last one stays)
    memory: Sequence[str]  # evaluation queries whose relevant document received feedback
    stock: Mapping[str, float]  # query id -> nDCG@10, stock default
    adapted: Mapping[str, float]  # query id -> nDCG@10 after adapt


def _mean(scores: Mapping[str, float], ids: Sequence[str]) -> float | None:
    return round(sum(scores[q] for q in ids) / len(ids), 4) if ids else None


COLUMNS = (
    "feedback events",
    "turns",
    "adapt installed",
    "memory queries",
    "memory: stock",
    "memory: adapted",
    "unseen-document queries",
    "unseen: stock",
    "unseen: adapted",
    "all: stock",
    "all: adapted",
)


def checkpoint_row(point: Checkpoint) -> list[Any]:
    """One table row: nDCG@10 of the stock default and of the adapted collection over the
    evaluation queries whose relevant documents received feedback ("memory"), over the others
    ("unseen"), and over all of them."""
    every = list(point.stock)
    memory = [q for q in every if q in set(point.memory)]
    unseen = [q for q in every if q not in set(point.memory)]
    return [
        point.events,
        point.turns,
        "yes" if point.installed else "no",
        len(memory),
        _mean(point.stock, memory),
        _mean(point.adapted, memory),
        len(unseen),
        _mean(point.stock, unseen),
        _mean(point.adapted, unseen),
        _mean(point.stock, every),
        _mean(point.adapted, every),
    ]
