"""The one place services and clients are built from settings: store, embeddings, archive,
reranker, chat models, expander."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from langchain_core.embeddings import Embeddings

from agent.settings import Settings
from archive.originals import Archive
from archive.store.database import EmbeddingIdentity, Store
from graph.builder import Clients
from providers.chat import build_chat_model, build_classifier_model
from providers.embeddings import build_embeddings, embedding_identity
from providers.rerankers import build_reranker
from tools.backend import StoreBackend
from tools.expansion import archive_expander
from tools.pipeline import Pipeline


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
    embeddings = embeddings or build_embeddings(settings.providers)
    store = await Store.open(
        settings.database_uri(),
        embeddings,
        await identity_of(embeddings),
        collection=collection or settings.collection,
    )
    try:
        yield Services(settings, store, embeddings, Archive(settings.archive_dir))
    finally:
        await store.close()


def build_clients(services: Services, *, offline: bool = False) -> Clients:
    """The graph's clients as the settings configure them (``offline``: no chat model even if
    one is configured)."""
    config = services.settings.providers
    chat_model = None if offline else build_chat_model(config)
    return Clients(
        backend=StoreBackend(services.store, services.embeddings),
        archive=services.archive,
        reranker=build_reranker(config, services.embeddings),
        embeddings=services.embeddings,
        chat_model=chat_model,
        classifier_model=None if offline else build_classifier_model(config),
        chat_tools=config.chat_tools,
        expander=archive_expander(services.store, chat_model),  # off unless Context.expand
    )


def build_pipeline(services: Services, *, expand: bool = False) -> Pipeline:
    """The retrieval pipeline over the services' collection; the expander (the chat model's
    rewrite when one is configured, else pseudo-relevance feedback) only when ``expand``."""
    config = services.settings.providers
    expander = archive_expander(services.store, build_chat_model(config)) if expand else None
    backend = StoreBackend(services.store, services.embeddings)
    return Pipeline(backend, build_reranker(config, services.embeddings), expander)
