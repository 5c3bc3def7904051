"""What the fault-matrix tests share: which tier runs each row of
:data:`providers.resilience.MATRIX`, and how a row's telling is checked (the note, the log line,
the trace event)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

import pytest
from langchain_core.callbacks import BaseCallbackHandler

from graph.state import diagnostics_of
from providers.resilience import EVENT, FAULTS

#: Rows run by tests/unit/test_fault_matrix.py (fakes on 127.0.0.1, no database).
UNIT_ROWS = (
    "rerank.error",
    "chat.timeout",
    "chat.http_5xx",
    "chat.refused",
    "chat.malformed",
    "chat.uncited",
    "intent.error",
    "topics.error",
    "expansion.error",
    "langfuse.unreachable",
    "langfuse.error",
    "archive.missing",
)
#: Rows run by tests/integration/test_fault_matrix_db.py (a real PostgreSQL, stopped and
#: started by the test).
DATABASE_ROWS = (
    "embeddings.error",
    "embeddings.corrupt",
    "database.down_at_start",
    "database.dropped",
    "database.refusing",
    "database.slow",
)
#: Rows run by tests/integration/test_fault_matrix_server.py (the web app in-process on the
#: database rows' PostgreSQL).
SERVER_ROWS = (
    "server.database_down",
    "server.rate_limited",
    "server.cross_site",
    "server.malformed",
)

#: Rows about a hostile archive at ingest, each run by the test named (module, function).
INGEST_ROWS = {
    "ingest.unstorable": (
        "tests.integration.test_hostile_archive",
        "test_every_mail_is_stored_and_a_rerun_fails_on_none",
    ),
    "ingest.refused": (
        "tests.integration.test_ingest_slices",
        "test_a_document_the_database_refuses_is_one_report_line",
    ),
    "ingest.deep_mime": ("tests.unit.test_ingest_hostile", "test_mime_nested_1000_deep"),
    "ingest.planted_instruction": (
        "tests.integration.test_hostile_archive",
        "test_an_obedient_model_never_sees_an_instruction_outside_quotes",
    ),
    "ingest.large_file": (
        "tests.integration.test_ingest_slices",
        "test_a_large_document_commits_slice_by_slice_and_a_rerun_continues_it",
    ),
    "ingest.interrupted": (
        "tests.e2e.test_ingest_interrupt",
        "test_ctrl_c_mid_file_stops_promptly_and_a_rerun_finishes_it",
    ),
    "ingest.interrupted_stalled": (
        "tests.e2e.test_ingest_interrupt",
        "test_ctrl_c_ends_the_run_while_the_embedding_provider_stalls",
    ),
}


class TraceEvents(BaseCallbackHandler):
    """Collects the custom events of a run (what a tracer receives)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, Any]] = []

    def on_custom_event(
        self,
        name: str,
        data: Any,
        *,
        run_id: UUID,
        tags: Any = None,
        metadata: Any = None,
        **kwargs: Any,
    ) -> None:
        self.events.append((name, data))

    def fault_keys(self) -> list[str]:
        return [data["key"] for name, data in self.events if name == EVENT]


def assert_told(
    key: str,
    state: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
    trace: TraceEvents | None,
) -> None:
    """The row's fallback was noted in ``degraded`` (when the row has a note), logged once as a
    warning, and sent as a trace event (``trace``: None where the failing part is the tracer)."""
    fault = FAULTS[key]
    degraded = diagnostics_of(state).get("degraded") or []
    notes = [n for n in degraded if n.startswith(f"{fault.stage} failed")]
    assert notes if fault.noted else not notes, degraded
    logged = [r for r in caplog.records if r.levelname == "WARNING" and f"[{key}]" in r.message]
    assert len(logged) >= 1 if fault.noted else True, [r.message for r in caplog.records]
    if trace is not None and fault.noted:
        assert key in trace.fault_keys(), trace.events


T = TypeVar("T", bound=Callable[..., Any])


def covering(registry: dict[str, str]) -> Callable[..., Callable[[T], T]]:
    """A ``@covers(*rows)`` decorator recording, in ``registry``, the test that runs each row."""

    def covers(*keys: str) -> Callable[[T], T]:
        def register(test: T) -> T:
            registry.update(dict.fromkeys(keys, test.__name__))
            return test

        return register

    return covers
