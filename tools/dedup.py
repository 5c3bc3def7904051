"""Per-document dedup: one passage per document, so one report cannot fill every slot."""

from __future__ import annotations

from collections.abc import Sequence

from archive.store.passages import Passage


def best_per_document(records: Sequence[Passage]) -> list[Passage]:
    """The first (best-ranked) passage of each document, in order."""
    seen: set[str] = set()
    kept: list[Passage] = []
    for record in records:
        if record["doc_id"] not in seen:
            seen.add(record["doc_id"])
            kept.append(record)
    return kept
