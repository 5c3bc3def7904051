"""The ``thread_digest`` kind: one synthesized summary of a multi-message email thread, built
from stored mail (:mod:`archive.ingest.digests`), never loaded from a file."""

from __future__ import annotations

from archive.ingest.loaders.registry import Kind

KINDS = (Kind("thread_digest", vessel_mentions=True),)
