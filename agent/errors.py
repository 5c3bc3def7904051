"""The one error formatter of every `bosun` command: one line, no traceback, no secret.

Exit codes: 0 success, 1 a failure at run time (database, model, provider), 2 bad input or
settings (the message names the argument or variable), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping

import psycopg

from archive.originals import OriginalsConfigError, StorageUnavailable
from archive.store.schema import StoreError
from providers.scrub import dsn_parts, scrub_dsn, scrub_secrets

logger = logging.getLogger(__name__)

#: Longest message printed; the full error goes to the debug log.
MAX_CHARS = 400
#: Environment variables whose values are secrets wherever they appear.
SECRET_VARIABLES = (
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "COHERE_API_KEY",
    "LANGFUSE_SECRET_KEY",
    "LANGFUSE_PUBLIC_KEY",
    "OPENAI_API_KEY",
    "DATABASE_URL",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
)


class UsageError(Exception):
    """Bad input from the user; printed as one line, exit status 2."""


class SettingsError(UsageError):
    """A setting from the environment is invalid; the message names the variable."""


def exit_code(err: BaseException) -> int:
    """The exit status for ``err`` (see the module docstring)."""
    if isinstance(err, KeyboardInterrupt):
        return 130
    if isinstance(err, UsageError | StoreError | OriginalsConfigError):
        return 2
    return 1


def one_line(err: BaseException, env: Mapping[str, str] | None = None) -> str:
    """``bosun: <what went wrong>`` on one line, secrets and DSN parts scrubbed."""
    env = os.environ if env is None else env
    text = " ".join(_explain(err).split())
    text = scrub_secrets(text, [env.get(name) for name in SECRET_VARIABLES])
    text = scrub_dsn(text, dsn_parts(env.get("DATABASE_URL", "")))
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - 1] + "…"
    return f"bosun: {text}"


def _explain(err: BaseException) -> str:
    if isinstance(err, UsageError | StoreError | OriginalsConfigError):
        return str(err)
    if isinstance(err, StorageUnavailable):
        return f"{_first_line(err)} (check BOSUN_ARCHIVE_URL and the AWS_* settings)"
    if isinstance(err, psycopg.errors.InsufficientPrivilege) and "extension" in str(err):
        return (
            "the database role may not create the pgvector extension; connect as a superuser "
            "once, or ask an administrator to run CREATE EXTENSION vector in this database"
        )
    if isinstance(err, psycopg.errors.QueryCanceled):
        return (
            "the database did not answer in time (statement timeout; raise BOSUN_DB_TIMEOUT_S "
            "for a slow server): nothing was stored for this turn"
        )
    if isinstance(err, psycopg.OperationalError | psycopg.InterfaceError | OSError) and (
        _is_connection_error(err)
    ):
        return f"cannot reach the database: {_first_line(err)} (check DATABASE_URL)"
    if isinstance(err, psycopg.Error):
        return f"database error: {type(err).__name__}: {_first_line(err)}"
    # Read from sys.modules: an error of the model module can only come once it is loaded, and
    # commands without a model (`bosun status`, `--help`) do not import it.
    minilm = sys.modules.get("providers.minilm")
    if minilm is not None and isinstance(err, minilm.ModelIntegrityError):
        return f"a model file is corrupt: {_first_line(err)}"
    if type(err).__module__.startswith("onnxruntime"):
        return f"a model file cannot be loaded ({type(err).__name__}): {_first_line(err)}"
    return f"{type(err).__name__}: {_first_line(err)}"


def _is_connection_error(err: BaseException) -> bool:
    text = str(err).lower()
    return isinstance(err, psycopg.OperationalError | psycopg.InterfaceError) or any(
        word in text for word in ("connection", "connect", "timeout", "refused")
    )


def _first_line(err: BaseException) -> str:
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    text = lines[0] if lines else type(err).__name__
    return re.sub(r"^connection failed:\s*", "", text)
