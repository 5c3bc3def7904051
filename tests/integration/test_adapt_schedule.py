"""`bosun serve`'s adapt schedule on real PostgreSQL: it waits for enough new labels, runs one
adapt at a time (a run holding the lock makes the tick skip), and the served model is swapped
only after a run's check passed, never to a click memory that failed it. Needs the [adapt]
extra."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

import numpy as np
import psycopg
import pytest

from adapt.checked import adapt_lock
from adapt.command import AdaptOptions
from adapt.feedback import FeedbackLabel
from adapt.memory_fit import Ranked
from agent.adapt_command import ranker
from agent.adapt_schedule import AdaptSchedule, adapt_forever, adapt_if_due, served_model
from agent.evaluation.beir import load_dataset
from agent.evaluation.collections import collection_name, open_eval_services
from agent.settings import Settings
from tests.integration.test_adapt_feedback import (  # noqa: F401
    already_first,
    store_feedback,
    third,
    tiny,
)

pytestmark = pytest.mark.integration
pytest.importorskip("torch", reason="bosun adapt needs the optional [adapt] extra")

FAST = AdaptOptions(steps=2, calibrate=False)


async def served(settings: Settings, folder: Path) -> Settings:
    """``settings`` serving the tiny collection, with feedback on it."""
    collection = collection_name(folder.name)
    async with open_eval_services(settings, load_dataset(folder, "dev")):
        pass
    await store_feedback(settings, collection)
    return dataclasses.replace(settings, collection=collection)


async def eventually(condition: Callable[[], bool], *, timeout_s: float = 900.0) -> None:
    """Wait until ``condition()`` holds (the schedule runs in its own task; a run takes
    minutes on a busy machine)."""
    async with asyncio.timeout(timeout_s):
        while not condition():  # noqa: ASYNC110  (a database row, not an event of this task)
            await asyncio.sleep(0.2)


def runs(settings: Settings) -> list[str]:
    with psycopg.connect(settings.database_uri()) as conn:
        rows = conn.execute(
            "SELECT outcome FROM bosun_adapt_runs WHERE collection = %s ORDER BY id",
            (settings.collection,),
        ).fetchall()
    return [r[0] for r in rows]


async def test_one_run_at_a_time_and_only_on_enough_new_labels(
    settings: Settings,
    tiny: Path,  # noqa: F811
) -> None:
    here = await served(settings, tiny)
    model = await served_model(here)
    assert await adapt_if_due(here, AdaptSchedule(1, min_new_labels=10_000), options=FAST) is None
    assert runs(here) == []
    async with adapt_lock(here.database_uri(), here.collection, wait=True):
        busy = await adapt_if_due(here, AdaptSchedule(1, min_new_labels=1), options=FAST)
    assert busy is None and runs(here) == [] and await served_model(here) == model
    report = await adapt_if_due(here, AdaptSchedule(1, min_new_labels=1), options=FAST)
    assert report is not None and runs(here) == [
        "installed" if report["installed"] else report["reason"]
    ]
    # The labels it ran on are no longer new: the next tick waits.
    assert await adapt_if_due(here, AdaptSchedule(1, min_new_labels=1), options=FAST) is None


async def test_the_served_model_is_swapped_only_after_its_check_passed(
    settings: Settings,
    tiny: Path,  # noqa: F811
) -> None:
    here = await served(settings, tiny)
    real = ranker(here, here.collection)
    # The first run's memory can only lose (its check refuses it), the second's gains.
    rankers = iter([already_first(real), third(real)])

    async def rank(labels: list[FeedbackLabel]) -> tuple[list[Ranked], np.ndarray]:
        return await next(rankers)(labels)

    stock = await served_model(here)
    reloads: list[dict[str, str]] = []

    async def reload() -> None:
        reloads.append(await served_model(here))

    task = asyncio.create_task(
        adapt_forever(here, AdaptSchedule(0.2, min_new_labels=1), reload, options=FAST, rank=rank)
    )
    try:
        await eventually(lambda: len(runs(here)) >= 1)
        await asyncio.sleep(1.0)  # ticks after the rejected run: nothing to swap
        assert reloads == [] and await served_model(here) == stock
        await store_feedback(settings, here.collection, again=True)  # new labels arrive
        await eventually(lambda: bool(reloads))
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert "the current model stays" in runs(here)[0] and runs(here)[1] == "installed"
    assert reloads == [await served_model(here)] and reloads[0] != stock
