"""The long-lived clients one process needs: store, embeddings, archive."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from langchain_core.embeddings import Embeddings

from agent.settings import Settings
from archive.originals import Archive
from archive.store.database import EmbeddingIdentity, Store
from providers.embeddings import build_embeddings, embedding_identity


@dataclass
class Services:
    """Clients shared by the CLI, the graph and the evaluation harness."""

    settings: Settings
    store: Store
    embeddings: Embeddings
    archive: Archive


async def identity_of(embeddings: Embeddings) -> EmbeddingIdentity:
    """Model id and vector size; remote models are probed once for their size."""
    model, dim = embedding_identity(embeddings)
    if dim is None:
        dim = len(await embeddings.aembed_query("dimension probe"))
    return EmbeddingIdentity(model, dim)


@contextlib.asynccontextmanager
async def open_services(
    settings: Settings, *, collection: str | None = None, embeddings: Embeddings | None = None
) -> AsyncIterator[Services]:
    """Open the store for ``collection`` (default: the main archive) and close it afterwards."""
    embeddings = embeddings or build_embeddings(settings)
    store = await Store.open(
        settings, embeddings, await identity_of(embeddings), collection=collection
    )
    try:
        yield Services(settings, store, embeddings, Archive(settings.archive_dir))
    finally:
        await store.close()
