"""`bosun adapt` on labels, with the check that keeps a worse model out.

Labels are operators' feedback (:mod:`adapt.feedback`) and the ``--queries`` of a BEIR split.
Without ``--queries`` and without enough feedback the command says so and changes nothing:
mining pairs from the collection alone made no held-out gain (SciFact test 0.7393 → 0.7365,
NTSB pc2narr test1k 0.4371 → 0.4330 nDCG@10) and cost minutes, so it no longer runs on its own.

The held-back slice of the feedback is scored (nDCG@10 of each question's labelled documents
ranked among every candidate the collection's served retrieval finds, not only among the
passages its user was shown) before and after fitting, question by question. The comparison is
paired: a model is refused when its mean change over those questions is a drop of more than
:data:`TOLERANCE` (:func:`verdict`). Held-back questions are labelled only where the model in
place already showed a relevant passage among the first five, so "before" sits near the ceiling
and one labelled document slipping from first to second place reads as a loss of 0.37 on its
question; the tolerance lets such noise through on a few dozen questions. It is no more lenient
than that: an allowance of two standard errors, tried in the full simulation, let through a
SciFact model lower on 6 held-back questions of 42 and higher on 1 (mean −0.022, standard error
0.018) that lost 0.03 nDCG@10 on queries no user asked. A refused model is not kept: the
collection goes back to the model it had
(:mod:`adapt.rollback`). Everything from the first score to the verdict runs under the
collection's write lock, so no other ingest or adapt run sees the model being judged.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from psycopg import AsyncConnection

from adapt import rollback
from adapt.command import AdaptOptions, adapt_unlocked, write_err
from adapt.feedback import (
    FeedbackLabel,
    enough,
    read_shown,
    record_run,
    split_labels,
    turn_labels,
)
from adapt.queries import QuerySource
from adapt.services import Collection
from archive.store.locks import rewriting

#: Scores labelled questions on the collection as it is served now (nDCG@10 of each, in order).
Scorer = Callable[[list[FeedbackLabel]], Awaitable[list[float]]]
#: The largest mean drop in held-back nDCG@10 a fitted model may show and still be installed.
TOLERANCE = 0.02


@dataclass(frozen=True)
class Verdict:
    """The paired comparison of the held-back questions before and after fitting."""

    before: float  # mean nDCG@10 of the model in place
    after: float  # mean nDCG@10 of the fitted model
    better: int  # questions the fitted model ranks higher
    worse: int  # questions it ranks lower
    spread: float  # standard error of the mean change (reported, not decisive)
    refused: bool  # a mean drop of more than TOLERANCE

    def report(self) -> dict[str, Any]:
        return {
            "metric": "ndcg@10",
            "before": self.before,
            "after": self.after,
            "better": self.better,
            "worse": self.worse,
            "standard_error": self.spread,
            "tolerance": TOLERANCE,
        }


def verdict(before: list[float], after: list[float], tolerance: float = TOLERANCE) -> Verdict:
    """Compare per-question scores of the same held-back questions (paired, same order): the
    fitted model is refused when the mean change is a drop of more than ``tolerance``."""
    if len(before) != len(after) or not before:
        raise ValueError(f"paired scores needed, got {len(before)} before and {len(after)} after")
    deltas = [a - b for b, a in zip(before, after, strict=True)]
    n = len(deltas)
    change = sum(deltas) / n
    variance = sum((d - change) ** 2 for d in deltas) / (n - 1) if n > 1 else 0.0
    spread = math.sqrt(variance / n)
    return Verdict(
        before=sum(before) / len(before),
        after=sum(after) / len(after),
        better=sum(d > 1e-9 for d in deltas),
        worse=sum(d < -1e-9 for d in deltas),
        spread=spread,
        refused=change < -tolerance,
    )


@contextlib.asynccontextmanager
async def adapt_lock(database_uri: str, collection: str, *, wait: bool) -> AsyncIterator[bool]:
    """One `bosun adapt` run on labels per collection at a time, across processes and machines
    (the CLI waits for it, the schedule does not): yields whether it is held. A session lock on
    a connection of its own, so a killed run leaves none. While it is held the collection may
    hold a model still being judged: servers reload only when they can take it."""
    key = f"bosun:adapt:{collection}"
    async with await AsyncConnection.connect(database_uri, autocommit=True) as conn:
        if wait:
            await conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (key,))
            held = True
        else:
            cur = await conn.execute("SELECT pg_try_advisory_lock(hashtext(%s))", (key,))
            row = await cur.fetchone()
            held = bool(row and row[0])
        try:
            yield held
        finally:
            if held:
                await conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (key,))


async def adapt_on_labels(
    target: Collection,
    options: AdaptOptions,
    query_source: QuerySource,
    score: Scorer,
    *,
    wait: bool = True,
) -> dict[str, Any]:
    """Adapt ``target`` on its feedback (and ``query_source``); returns the report, whose
    ``installed`` says whether the fitted model was kept and ``reason`` why not. ``wait``:
    wait for another run on the collection (False: return at once with ``busy`` set)."""
    async with adapt_lock(target.database_uri, target.name, wait=wait) as held:
        if not held:
            return {
                "collection": target.name,
                "installed": False,
                "busy": True,
                "reason": "another bosun adapt run holds the collection; nothing was changed",
            }
        started = datetime.now(UTC)
        report = await _adapt_on_labels(target, options, query_source, score)
        await asyncio.to_thread(record_run, target.database_uri, target.name, started, report)
        return report


async def _adapt_on_labels(
    target: Collection, options: AdaptOptions, query_source: QuerySource, score: Scorer
) -> dict[str, Any]:
    started = time.perf_counter()
    shown = await asyncio.to_thread(read_shown, target.database_uri, target.name)
    train, held = split_labels(turn_labels(shown))
    counts = {"train": len(train), "held_back": len(held)}
    base: dict[str, Any] = {"collection": target.name, "labels": counts}
    has_queries = bool(query_source[0])
    reason = None if has_queries else enough(train, held)
    if reason is not None:
        return {**base, "installed": False, "reason": reason}
    source = with_feedback(query_source, train)
    options = replace(options, feedback=tuple(train))
    waiting = f"waiting for the runs writing collection {target.name!r} (ingest, delete, adapt)"
    async with rewriting(target.database_uri, target.name, on_wait=lambda: write_err(waiting)):
        before = await score(held) if held else None
        snapshot = await rollback.take(target)
        report = await adapt_unlocked(target, options, source)
        judged = verdict(before, await score(held)) if before else None
        worse = judged is not None and judged.refused
        if worse:
            report["restored"] = await rollback.restore(target, snapshot)
    report.update(base)
    empty = {"metric": "ndcg@10", "before": None, "after": None}
    report["check"] = judged.report() if judged else empty
    report["installed"] = not worse
    if judged is not None and worse:
        report["reason"] = (
            f"the fitted model scored {judged.after:.4f} on the {len(held)} held-back questions "
            f"({judged.worse} lower, {judged.better} higher), more than {TOLERANCE} below the "
            f"current one's {judged.before:.4f}: the current model stays"
        )
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def with_feedback(query_source: QuerySource, labels: list[FeedbackLabel]) -> QuerySource:
    """``query_source`` with the feedback's questions added (their relevant documents are those
    of their positive passages)."""
    queries, relevant, described = query_source
    if not labels:
        return query_source
    queries = {**queries, **{label.key: label.query for label in labels}}
    relevant = {**relevant, **{label.key: sorted(label.relevant_sources) for label in labels}}
    what = f"feedback on {len(labels)} questions"
    return queries, relevant, f"{described} + {what}" if described else what


__all__ = [
    "TOLERANCE",
    "Scorer",
    "Verdict",
    "adapt_lock",
    "adapt_on_labels",
    "verdict",
    "with_feedback",
]
