"""What fitting a collection's models works on: the collection, opened by the caller.

`bosun adapt` reopens the collection between steps (queries are embedded by the model it holds
at that point), so the caller (the CLI's wiring, which builds clients from settings) hands in a
way to open it: :class:`OpenServices`. Nothing here reads settings."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from langchain_core.embeddings import Embeddings

from archive.store.database import EmbeddingIdentity, Store


@dataclass(frozen=True)
class AdaptServices:
    """One opened collection: its store, the model its vectors are embedded with, and where the
    models fitted for it live (``home``/models/<collection>/)."""

    store: Store
    embeddings: Embeddings
    home: Path  # BOSUN_HOME
    database_uri: str


class OpenServices(Protocol):
    """Opens the collection being adapted without the reranker and head fitted for it (adapt
    refits them), and closes it afterwards. ``embeddings`` replace the collection's own model
    and ``identity`` is the model its vectors are recorded with (``--reset`` of a lost model
    opens the collection with the stock model under the lost one's identity)."""

    def __call__(
        self,
        *,
        embeddings: Embeddings | None = None,
        identity: EmbeddingIdentity | None = None,
    ) -> AbstractAsyncContextManager[AdaptServices]: ...


@dataclass(frozen=True)
class Collection:
    """The collection to adapt: its name, how to open it, where its fitted models go and the
    database it lives in (its write lock and meta are read before it can be opened)."""

    name: str
    open: OpenServices
    home: Path  # BOSUN_HOME
    database_uri: str


__all__ = ["AdaptServices", "Collection", "OpenServices"]
