"""Langfuse tracing: off without keys; with keys, the real handler's OTLP export reaches a fake
receiver on 127.0.0.1 carrying the session and user ids."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
from langchain_core.runnables import RunnableLambda

from agent.settings import Settings
from providers.tracing import flush_tracing, shutdown_tracing, trace_metadata, tracing_callbacks
from tests.fakes.otlp_receiver import OtlpReceiver, otlp_receiver


@pytest.fixture
def receiver() -> Iterator[OtlpReceiver]:
    with otlp_receiver() as fake:
        yield fake
        shutdown_tracing(0.5)  # no Langfuse client outlives its receiver


def _settings(url: str) -> Settings:
    # A fresh key pair per test: the Langfuse SDK keeps one client per public key per process.
    tag = uuid.uuid4().hex[:12]
    return Settings.from_env(
        {
            "BOSUN_HOME": "/nonexistent",
            "LANGFUSE_PUBLIC_KEY": f"pk-lf-test-{tag}",
            "LANGFUSE_SECRET_KEY": f"sk-lf-test-{tag}",
            "LANGFUSE_BASE_URL": url,
        }
    )


def _turn() -> RunnableLambda:
    retrieve = RunnableLambda(lambda q: f"passages for {q}", name="retrieve")
    answer = RunnableLambda(lambda ctx: f"answer from {ctx}", name="answer")
    return (retrieve | answer).with_config(run_name="turn")  # type: ignore[return-value]


def test_no_keys_no_callbacks() -> None:
    settings = Settings.from_env({"BOSUN_HOME": "/nonexistent"})
    assert tracing_callbacks(settings, session_id="s", user_id="u") == []


def test_only_one_key_is_still_off() -> None:
    settings = Settings.from_env({"BOSUN_HOME": "/x", "LANGFUSE_PUBLIC_KEY": "pk-lf-only"})
    assert tracing_callbacks(settings, session_id="s", user_id=None) == []


def test_metadata_names_session_and_user() -> None:
    assert trace_metadata("thread-1", "alice") == {
        "langfuse_session_id": "thread-1",
        "langfuse_user_id": "alice",
    }
    assert trace_metadata("thread-1", None) == {"langfuse_session_id": "thread-1"}


async def test_a_trace_with_the_session_reaches_langfuse(receiver: OtlpReceiver) -> None:
    settings = _settings(receiver.url)
    callbacks = tracing_callbacks(settings, session_id="thread-42", user_id="alice")
    assert len(callbacks) == 1
    config = {"callbacks": callbacks, "metadata": trace_metadata("thread-42", "alice")}
    assert await _turn().ainvoke("engine failure", config) == (
        "answer from passages for engine failure"
    )
    assert flush_tracing(5.0)

    assert receiver.exports[0]["authorization"].startswith("Basic ")
    roots = [s for s in receiver.spans if s.name == "turn"]
    assert roots, [s.name for s in receiver.spans]
    root = roots[0]
    assert root.attributes["session.id"] == "thread-42"
    assert root.attributes["user.id"] == "alice"
    children = {s.name for s in receiver.spans if s.trace_id == root.trace_id}
    assert {"turn", "retrieve", "answer"} <= children


async def test_flush_waits_a_bounded_time(receiver: OtlpReceiver) -> None:
    receiver.stall_s = 1.5
    settings = _settings(receiver.url)
    config = {
        "callbacks": tracing_callbacks(settings, session_id="slow", user_id=None),
        "metadata": trace_metadata("slow", None),
    }
    await _turn().ainvoke("q", config)
    start = time.perf_counter()
    assert flush_tracing(0.5) is False
    assert time.perf_counter() - start < 1.5
