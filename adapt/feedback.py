"""Operators' feedback as the labels `bosun adapt` learns from.

The web app stores, per answered turn, every passage its source list showed with the place it
was shown at (``bosun_shown``, written by :mod:`agent.server.labels`), stamped when the user
opened the citation or downloaded the original, and the answer's thumbs (``bosun_feedback``).
Both tables live in the public schema of the database that holds the collection (whose name is
its own schema): the rows of one collection are those whose ``collection`` names it.

A turn becomes a label by a click model that corrects for the place a passage was shown at:

- positives: passages opened or downloaded, unless the answer was thumbed down (an answer the
  user rejected does not vouch for what they opened in it). A thumbs-up names no passage: it
  makes no passage positive by itself (taking every shown passage as relevant made four wrong
  positives of five when the user opened one, and trained the head towards them);
- negatives: passages shown *above* the lowest positive and left alone ("skip-above": a user who
  reads top-down saw them and passed; a passage below the last click may simply not have been
  read, so it says nothing), and every untouched passage of a thumbed-down answer.

A turn nobody opened or thumbed down gives no label. Labels of the same question (its retrieval
query, the follow-up resolved) are merged. The questions with a positive are what the click
memory learns from and is cross-validated on (:mod:`adapt.memory_fit`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.rows import dict_row

#: Labelled questions (with an opened citation) needed to fit and cross-validate a click memory
#: (below this `bosun adapt` changes nothing): five folds of five.
MIN_QUESTIONS = 25
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

_LABELS = """
SELECT s.message_id, s.query, s.chunk_id, s.source_id, s.position,
       s.opened_at IS NOT NULL AS opened, s.downloaded_at IS NOT NULL AS downloaded,
       f.score AS thumbs
FROM bosun_shown s
LEFT JOIN LATERAL (
    SELECT score FROM bosun_feedback f
    WHERE f.message_id = s.message_id AND f.user_id = s.user_id
    ORDER BY f.id DESC LIMIT 1
) f ON true
WHERE s.collection = %s
ORDER BY s.message_id, s.position
"""
_COUNT = """
SELECT (SELECT count(*) FROM bosun_shown
        WHERE collection = %(c)s AND (opened_at > %(t)s OR downloaded_at > %(t)s))
     + (SELECT count(*) FROM bosun_feedback f
        WHERE f.created_at > %(t)s AND EXISTS (
            SELECT 1 FROM bosun_shown s
            WHERE s.message_id = f.message_id AND s.collection = %(c)s)) AS n
"""


@dataclass(frozen=True)
class Shown:
    """One passage one turn showed, and what its user did with it."""

    turn: str  # the answer's message id
    query: str  # the retrieval query (the question, a follow-up resolved)
    chunk_id: str
    source_id: str
    position: int  # 1-based place in the source list
    opened: bool = False
    downloaded: bool = False
    thumbs: int | None = None  # the answer's latest thumbs: 1, -1 or None


@dataclass(frozen=True)
class FeedbackLabel:
    """A question with the passages feedback marked relevant and not relevant (chunk ids) and
    their documents (source ids)."""

    query: str
    positives: frozenset[str]
    negatives: frozenset[str]
    relevant_sources: frozenset[str]
    #: Each positive passage with the best (smallest) place it was shown at: how likely a user
    #: was to look at it, for the click residual's inverse-propensity weights.
    clicked: tuple[tuple[str, int], ...] = ()

    @property
    def key(self) -> str:
        return "feedback:" + hashlib.sha256(self.query.encode()).hexdigest()[:16]


def turn_labels(shown: Iterable[Shown]) -> list[FeedbackLabel]:
    """The labels of the turns in ``shown`` (click model in the module docstring), merged by
    question: a passage positive anywhere is not a negative."""
    turns: dict[str, list[Shown]] = {}
    for row in shown:
        turns.setdefault(row.turn, []).append(row)
    merged: dict[str, tuple[set[str], set[str], set[str]]] = {}
    places: dict[str, dict[str, int]] = {}
    for rows in turns.values():
        positives, negatives = _clicks(sorted(rows, key=lambda r: r.position))
        if not positives and not negatives:
            continue
        pos, neg, sources = merged.setdefault(rows[0].query, (set(), set(), set()))
        pos.update(r.chunk_id for r in positives)
        neg.update(r.chunk_id for r in negatives)
        sources.update(r.source_id for r in positives)
        best = places.setdefault(rows[0].query, {})
        for r in positives:
            best[r.chunk_id] = min(best.get(r.chunk_id, r.position), r.position)
    return [
        FeedbackLabel(
            query,
            frozenset(pos),
            frozenset(neg - pos),
            frozenset(sources),
            tuple(sorted(places[query].items())),
        )
        for query, (pos, neg, sources) in merged.items()
    ]


def _clicks(rows: list[Shown]) -> tuple[list[Shown], list[Shown]]:
    thumbs = rows[0].thumbs
    clicked = [r for r in rows if r.opened or r.downloaded]
    if thumbs == -1:
        return [], [r for r in rows if not (r.opened or r.downloaded)]
    if not clicked:
        return [], []
    lowest = max(r.position for r in clicked)
    return clicked, [r for r in rows if r.position < lowest and r not in clicked]


def read_shown(database_uri: str, collection: str) -> list[Shown]:
    """Every shown passage of ``collection`` with what was done with it ([] before the web
    app or a chat ever created the tables)."""
    with psycopg.connect(database_uri, row_factory=dict_row) as conn:
        if not _has(conn, "bosun_shown"):
            return []
        rows = conn.execute(_LABELS, (collection,)).fetchall()
    return [_shown(r) for r in rows]


def _shown(row: dict[str, Any]) -> Shown:
    return Shown(
        row["message_id"],
        row["query"],
        row["chunk_id"],
        row["source_id"],
        row["position"],
        row["opened"],
        row["downloaded"],
        row["thumbs"],
    )


def new_labels_since(database_uri: str, collection: str, since: Any) -> int:
    """Opens, downloads and thumbs on ``collection``'s turns after ``since`` (a timestamp)."""
    with psycopg.connect(database_uri, row_factory=dict_row) as conn:
        row = conn.execute(_COUNT, {"c": collection, "t": since}).fetchone()
    return int(row["n"]) if row else 0


def last_run(database_uri: str, collection: str) -> datetime:
    """When the collection's last `bosun adapt` run on labels started (the epoch: never)."""
    with psycopg.connect(database_uri, row_factory=dict_row) as conn:
        if not _has(conn, "bosun_adapt_runs"):
            return EPOCH
        row = conn.execute(
            "SELECT max(started_at) AS t FROM bosun_adapt_runs WHERE collection = %s",
            (collection,),
        ).fetchone()
    return row["t"] if row and row["t"] else EPOCH


def record_run(
    database_uri: str, collection: str, started: datetime, report: dict[str, Any]
) -> None:
    """Keep a run's outcome in ``bosun_adapt_runs`` (where the web app's tables exist): the
    schedule counts the labels that arrived after it."""
    labels = report.get("labels") or {}
    check = report.get("check") or {}
    outcome = "installed" if report.get("installed") else str(report.get("reason", ""))[:500]
    with psycopg.connect(database_uri, row_factory=dict_row) as conn:
        if not _has(conn, "bosun_adapt_runs"):
            return
        conn.execute(
            """INSERT INTO bosun_adapt_runs (collection, started_at, labels, outcome, before, after)
               VALUES (%s, %s, %s, %s, %s, %s)""",
            (
                collection,
                started,
                int(labels.get("questions", 0)),
                outcome,
                check.get("before"),
                check.get("after"),
            ),
        )


def _has(conn: psycopg.Connection[dict[str, Any]], table: str) -> bool:
    found = conn.execute("SELECT to_regclass(%s) AS t", (f"public.{table}",)).fetchone()
    return found is not None and found["t"] is not None


def usable(labels: list[FeedbackLabel]) -> list[FeedbackLabel]:
    """The labels with a relevant passage (the click memory learns from them; a question
    with negatives only says nothing about which document to lift)."""
    return [label for label in labels if label.positives]


def enough(labels: list[FeedbackLabel]) -> str | None:
    """Why these labels are too few to adapt on (None: enough)."""
    if len(labels) < MIN_QUESTIONS:
        return (
            f"not enough labels: {len(labels)} feedback questions with an opened citation "
            f"(at least {MIN_QUESTIONS} needed); nothing was changed"
        )
    return None


__all__ = [
    "MIN_QUESTIONS",
    "FeedbackLabel",
    "Shown",
    "enough",
    "last_run",
    "new_labels_since",
    "read_shown",
    "record_run",
    "turn_labels",
    "usable",
]
