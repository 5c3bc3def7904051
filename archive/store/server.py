"""Where the database is: the embedded PostgreSQL server by default, any server via DATABASE_URL."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path

logger = logging.getLogger(__name__)


@cache
def _embedded_uri(pgdata: Path) -> str:
    with warnings.catch_warnings():
        # pgserver keeps its lock file in the user runtime dir; the /tmp fallback is fine here.
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        import pgserver  # imported lazily: it is only needed without DATABASE_URL

    pgdata.mkdir(parents=True, exist_ok=True)
    with _stdout_to_stderr():
        server = pgserver.get_server(pgdata, cleanup_mode="stop")
    logger.info("embedded PostgreSQL at %s", pgdata)
    return str(server.get_uri())


@contextlib.contextmanager
def _stdout_to_stderr() -> Iterator[None]:
    """initdb and pg_ctl write progress to fd 1; keep stdout clean for ``--json`` output."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def database_uri(database_url: str | None, pgdata: Path) -> str:
    """``database_url`` when one is configured, else the embedded server's (in ``pgdata``)."""
    if database_url:
        return database_url
    return _embedded_uri(pgdata)


def sqlalchemy_uri(uri: str) -> str:
    """The same database as a SQLAlchemy async URL on the psycopg driver."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if uri.startswith(prefix):
            return "postgresql+psycopg://" + uri[len(prefix) :]
    raise ValueError("DATABASE_URL must start with postgresql://")
