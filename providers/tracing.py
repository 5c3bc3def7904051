"""Langfuse tracing, attached where the graph is invoked and only when both Langfuse keys are set.

Usage::

    config = {
        "callbacks": tracing_callbacks(config.providers, session_id=thread_id, user_id=user),
        "metadata": trace_metadata(thread_id, user),
        "configurable": {"thread_id": thread_id},
    }
    await graph.ainvoke(inputs, config)
    ...
    flush_tracing()  # after a turn when the process is short-lived (CLI)
    shutdown_tracing()  # once, before the process exits

Langfuse 5.x exports OpenTelemetry spans over HTTP to ``<base url>/api/public/otel/v1/traces``
from a background thread; runs never wait for it, and :func:`flush_tracing` waits a bounded time.
"""

from __future__ import annotations

import logging
import math
import threading
import uuid
from typing import Any

from providers.config import ProviderConfig

logger = logging.getLogger(__name__)

#: Seconds the exporter waits for Langfuse per request (the SDK default is 5).
EXPORT_TIMEOUT_S = 5

_clients: dict[str, Any] = {}  # public key -> the Langfuse client created for it
_lock = threading.Lock()


def new_trace_id() -> str:
    """A W3C trace id (32 hex), chosen before a run so the client can be told it up front."""
    return uuid.uuid4().hex


def tracing_callbacks(
    config: ProviderConfig, *, session_id: str, user_id: str | None, trace_id: str | None = None
) -> list[Any]:
    """``[CallbackHandler]`` when both Langfuse keys are set, else ``[]``.

    ``session_id`` / ``user_id`` reach the trace through :func:`trace_metadata`, which the caller
    puts in the same run config; ``trace_id`` (see :func:`new_trace_id`) fixes the trace's id so
    feedback can later be attached to it.
    """
    if not config.langfuse_enabled:
        return []
    from langfuse.langchain import CallbackHandler

    _client(config)
    if trace_id:
        return [
            CallbackHandler(
                public_key=config.langfuse_public_key, trace_context={"trace_id": trace_id}
            )
        ]
    return [CallbackHandler(public_key=config.langfuse_public_key)]


def score_trace(
    config: ProviderConfig,
    *,
    trace_id: str,
    name: str,
    value: float,
    comment: str | None = None,
) -> bool:
    """Attach a score (e.g. a user's thumbs) to a trace; False when Langfuse is not configured.

    The SDK queues the score and sends it from its background thread (see :func:`flush_tracing`).
    """
    if not config.langfuse_enabled:
        return False
    _client(config).create_score(
        name=name, value=value, trace_id=trace_id, comment=comment, data_type="NUMERIC"
    )
    return True


def trace_metadata(session_id: str, user_id: str | None) -> dict[str, str]:
    """Run metadata the Langfuse handler turns into the trace's session and user."""
    metadata = {"langfuse_session_id": session_id}
    if user_id:
        metadata["langfuse_user_id"] = user_id
    return metadata


def flush_tracing(timeout_s: float = 3.0) -> bool:
    """Send buffered spans, waiting at most ``timeout_s``; True when everything was sent in time.

    An unreachable Langfuse would otherwise hold the caller for seconds per batch.
    """
    with _lock:
        clients = list(_clients.values())
    return _bounded(clients, "flush", timeout_s)


def shutdown_tracing(timeout_s: float = 3.0) -> bool:
    """Flush and stop the Langfuse clients (at process end), waiting at most ``timeout_s``.

    Replaces the SDK's own exit hook, which waits as long as the exporter's retries take.
    """
    with _lock:
        clients = list(_clients.values())
        _clients.clear()
    return _bounded(clients, "shutdown", timeout_s)


def _bounded(clients: list[Any], method: str, timeout_s: float) -> bool:
    if not clients:
        return True

    def run() -> None:
        for client in clients:
            try:
                getattr(client, method)()
            except Exception as err:  # tracing never breaks the caller
                logger.warning("langfuse %s failed: %s", method, type(err).__name__)

    worker = threading.Thread(target=run, name=f"langfuse-{method}", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        logger.warning("langfuse %s still running after %.1f s; not waiting", method, timeout_s)
        return False
    return True


def _client(config: ProviderConfig) -> Any:
    """The process's Langfuse client for these keys (created once; the SDK keeps one per key)."""
    from langfuse import Langfuse

    key = config.langfuse_public_key
    assert key is not None
    with _lock:
        client = _clients.get(key)
        if client is None:
            client = Langfuse(
                public_key=key,
                secret_key=config.langfuse_secret_key,
                base_url=config.langfuse_base_url,  # None: LANGFUSE_BASE_URL, else Langfuse Cloud
                timeout=max(1, math.ceil(min(EXPORT_TIMEOUT_S, config.provider_timeout_s))),
            )
            _clients[key] = client
        return client
