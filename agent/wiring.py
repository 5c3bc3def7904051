"""The one place services and clients are built from settings: store, embeddings, archive,
reranker, chat models, expander."""

from __future__ import annotations

import contextlib
import functools
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast, get_args

import numpy as np
from langchain_core.embeddings import Embeddings

from agent.settings import Settings
from archive.originals import Originals, open_originals
from archive.originals.binding import bind_collection
from archive.store.counts import RecordQuery, count_records
from archive.store.database import EmbeddingIdentity, Store
from archive.store.embedder import CalibrationRecord, read_calibration, read_embedder
from archive.store.passages import fetch_vectors
from archive.store.patterns import About, SetStatements, set_statements
from archive.store.schema import StoreError
from archive.store.threads import thread_messages, topic_conversations
from graph.builder import Clients
from providers.chat import build_chat_model, build_classifier_model
from providers.embeddings import build_embeddings, embedding_identity
from providers.linear_head import head_file, inverse_head, load_head
from providers.minilm import adapted_minilm
from providers.rerankers import Reranker, build_reranker
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights
from tools.backend import StoreBackend
from tools.click_memory import ClickMemory, RecalledClicks
from tools.expansion import archive_expander
from tools.pipeline import Pipeline
from tools.stock_relevance import StockJudge

FIX = "run `bosun adapt` again (or `bosun adapt --reset` for the stock model)"


@dataclass(frozen=True)
class Calibration:
    """What `bosun adapt` fitted for a collection's adapted embedder (the shipped defaults
    otherwise): the offline reranker's weights and the head the cutoff maps vectors back with."""

    reranker: FeatureWeights | None = None  # None: the shipped feature reranker
    head: np.ndarray | None = None  # W of a headed model (None: stock vectors, or a full tune)
    memory: ClickMemory | None = None  # the click memory fitted from feedback (None: none)


@dataclass
class Services:
    """Clients shared by the CLI, the graph and the evaluation harness."""

    settings: Settings
    store: Store
    embeddings: Embeddings
    archive: Originals  # where the originals are: the local folder or object storage
    calibration: Calibration = field(default_factory=Calibration)


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
    identity: EmbeddingIdentity | None = None,
    statement_timeout_s: float | None = None,
    calibrated: bool = True,
    originals: Originals | None = None,
) -> AsyncIterator[Services]:
    """Open the store for ``collection`` (default: the main archive) and close it afterwards;
    ``statement_timeout_s`` bounds each query (conversations; None for ingest); ``identity``:
    the model the collection's vectors are recorded with, when ``embeddings`` are about to
    replace them all (default: the embeddings' own). The originals store is the configured one,
    checked against the one the collection records (:func:`bind_collection`); ``originals``:
    this store instead, unchecked (`bosun archive migrate`).

    With the local embedder, a collection re-embedded by `bosun adapt` is opened with its own
    adapted model (the file and sha256 its meta records) and, when ``calibrated``, the reranker
    fitted for it and its head (`bosun adapt` itself opens without: it refits them)."""
    collection = collection or settings.collection
    embeddings = embeddings or await collection_embeddings(settings, collection)
    store = await Store.open(
        settings.database_uri(),
        embeddings,
        identity or await identity_of(embeddings),
        collection=collection,
        statement_timeout_s=statement_timeout_s,
        bm25=settings.bm25,
        ef_search=settings.hnsw_ef_search,
        bm25_cache_mb=settings.bm25_cache_mb,
    )
    archive = originals
    try:
        if archive is None:
            archive = originals_of(settings)
            await bind_collection(store, archive.location if settings.archive_url else None)
        calibration = await collection_calibration(settings, store) if calibrated else Calibration()
        yield Services(settings, store, embeddings, archive, calibration)
    finally:
        if archive is not None and originals is None:
            archive.close()
        await store.close()


def originals_of(settings: Settings, url: str | None = None) -> Originals:
    """The originals store ``url`` names (default: BOSUN_ARCHIVE_URL), else the local folder."""
    return open_originals(
        url or settings.archive_url,
        settings.archive_dir,
        endpoint_url=settings.s3_endpoint_url,
        region=settings.s3_region,
        timeout_s=settings.archive_timeout_s,
    )


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
            f"missing; {FIX}"
        )
    return adapted_minilm(path, record.sha256, record.model.removeprefix("local:"))


async def collection_calibration(settings: Settings, store: Store) -> Calibration:
    """The reranker and head `bosun adapt` recorded for a local collection; a recorded file that
    is missing or altered is a StoreError, never a silent fall-back to the shipped reranker or
    to a cutoff on the adapted cosines."""
    if (settings.providers.embeddings or "").strip().lower() != "local":
        return Calibration()
    collection = store.schema
    record = await read_calibration(store)
    reranker = None
    if record.reranker_file:
        path = settings.home / record.reranker_file
        reranker = load_reranker(path, record.reranker_sha256 or "", collection)
    if record.kind == "head" and not (record.head_sha256 and record.embedder_file):
        raise StoreError(
            f"collection {collection!r} was adapted before its head was saved beside the model "
            f"(the relevance cutoff maps its vectors back with it); {FIX}"
        )
    head = None
    if record.head_sha256 and record.embedder_file:
        path = head_file(settings.home / record.embedder_file)
        data = verified(path, record.head_sha256, "the head", collection)
        try:
            head = load_head(data)
        except ValueError as err:
            raise StoreError(f"head {path} cannot be read ({err}); {FIX}") from err
    return Calibration(reranker, head, collection_memory(settings, record, collection))


def collection_memory(
    settings: Settings, record: CalibrationRecord, collection: str
) -> ClickMemory | None:
    """The click memory `bosun adapt` recorded for the collection, checked like its reranker."""
    if not record.memory_file:
        return None
    path = settings.home / record.memory_file
    data = verified(path, record.memory_sha256 or "", "the click memory", collection)
    try:
        return ClickMemory.from_bytes(data)
    except ValueError as err:
        raise StoreError(f"click memory {path} cannot be read ({err}); {FIX}") from err


def load_reranker(path: Path, sha256: str, collection: str) -> FeatureWeights:
    """The feature reranker fitted for ``collection``, checked against its recorded sha256."""
    verified(path, sha256, "the fitted reranker", collection)
    try:
        return FeatureWeights.load(path)
    except (ValueError, KeyError) as err:
        raise StoreError(f"fitted reranker {path} cannot be read ({err}); {FIX}") from err


def verified(path: Path, sha256: str, what: str, collection: str) -> bytes:
    """The bytes of a file `bosun adapt` recorded for ``collection``, checked against their
    recorded sha256."""
    if not path.is_file():
        raise StoreError(f"collection {collection!r} uses {what} {path}, which is missing; {FIX}")
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise StoreError(
            f"collection {collection!r} uses {what} {path}, whose sha256 does not match the one "
            f"recorded; {FIX}"
        )
    return data


def build_clients(services: Services, *, offline: bool = False) -> Clients:
    """The graph's clients as the settings configure them (``offline``: no chat model even if
    one is configured)."""
    config = services.settings.providers
    chat_model = None if offline else build_chat_model(config)
    reranker = build_reranker(config, services.embeddings, services.calibration.reranker)
    return Clients(
        backend=StoreBackend(services.store, services.embeddings),
        archive=services.archive,
        reranker=reranker,
        embeddings=services.embeddings,
        chat_model=chat_model,
        classifier_model=None if offline else build_classifier_model(config),
        chat_tools=config.chat_tools,
        expander=archive_expander(services.store, chat_model),  # off unless Context.expand
        judge=stock_judge(services, reranker),
        memory=recalled_clicks(services),
        counter=functools.partial(count_records, services.store),
        causes=functools.partial(set_causes, services.store),
        threads=functools.partial(thread_messages, services.store),
        topics=functools.partial(topic_conversations, services.store),
    )


async def set_causes(store: Store, query: RecordQuery, topic: str, about: str) -> SetStatements:
    """The statements of a whole set, for pattern questions (the graph's ``causes`` client)."""
    if about not in get_args(About):
        raise ValueError(f"about must be one of {get_args(About)}, got {about!r}")
    return await set_statements(store, query, topic=topic, about=cast(About, about))


def build_pipeline(services: Services, *, expand: bool = False) -> Pipeline:
    """The retrieval pipeline over the services' collection; the expander (the chat model's
    rewrite when one is configured, else pseudo-relevance feedback) only when ``expand``."""
    config = services.settings.providers
    expander = archive_expander(services.store, build_chat_model(config)) if expand else None
    backend = StoreBackend(services.store, services.embeddings)
    reranker = build_reranker(config, services.embeddings, services.calibration.reranker)
    judge = stock_judge(services, reranker)
    return Pipeline(backend, reranker, expander, judge, recalled_clicks(services))


def recalled_clicks(services: Services) -> RecalledClicks | None:
    """The collection's click memory as the pipeline applies it (None: it has none)."""
    memory, head = services.calibration.memory, services.calibration.head
    if memory is None:
        return None
    return RecalledClicks(memory, services.embeddings, None if head is None else inverse_head(head))


def stock_judge(services: Services, reranker: Reranker) -> StockJudge | None:
    """The cutoff's judge for a headed collection reranked offline (None otherwise: Cohere and
    a cross-encoder decide with their own calibrated scores)."""
    head = services.calibration.head
    if head is None or not isinstance(reranker, FeatureReranker):
        return None
    vectors = functools.partial(fetch_vectors, services.store)
    return StockJudge.of_head(head, services.embeddings, vectors)
