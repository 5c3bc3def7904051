"""`bosun adapt` on labels, with the check that keeps a worse model out.

Labels are operators' feedback (:mod:`adapt.feedback`) and the ``--queries`` of a BEIR split.
``--queries`` (qrels of an evaluation collection) fit the head and the reranker as before.
Feedback fits the click vocabulary (:mod:`tools.click_vocabulary`, :mod:`adapt.vocabulary_fit`),
the archive's vocabulary learnt from (question, opened document) pairs and blended with the
reranker's order; when it is refused, the click residual (:mod:`tools.click_residual`,
:mod:`adapt.residual_fit`), a linear correction of the reranker's order on its own features
learnt from inverse-propensity weighted clicks; and the click memory (:mod:`tools.click_memory`,
:mod:`adapt.memory_fit`): documents opened for earlier similar questions move up a bounded
number of places. Each has its own nested check; the memory is fitted and checked on the order
the vocabulary or residual serves. Trained
on 30–150 feedback questions, a head and a refitted reranker lost on questions no user asked
(feedback simulation, docs/adapt.md), so feedback no longer moves the embedding space.

Without enough feedback the command says so and changes nothing. With enough, the memory's
settings are chosen by cross-validation over every labelled question, and it is installed only
when a nested cross-validation, each question scored by a memory fitted without it against the
collection's served order without a memory, shows a gain on the questions whose opened documents
were not already first and no loss beyond a margin on those that were (:meth:`adapt.memory_fit.
Fitted.passes`, the vocabulary's and residual's check too); otherwise the current model stays,
and the report says why. Everything from ranking the labelled questions to recording the memory runs
under the collection's write lock, so no other ingest or adapt run changes what is judged.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import numpy as np
from psycopg import AsyncConnection

from adapt.command import AdaptOptions, adapt_unlocked, write_err
from adapt.feedback import FeedbackLabel, enough, read_shown, record_run, turn_labels, usable
from adapt.memory_fit import FOLDS, Fitted, Ranked, fit_memory
from adapt.memory_store import install_memory
from adapt.queries import QuerySource
from adapt.residual_fit import FittedResidual, fit_residual, served_with
from adapt.services import Collection
from adapt.vocabulary_fit import blended, fit_vocabulary
from archive.store.locks import rewriting
from tools.click_memory import ClickMemory

#: Ranks labelled questions on the collection as it is served without a click memory: each one's
#: candidates, and the stock-model vectors of the questions (in order).
Ranker = Callable[[list[FeedbackLabel]], Awaitable[tuple[list[Ranked], np.ndarray]]]


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
    rank: Ranker,
    *,
    wait: bool = True,
) -> dict[str, Any]:
    """Adapt ``target`` on its feedback (and ``query_source``); returns the report, whose
    ``installed`` says whether what was fitted is now served and ``reason`` why not. ``wait``:
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
        report = await _adapt_on_labels(target, options, query_source, rank)
        await asyncio.to_thread(record_run, target.database_uri, target.name, started, report)
        return report


async def _adapt_on_labels(
    target: Collection, options: AdaptOptions, query_source: QuerySource, rank: Ranker
) -> dict[str, Any]:
    started = time.perf_counter()
    shown = await asyncio.to_thread(read_shown, target.database_uri, target.name)
    labels = usable(turn_labels(shown))
    base: dict[str, Any] = {
        "collection": target.name,
        "labels": {"questions": len(labels), "folds": FOLDS},
    }
    has_queries = bool(query_source[0])
    reason = enough(labels)
    if reason is not None and not has_queries:
        return {**base, "installed": False, "reason": reason}
    report: dict[str, Any] = {}
    waiting = f"waiting for the runs writing collection {target.name!r} (ingest, delete, adapt)"
    async with rewriting(target.database_uri, target.name, on_wait=lambda: write_err(waiting)):
        if has_queries:  # the head and reranker on the qrels (no check: bosun eval --fold)
            report = await adapt_unlocked(target, options, query_source)
        if reason is None:
            report.update(await _remember(target, labels, rank))
    report.update(base)
    if has_queries:  # the head and reranker fitted on the qrels are installed in any case
        memory_reason = reason if reason is not None else report.pop("reason", None)
        report["installed"] = True
        if memory_reason is not None:
            report["memory_reason"] = memory_reason
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


async def _remember(
    target: Collection, labels: list[FeedbackLabel], rank: Ranker
) -> dict[str, Any]:
    """Fit the click vocabulary on ``labels`` and, when it is refused, the click residual; then
    the click memory on the order the one installed serves (the order without either when both
    are refused); install what passed its check."""
    ranked, vectors = await rank(labels)
    vocabulary = await asyncio.to_thread(fit_vocabulary, ranked)
    found: dict[str, Any] = {"vocabulary_check": vocabulary.report()}
    residual: FittedResidual | None = None
    if vocabulary.installable:
        served = vocabulary.vocabulary
        assert served is not None
        ranked = [replace(r, sources=blended(r, served)) for r in ranked]
    else:
        residual = await asyncio.to_thread(fit_residual, ranked)
        found["residual_check"] = residual.report()
        if residual.installable:
            assert residual.residual is not None
            ranked = served_with(residual.residual, ranked)
    fitted = await asyncio.to_thread(fit_memory, ranked, vectors)
    check = fitted.report()
    found["check"] = check
    corrections = [("vocabulary", vocabulary), ("residual", residual), ("memory", fitted)]
    parts = [name for name, f in corrections if f is not None and f.installable]
    if not parts:
        why = (
            "the memory's cross-validated choice is to lift nothing"
            if fitted.memory is None
            else f"a memory: {fitted.verdict()}"
        )
        why += "; " + _refused("vocabulary", vocabulary.vocabulary is None, vocabulary.check)
        if residual is not None:
            why += "; " + _refused("residual", residual.residual is None, residual.check)
        return {
            **found,
            "installed": False,
            "reason": f"{why} on {len(labels)} feedback questions: the current model stays",
        }
    memory = fitted.memory if fitted.installable else None
    if memory is None:  # the residual alone: a memory that lifts nothing carries it
        memory = ClickMemory(np.zeros((0, vectors.shape[1]), np.float32), (), 0.5, 0.0)
    if vocabulary.installable:
        memory = replace(memory, vocabulary=vocabulary.vocabulary)
    if residual is not None and residual.installable:
        memory = replace(memory, residual=residual.residual)
    training = {"questions": len(labels), **found}
    meta = await install_memory(target, memory, training)
    return {**found, "installed": True, "parts": parts, "memory": meta}


def _refused(name: str, none_chosen: bool, check: Fitted) -> str:
    """Why a click vocabulary or residual was not installed."""
    if none_chosen:
        return f"the {name}'s cross-validated choice is none"
    return f"a {name}: {check.verdict()}"


__all__ = ["Ranker", "adapt_lock", "adapt_on_labels"]
