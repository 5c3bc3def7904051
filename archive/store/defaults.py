"""The store's tunable defaults, in a module that imports nothing: the settings read them (and
validate the environment against them) without loading numpy, psycopg's pool or the store, so
`bosun status` and `bosun stop` stay light."""

from __future__ import annotations

#: Default budget of one process's cache of decoded BM25 blocks (``BOSUN_BM25_CACHE_MB``).
CACHE_MB = 256

#: pgvector's HNSW search settings for every pooled session (and the LangChain vector store).
EF_SEARCH = 100

#: How BM25 finds its top k: ``auto`` (the default: blocks when the collection has a compacted
#: segment of at least ``lexical_blocks.MIN_CHUNKS`` chunks and the search has no filters, else
#: exact SQL), ``blocks`` (the segment whenever one exists) or ``exact`` (every posting read, in
#: SQL: the reference). Every mode returns the exact BM25 top k.
BM25_MODES = ("auto", "blocks", "exact")
