"""What a cold command does so that starting costs less: the cyclic garbage collector paused
while the command's modules import, and the local embedding model loading on a thread while
the graph's modules import (docs/measurements.md, start-up)."""

from __future__ import annotations

import contextlib
import gc
import logging
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.settings import Settings

logger = logging.getLogger(__name__)


@contextlib.contextmanager
def importing() -> Iterator[None]:
    """Pause the cyclic collector while a command's modules import, then freeze what they built.

    Importing LangGraph, LangChain and pydantic allocates ~10^6 objects and almost no cyclic
    garbage, yet the collector walks the young ones every 700 allocations: about a sixth of the
    imports' CPU time (`benchmarks/startup.py --stages`). What the imports built (modules,
    classes, schemas) lives as long as the process, so :func:`gc.freeze` moves it out of every
    later collection's way instead of walking it three generations deep."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def adapted_models(settings: Settings) -> bool:
    """Whether `bosun adapt` left a model for the main collection (its folder holds one): the
    collection may then be embedded with it instead of the stock model."""
    folder = settings.home / "models" / settings.collection
    return any(folder.glob("minilm-adapted-*.onnx"))


def preload_embeddings(settings: Settings) -> threading.Thread | None:
    """Start loading the stock local embedding model on a thread, the instance the command's
    services will use (:func:`providers.embeddings.build_embeddings`): onnxruntime builds its
    session without holding the GIL, so the load overlaps the imports that follow. None when
    another model will be used (a remote provider, or an adapted collection: the stock model
    would load for nothing). The first embedding waits for the load (:class:`MiniLMEmbeddings`
    loads once, under a lock)."""
    if (settings.embeddings or "").strip().lower() != "local" or adapted_models(settings):
        return None
    from providers.embeddings import build_embeddings
    from providers.minilm import MiniLMEmbeddings

    model = build_embeddings(settings.providers)
    if not isinstance(model, MiniLMEmbeddings):
        return None
    return model.load_in_background()
