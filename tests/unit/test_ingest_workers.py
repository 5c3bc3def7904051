"""Worker processes parse and embed exactly what this process would, in the same order."""

from __future__ import annotations

import functools
import pickle
from pathlib import Path

import numpy as np
from langchain_core.embeddings import DeterministicFakeEmbedding

from archive.ingest.discover import load_paths
from archive.ingest.enrich import enrich
from archive.ingest.model import LoadError, SourceDocument
from archive.ingest.workers import WorkerPool, in_process, threads_per_worker

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "archive"


def _key(item: SourceDocument | LoadError) -> tuple[str, ...]:
    if isinstance(item, LoadError):
        return ("error", item.path, item.reason)
    return (item.doc_id, item.content_hash)


def test_load_errors_survive_pickling() -> None:
    err = LoadError("mail/x\n.eml", "cannot read: Permission denied")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.path, copy.reason, str(copy)) == (err.path, err.reason, str(err))


def test_threads_are_shared_out_between_workers() -> None:
    assert threads_per_worker(1) >= threads_per_worker(2) >= 1
    assert threads_per_worker(1000) == 1


async def test_workers_parse_and_embed_like_this_process(tmp_path: Path) -> None:
    (tmp_path / "broken.csv").write_text("a,b\n1,2\n")  # an unsupported CSV: a load error
    paths = [EXAMPLES, tmp_path / "broken.csv", tmp_path / "missing.txt"]
    here = [item if isinstance(item, LoadError) else enrich(item) for item in load_paths(paths)]
    factory = functools.partial(DeterministicFakeEmbedding, size=8)
    with WorkerPool(factory, 2) as pool:
        there = list(pool.load(paths, enrich))
        texts = [f"passage {i}" for i in range(50)]
        vectors = await pool(texts)
    assert [_key(i) for i in there] == [_key(i) for i in here]
    assert sum(isinstance(i, LoadError) for i in there) == 2
    expected = await in_process(factory())(texts)
    assert np.allclose(np.asarray(vectors), np.asarray(expected))
