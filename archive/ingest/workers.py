"""Parsing and embedding in N worker processes (or embedding in this one), behind one call:
texts in, vectors out; paths in, documents out.

``bosun ingest --workers N`` runs N processes, each with its own model session built by a
picklable factory (e.g. MiniLM with ``cores // N`` intra-op threads, so N workers do not
oversubscribe the cores), that also parse and enrich files ahead of the writer; the run's one
writer stays in the parent (see :mod:`writer`).
Workers ignore Ctrl-C: the parent stops the run and shuts them down.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Protocol, cast

import numpy as np
from langchain_core.embeddings import Embeddings

from archive.ingest.discover import Loaded, load_unit, load_units
from archive.ingest.loaders import REGISTRY
from archive.ingest.model import LoadError, SourceDocument

logger = logging.getLogger(__name__)

#: Builds the embedding model inside a worker process (must pickle: a class or a partial).
EmbeddingsFactory = Callable[[], Embeddings]


class Embedder(Protocol):
    """Vectors of ``texts`` in input order, computed off the event loop."""

    def __call__(self, texts: list[str]) -> Awaitable[Sequence[Sequence[float]]]: ...


def usable_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def threads_per_worker(workers: int) -> int:
    """Intra-op threads for each of ``workers`` processes: the cores shared out, at least 1."""
    return max(1, usable_cores() // max(1, workers))


def vectors_of(embeddings: Embeddings, texts: list[str]) -> Sequence[Sequence[float]]:
    """``embeddings``' vectors of ``texts``: a float32 array when the model offers one."""
    embed_array = getattr(embeddings, "embed_array", None)
    if callable(embed_array):
        result: np.ndarray = embed_array(texts)
        return cast(Sequence[Sequence[float]], result)  # rows index and slice alike
    return embeddings.embed_documents(texts)


#: Texts per call into the model: a cancelled run (Ctrl-C) waits at most for one such call
#: (~0.1 s with the local model, ~0.8 s on a machine loaded eightfold) before it stops. Slices
#: of 4, 8, 16 and 64 measured the same texts/s here (the int8 graph gains little by batching).
EMBED_SLICE = 4


def slices(texts: list[str], size: int = EMBED_SLICE) -> list[list[str]]:
    """``texts`` in consecutive slices of at most ``size``."""
    return [texts[i : i + size] for i in range(0, len(texts), size)]


def joined(parts: Sequence[Sequence[Sequence[float]]]) -> Sequence[Sequence[float]]:
    """The vectors of consecutive slices as one sequence (a float32 array when they are)."""
    if len(parts) == 1:
        return parts[0]
    if all(isinstance(p, np.ndarray) for p in parts):
        return cast(Sequence[Sequence[float]], np.concatenate(cast(list[np.ndarray], parts)))
    return [vector for part in parts for vector in part]


def in_process(embeddings: Embeddings) -> Embedder:
    """Embed in a thread of this process (the event loop keeps writing meanwhile), one slice of
    :data:`EMBED_SLICE` texts per call, so a cancellation is obeyed within one slice."""

    async def embed(texts: list[str]) -> Sequence[Sequence[float]]:
        parts = [await asyncio.to_thread(vectors_of, embeddings, part) for part in slices(texts)]
        return joined(parts) if parts else []

    return embed


_worker_embeddings: Embeddings | None = None  # the model of this worker process


_READ_AHEAD = 4  # files parsed ahead per worker, queued beside the embedding batches


def _loaded(item: Future[list[Loaded]] | LoadError) -> list[Loaded]:
    return [item] if isinstance(item, LoadError) else item.result()


def _start_worker(factory: EmbeddingsFactory) -> None:
    global _worker_embeddings
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    started = time.perf_counter()
    _worker_embeddings = factory()
    vectors_of(_worker_embeddings, ["warm-up"])  # load the model before the first batch
    logger.info("embedding worker %d ready in %.2f s", os.getpid(), time.perf_counter() - started)


def _embed_in_worker(texts: list[str]) -> Sequence[Sequence[float]]:
    assert _worker_embeddings is not None, "worker not initialised"
    return vectors_of(_worker_embeddings, texts)


def _load_in_worker(
    unit: Path, prepare: Callable[[SourceDocument], SourceDocument] | None, modules: Sequence[str]
) -> list[Loaded]:
    for module in modules:  # loaders the parent registered at run time, as well as the built-in
        REGISTRY.register(module)
    return [
        item if isinstance(item, LoadError) or prepare is None else prepare(item)
        for item in load_unit(unit)
    ]


class WorkerPool:
    """``workers`` processes embedding batches side by side; call it like an :class:`Embedder`.

    Processes are spawned (not forked: the parent holds database connections and onnxruntime
    threads) and each loads the model once, before its first batch.
    """

    def __init__(self, factory: EmbeddingsFactory, workers: int) -> None:
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.workers = workers
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(factory,),
        )

    async def __call__(self, texts: list[str]) -> Sequence[Sequence[float]]:
        """The vectors of ``texts``, its slices spread over the workers (a cancelled run drops
        the slices not yet started and waits for one slice per worker at most)."""
        loop = asyncio.get_running_loop()
        calls = [
            loop.run_in_executor(self._executor, _embed_in_worker, part) for part in slices(texts)
        ]
        try:
            parts = await asyncio.gather(*calls)
        except BaseException:
            for call in calls:
                call.cancel()
            raise
        return joined(parts) if parts else []

    def load(
        self,
        paths: Iterable[Path],
        prepare: Callable[[SourceDocument], SourceDocument] | None = None,
    ) -> Iterator[Loaded]:
        """:func:`~archive.ingest.discover.load_paths` with each file (or maildir) parsed and
        ``prepare``-d in a worker, in the same order; a few units are read ahead. (A large single
        file, such as a JSONL of records, is parsed by one worker.)"""
        ahead: deque[Future[list[Loaded]] | LoadError] = deque()
        for unit in load_units(paths):
            if isinstance(unit, LoadError):
                ahead.append(unit)
            else:
                ahead.append(
                    self._executor.submit(_load_in_worker, unit, prepare, REGISTRY.modules)
                )
            while len(ahead) > self.workers * _READ_AHEAD:
                yield from _loaded(ahead.popleft())
        while ahead:
            yield from _loaded(ahead.popleft())

    async def warm_up(self) -> None:
        """Start every worker and load its model now (so a benchmark times batches only)."""
        await asyncio.gather(*(self(["warm-up"]) for _ in range(self.workers * 2)))

    def close(self) -> None:
        """Stop the workers; batches not yet started are dropped."""
        self._executor.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
