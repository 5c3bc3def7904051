"""The dense arm: HNSW cosine search through langchain-postgres' PGVectorStore."""

from __future__ import annotations

from collections.abc import Sequence

from agent.store.database import Store
from agent.store.filters import SearchFilters


async def vector_search(
    store: Store, vector: Sequence[float], filters: SearchFilters, *, limit: int = 100
) -> list[tuple[str, float]]:
    """Chunk ids with their cosine similarity, nearest first, under ``filters``."""
    hits = await store.vectors.asimilarity_search_with_score_by_vector(
        list(vector), k=limit, filter=filters.pgvector_filter()
    )
    # COSINE_DISTANCE scores are distances: similarity = 1 - distance.
    return [(doc.id or doc.metadata["chunk_id"], 1.0 - float(dist)) for doc, dist in hits]
