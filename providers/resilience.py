"""The one resilience policy: every stage's failure, its designed behaviour, and how it is told.

:data:`MATRIX` lists each (stage, failure) with one behaviour — retry, degrade to the offline
path, or a clear one-line message — and what the user sees. The code that takes a fallback calls
:func:`degrade`, which logs one warning, emits a ``degraded`` trace event (a LangChain custom
event: ``astream_events`` and every callback handler see it) and returns the note that goes into
the turn's ``degraded`` list (``ask --json``, the web payload). The table in docs/operations.md is
:func:`markdown_table` (a test compares them), and the matrix test runs every row.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from langchain_core.callbacks.manager import dispatch_custom_event
from langchain_core.runnables.config import ensure_config, get_callback_manager_for_config

from providers.scrub import scrub_secrets

logger = logging.getLogger(__name__)

Behaviour = Literal["retry", "degrade", "message"]

#: The trace event every fallback emits.
EVENT = "degraded"


@dataclass(frozen=True)
class Fault:
    """One row of the matrix."""

    key: str  # "<stage>.<failure>", the id tests and notes use
    stage: str
    failure: str
    behaviour: Behaviour
    user_sees: str
    noted: bool = True  # a ``degraded`` note in the answer (False: no answer, or a complete one)


MATRIX: tuple[Fault, ...] = (
    Fault(
        "embeddings.error",
        "embeddings",
        "the query embedding fails (model error, provider timeout or 5xx after its retries)",
        "degrade",
        "BM25-only retrieval, the answer as usual; `degraded: embeddings ...`",
    ),
    Fault(
        "embeddings.corrupt",
        "embeddings",
        "the local model file fails its sha256 check (damaged or altered)",
        "message",
        "`bosun: a model file is corrupt (...)`, exit status 1: never worked around",
        noted=False,
    ),
    Fault(
        "database.down_at_start",
        "database",
        "not running or refusing connections when a command starts",
        "message",
        "`bosun: cannot reach the database (...)`, exit status 1, no traceback",
        noted=False,
    ),
    Fault(
        "database.dropped",
        "database",
        "connections dropped mid-session (server restarted, backend terminated)",
        "retry",
        "the next turn reconnects (pooled connections are checked before use; a node that "
        "loses its connection is retried up to 3 times); `bosun chat` goes on",
        noted=False,
    ),
    Fault(
        "database.refusing",
        "database",
        "the server stops during a `bosun chat` session",
        "message",
        "that turn, within `BOSUN_DB_TIMEOUT_S`: `bosun: cannot reach the database (...)`; "
        "the REPL stays open and the next turn works once the server is back",
        noted=False,
    ),
    Fault(
        "database.slow",
        "database",
        "a statement waits longer than `BOSUN_DB_TIMEOUT_S` (default 10 s: a lock, an "
        "overloaded server)",
        "message",
        "`bosun: the database did not answer within N s (...)`; nothing stored half-way",
        noted=False,
    ),
    Fault(
        "rerank.error",
        "reranker",
        "the reranker fails (Cohere timeout or 5xx, a broken local model)",
        "degrade",
        "the fused order; `degraded: rerank ...`",
    ),
    Fault(
        "chat.timeout",
        "chat model",
        "no answer within `BOSUN_PROVIDER_TIMEOUT_S`",
        "degrade",
        "the offline answer from the passages, within one timeout; `degraded: chat model ...`",
    ),
    Fault(
        "chat.http_5xx",
        "chat model",
        "HTTP 5xx",
        "degrade",
        "the offline answer from the passages; `degraded: chat model ...`",
    ),
    Fault(
        "chat.refused",
        "chat model",
        "connection refused (endpoint down)",
        "degrade",
        "the offline answer from the passages; `degraded: chat model ...`",
    ),
    Fault(
        "chat.malformed",
        "chat model",
        "a reply with neither text nor a tool call, or unparsable JSON",
        "degrade",
        "the offline answer from the passages; `degraded: chat model ...`",
    ),
    Fault(
        "chat.uncited",
        "chat model",
        "an answer citing no passage, also after one repair request",
        "degrade",
        "the answer, flagged, followed by the offline answer with its citations; "
        "`degraded: chat model ...`",
    ),
    Fault(
        "intent.error",
        "intent classifier",
        "the classifier model or embeddings fail",
        "degrade",
        "treated as a question and searched (a failed model is not asked again this turn); "
        "`degraded: intent classifier ...`",
    ),
    Fault(
        "topics.error",
        "topic matcher",
        "the topic match fails (embedding or query error)",
        "degrade",
        "searched without the topic filter (structural filters kept); "
        "`degraded: topic matcher ...`",
    ),
    Fault(
        "expansion.error",
        "query expansion",
        "the rewrite fails (chat model error, offline expander error)",
        "degrade",
        "searched with the question as asked; `degraded: query expansion ...`",
    ),
    Fault(
        "langfuse.unreachable",
        "Langfuse",
        "host unreachable or refusing",
        "degrade",
        "the answer unaffected; spans dropped by the exporter (logged), exit waits at most 3 s",
        noted=False,
    ),
    Fault(
        "langfuse.error",
        "Langfuse",
        "the tracing client cannot be built (bad keys or URL)",
        "degrade",
        "the answer untraced; `degraded: Langfuse ...`",
    ),
    Fault(
        "archive.missing",
        "archive storage",
        "a cited original is missing or unreadable (or the storage fails)",
        "degrade",
        "that citation removed, the answer flagged when most were; download answers 404; "
        "`degraded: archive storage ...`",
    ),
    # The web server (agent/server/): what a request meets, never a turn's degraded answer.
    Fault(
        "server.database_down",
        "web server",
        "the database stops or restarts while `bosun serve` or `langgraph dev` runs",
        "message",
        "HTTP 503 `the database is unavailable; retry in a few seconds` with `Retry-After` "
        "(at once while it is known down); the next request after it is back works",
        noted=False,
    ),
    Fault(
        "server.rate_limited",
        "web server",
        "a client sends more than its limit in any 60 s (sliding window shared by every "
        "worker; per client address without API keys)",
        "message",
        "HTTP 429 `rate limit: N ... requests per minute; retry in S s` with `Retry-After`",
        noted=False,
    ),
    Fault(
        "server.cross_site",
        "web server",
        "a request naming another `Host` (DNS rebinding), a state-changing one from another "
        "origin or not sent as JSON, or local mode reached on a non-loopback interface",
        "message",
        "HTTP 400 `Invalid host header`, 403 `cross-origin request refused` or 415; nothing "
        "runs or is stored",
        noted=False,
    ),
    Fault(
        "server.malformed",
        "web server",
        "a body too large or nested too deeply, a field of the wrong type or too long, NUL "
        "or a lone surrogate in a text field",
        "message",
        "HTTP 400 or 413 naming the field; NUL and lone surrogates removed from stored text, "
        "bidi controls from titles; never a 500",
        noted=False,
    ),
    # --- a hostile archive at ingest (archive/ingest/admit.py, writer.py) ---
    Fault(
        "ingest.unstorable",
        "ingest",
        "a text holds NUL bytes, lone surrogates or bidi controls (subject, Message-ID, file "
        "name, body)",
        "degrade",
        "stored with NUL removed, lone surrogates as U+FFFD, bidi controls dropped from titles, "
        "subjects, senders and file names",
        noted=False,
    ),
    Fault(
        "ingest.refused",
        "ingest",
        "the database or the loader still fails on one file (a value it refuses, an unforeseen "
        "parser error)",
        "message",
        "one line in the run's report (`skipped <file>: ...`); the other files are stored; a "
        "rerun reports it again and fails on nothing else",
        noted=False,
    ),
    Fault(
        "ingest.deep_mime",
        "ingest",
        "MIME parts nested past 64 levels (1,000 deep ended the run with RecursionError)",
        "degrade",
        "the message stored with its headers and a line saying its parts were not read; the "
        "original archived",
        noted=False,
    ),
    Fault(
        "ingest.planted_instruction",
        "ingest",
        "a passage holds a planted instruction (hidden HTML, an attachment, an encoded body or "
        "header, another language, look-alike letters)",
        "degrade",
        "the passage marked at ingest: a chat model sees it quoted with its mark, the offline "
        "answer never copies it, an answer repeating it is flagged with a note",
        noted=False,
    ),
    Fault(
        "ingest.large_file",
        "ingest",
        "one file of tens of MB (tens of thousands of passages)",
        "degrade",
        "written in committed slices of 64 passages, the files beside it not held back; a "
        "rerun continues from the slices stored",
        noted=False,
    ),
    Fault(
        "ingest.interrupted",
        "ingest",
        "Ctrl-C while passages are embedded",
        "message",
        "stops within one embedding call (4 passages) and the process ends once the report is "
        "printed; `interrupted: true`, exit status 130; a second Ctrl-C ends it at once; a rerun "
        "continues with no duplicate",
        noted=False,
    ),
    Fault(
        "ingest.interrupted_stalled",
        "ingest",
        "Ctrl-C while an embedding request hangs (a stalled provider, its timeout far away)",
        "message",
        "the process ends once the report is printed, not waiting for the request; the slices "
        "committed before stay and a rerun continues",
        noted=False,
    ),
)

FAULTS: dict[str, Fault] = {fault.key: fault for fault in MATRIX}


def reason_of(err: BaseException | str) -> str:
    """A short, scrubbed description of ``err`` for logs and notes (never a secret)."""
    if isinstance(err, str):
        return scrub_secrets(err)[:200]
    return f"{type(err).__name__}: {scrub_secrets(str(err))[:200]}".rstrip(": ")


def chat_fault(err: BaseException) -> str:
    """The matrix row of a chat-model failure: timeout, HTTP 5xx, refused, else malformed."""
    for kind in type(err).__mro__:
        name = kind.__name__.lower()
        if "timeout" in name:
            return "chat.timeout"
        if "connect" in name or name == "connectionrefusederror":
            return "chat.refused"
    status = getattr(err, "status_code", None) or getattr(err, "code", None)
    if isinstance(status, int) and status >= 500:
        return "chat.http_5xx"
    cause = err.__cause__
    return chat_fault(cause) if cause is not None else "chat.malformed"


def degrade(key: str, err: BaseException | str, fallback: str) -> str:
    """Tell the fallback ``key`` took: one warning, a ``degraded`` trace event, and the note
    for the turn's ``degraded`` list (``"<stage> failed (<reason>); <fallback>"``)."""
    fault = FAULTS[key]
    reason = reason_of(err)
    note = f"{fault.stage} failed ({reason}); {fallback}"
    logger.warning("degraded [%s]: %s", key, note)
    _trace_event({"key": key, "stage": fault.stage, "reason": reason, "fallback": fallback})
    return note


def _trace_event(data: dict[str, str]) -> None:
    """A custom event on the current run; outside any run (``bosun search``) the log suffices."""
    manager = get_callback_manager_for_config(ensure_config())
    if manager.parent_run_id is None:
        return
    dispatch_custom_event(EVENT, data)


def markdown_table() -> str:
    """The matrix as docs/operations.md shows it."""
    rows = [
        "| stage | failure | behaviour | what the user sees | `degraded` note |",
        "|---|---|---|---|---|",
    ]
    rows += [
        f"| {f.stage} | {f.failure} | {f.behaviour} | {f.user_sees} | {'yes' if f.noted else '-'} |"
        for f in MATRIX
    ]
    return "\n".join(rows)
