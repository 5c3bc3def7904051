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
from archive.store.embedder import read_embedder
from archive.store.schema import StoreError
from graph.builder import Clients
from providers.chat import build_chat_model, build_classifier_model
from providers.embeddings import build_embeddings, embedding_identity
from providers.minilm import adapted_minilm
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
    settings: Settings,
    *,
    collection: str | None = None,
    embeddings: Embeddings | None = None,
    statement_timeout_s: float | None = None,
) -> AsyncIterator[Services]:
    """Open the store for ``collection`` (default: the main archive) and close it afterwards;
    ``statement_timeout_s`` bounds each query (conversations; None for ingest).

    With the local embedder, a collection re-embedded by `bosun adapt` is opened with its own
    adapted model (the file and sha256 its meta records)."""
    collection = collection or settings.collection
    embeddings = embeddings or await collection_embeddings(settings, collection)
    store = await Store.open(
        settings.database_uri(),
        embeddings,
        await identity_of(embeddings),
        collection=collection,
        statement_timeout_s=statement_timeout_s,
        bm25=settings.bm25,
        ef_search=settings.hnsw_ef_search,
        bm25_cache_mb=settings.bm25_cache_mb,
    )
    try:
        yield Services(settings, store, embeddings, Archive(settings.archive_dir))
    finally:
        await store.close()


async def collection_embeddings(settings: Settings, collection: str) -> Embeddings:
    """The configured embeddings, or the adapted MiniLM the local collection was built with."""
    if (settings.providers.embeddings or "").strip().lower() != "local":
        return build_embeddings(settings.providers)
    record = await read_embedder(settings.database_uri(), collection)
    if record is None:
        return build_embeddings(settings.providers)
    path = settings.home / record.file
    if not path.is_file():
        raise StoreError(
            f"collection {collection!r} was embedded by the adapted model {path}, which is "
            "missing; run `bosun adapt` again (or `bosun adapt --reset` for the stock model)"
        )
    return adapted_minilm(path, record.sha256, record.model.removeprefix("local:"))


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
