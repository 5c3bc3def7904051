"""The BM25 block cache keeps the most recently used blocks within its byte budget."""

from __future__ import annotations

import numpy as np

from archive.store.block_cache import BlockCache
from archive.store.block_topk import Block


def _block(n: int) -> Block:
    return Block(np.arange(n, dtype=np.intp), np.ones(n))


def test_least_recently_used_blocks_leave_first() -> None:
    size = _block(10).nbytes
    cache = BlockCache(3 * size)
    for key in "abc":
        cache.put(key, _block(10))
    assert cache.get("a") is not None  # a is now the most recent
    cache.put("d", _block(10))
    assert cache.get("b") is None and len(cache) == 3 and cache.bytes == 3 * size
    assert all(cache.get(k) is not None for k in "acd")
    assert (cache.hits, cache.misses) == (4, 1)


def test_a_block_over_the_budget_or_a_zero_budget_keeps_nothing() -> None:
    cache = BlockCache(_block(10).nbytes)
    cache.put("big", _block(11))
    assert cache.get("big") is None and cache.bytes == 0
    off = BlockCache(0)
    off.put("a", _block(1))
    assert len(off) == 0 and off.get("a") is None


def test_a_key_put_twice_is_counted_once() -> None:
    cache = BlockCache(10 * _block(10).nbytes)
    first = _block(10)
    cache.put("a", first)
    cache.put("a", _block(10))
    assert cache.get("a") is first and cache.bytes == first.nbytes
