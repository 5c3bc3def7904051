"""`bosun serve` adapting on a schedule (off by default): every BOSUN_ADAPT_EVERY_S seconds a
worker checks whether BOSUN_ADAPT_MIN_NEW_LABELS labels (opens, downloads, thumbs) arrived on the
served collection since its last `bosun adapt` run; if so it runs one, as `bosun adapt` does:
a click memory fitted on the feedback, installed only when its cross-validated check shows a
gain (:mod:`adapt.checked`).

One run at a time across workers and machines: every `bosun adapt` run holds a session advisory
lock per collection (:func:`adapt.checked.adapt_lock`); the schedule tries it without waiting
(as BOSUN_SYNC_MAILBOXES's syncs do) and a worker that finds it taken skips the tick. Each
worker swaps what it serves (embedder, head, reranker, click memory) only when the
collection's recorded model changed and no run holds the lock, i.e. after a run's check passed;
a memory that fails its check is never recorded, so no worker ever loads it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import psycopg
from pydantic import BeforeValidator, Field

from adapt.checked import Ranker, adapt_lock, adapt_on_labels
from adapt.command import AdaptOptions
from adapt.feedback import last_run, new_labels_since
from adapt.linear_head import AdaptUnavailable
from agent.adapt_command import adapt_target, ranker
from agent.environment import EnvironmentModel, read_environment, seconds, whole
from agent.settings import Settings
from archive.store.embedder import MODEL_KEYS, read_meta
from archive.store.schema import StoreError

logger = logging.getLogger(__name__)

#: Labels that must arrive after the last run before the schedule starts another.
MIN_NEW_LABELS = 50


@dataclass(frozen=True)
class AdaptSchedule:
    """BOSUN_ADAPT_EVERY_S (0: off) and BOSUN_ADAPT_MIN_NEW_LABELS."""

    every_s: float = 0.0
    min_new_labels: int = MIN_NEW_LABELS

    @property
    def on(self) -> bool:
        return self.every_s > 0


class _AdaptEnvironment(EnvironmentModel):
    every_s: Annotated[float | None, BeforeValidator(seconds(zero=True))] = Field(
        default=None, validation_alias="BOSUN_ADAPT_EVERY_S"
    )
    min_new_labels: Annotated[int | None, BeforeValidator(whole(1, 1_000_000))] = Field(
        default=None, validation_alias="BOSUN_ADAPT_MIN_NEW_LABELS"
    )


def adapt_schedule(environ: Mapping[str, str]) -> AdaptSchedule:
    """The schedule the environment asks for (checked at start-up: a bad value stops it)."""
    read = read_environment(_AdaptEnvironment, environ)
    default = AdaptSchedule()
    return AdaptSchedule(
        every_s=default.every_s if read.every_s is None else read.every_s,
        min_new_labels=read.min_new_labels or default.min_new_labels,
    )


async def served_model(settings: Settings) -> dict[str, str]:
    """The model keys the served collection's meta records now."""
    return await read_meta(settings.database_uri(), settings.collection, MODEL_KEYS)


async def adapt_if_due(
    settings: Settings,
    schedule: AdaptSchedule,
    *,
    options: AdaptOptions | None = None,
    rank: Ranker | None = None,
) -> dict[str, Any] | None:
    """One tick: a run when enough new labels arrived and no other run holds the lock; its
    report (None: no run). ``options`` and ``rank``: `bosun adapt`'s defaults unless given."""
    uri, collection = settings.database_uri(), settings.collection
    since = await asyncio.to_thread(last_run, uri, collection)
    new = await asyncio.to_thread(new_labels_since, uri, collection, since)
    if new < schedule.min_new_labels:
        logger.debug("adapt of %s waits: %d new labels", collection, new)
        return None
    target = adapt_target(settings, collection)
    report = await adapt_on_labels(
        target,
        options or AdaptOptions(),
        ({}, {}, ""),
        rank or ranker(settings, collection),
        wait=False,
    )
    if report.get("busy"):
        logger.info("scheduled adapt of %s skipped: another process runs one", collection)
        return None
    logger.info(
        "scheduled adapt of %s: %s",
        collection,
        "installed" if report.get("installed") else report.get("reason"),
    )
    return report


async def adapt_forever(
    settings: Settings,
    schedule: AdaptSchedule,
    reload: Callable[[], Awaitable[None]],
    *,
    options: AdaptOptions | None = None,
    rank: Ranker | None = None,
) -> None:
    """``bosun serve``'s schedule: a tick every ``schedule.every_s`` seconds; ``reload`` swaps
    what this worker serves once the collection's recorded model changed and no run holds the
    lock. A failed run is logged and tried again at a later tick."""
    serving = await served_model(settings)
    while True:
        await asyncio.sleep(schedule.every_s)
        try:
            await adapt_if_due(settings, schedule, options=options, rank=rank)
            async with adapt_lock(settings.database_uri(), settings.collection, wait=False) as free:
                recorded = await served_model(settings) if free else serving
                if recorded != serving:
                    await reload()
                    serving = recorded
                    logger.info("now serving %s", recorded.get("embedding_model"))
        except (AdaptUnavailable, StoreError, psycopg.Error, OSError) as err:
            logger.warning("scheduled adapt of %s failed: %s", settings.collection, err)


__all__ = [
    "AdaptSchedule",
    "adapt_forever",
    "adapt_if_due",
    "adapt_schedule",
    "served_model",
]
