"""Decoded BM25 blocks kept in the process between queries, least recently used dropped first.

A compacted block never changes: a compaction rewrites the whole segment under a new
``compacted_at``, and its weights without idf depend only on the live mean chunk length, so a
block is known by (collection, compaction, mean length, term, block number). On a million
chunks a long question reads ~800 blocks, ~8 MB from PostgreSQL; the common terms' first blocks
come back in question after question (README "Scale").
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from archive.store.block_topk import Block


class BlockCache:
    """Blocks by key, within ``max_bytes`` of arrays (0: nothing is kept)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = 0
        self.misses = 0
        self._blocks: OrderedDict[Hashable, Block] = OrderedDict()

    def get(self, key: Hashable) -> Block | None:
        block = self._blocks.get(key)
        if block is None:
            self.misses += 1
            return None
        self.hits += 1
        self._blocks.move_to_end(key)
        return block

    def put(self, key: Hashable, block: Block) -> None:
        if block.nbytes > self.max_bytes or key in self._blocks:
            return
        self._blocks[key] = block
        self.bytes += block.nbytes
        while self.bytes > self.max_bytes:
            _, dropped = self._blocks.popitem(last=False)
            self.bytes -= dropped.nbytes

    def __len__(self) -> int:
        return len(self._blocks)
