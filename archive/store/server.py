"""Where the database is: the embedded PostgreSQL server by default, any server via DATABASE_URL."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path

logger = logging.getLogger(__name__)

#: Data folders of the embedded servers this process holds and hands to a linger process at exit.
_HANDED_OVER: set[Path] = set()


@cache
def _embedded_uri(pgdata: Path, linger_s: float) -> str:
    with warnings.catch_warnings():
        # pgserver keeps its lock file in the user runtime dir; the /tmp fallback is fine here.
        warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
        import pgserver  # imported lazily: it is only needed without DATABASE_URL

    pgdata.mkdir(parents=True, exist_ok=True)
    _forget_dead_holders(pgdata)
    with _stdout_to_stderr():
        server = pgserver.get_server(pgdata, cleanup_mode="stop")
    if linger_s > 0:  # runs before pgserver's own exit handler (registered above): LIFO
        atexit.register(_hand_over, pgdata, linger_s)
        _HANDED_OVER.add(pgdata)
    logger.info("embedded PostgreSQL at %s", pgdata)
    return str(server.get_uri())


def _forget_dead_holders(pgdata: Path) -> None:
    """pgserver stops the server when the last process using it exits, judged by a PID list in
    ``pgdata``; a killed process (``kill -9``) never takes its PID off, and the server would
    never be stopped again. Drop the PIDs of processes that no longer exist, under pgserver's
    own lock."""
    from pgserver.postgres_server import PostgresServer  # pinned 0.1.6: its PID list and lock
    from pgserver.utils import DiskList, process_is_running

    handles = DiskList(pgdata / ".handle_pids.json")
    with PostgresServer._lock:
        try:
            pids = handles.get()
        except (OSError, ValueError) as err:  # unreadable or half-written: pgserver rewrites it
            logger.warning("cannot read %s: %s", handles.path, err)
            return
        alive = [pid for pid in pids if process_is_running(pid)]
        if alive != pids:
            logger.info(
                "forgetting exited holders of the embedded server: %s", set(pids) - set(alive)
            )
            handles.put(alive)


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


def _hand_over(pgdata: Path, linger_s: float) -> None:
    from archive.store.linger import hand_over

    try:
        hand_over(pgdata, linger_s)
    except (OSError, ValueError) as err:  # the server is then stopped at exit, as without linger
        logger.warning("cannot keep the embedded server up after exit: %s", err)


def lingers_after_exit(pgdata: Path) -> bool:
    """Whether this process holds the embedded server of ``pgdata`` and hands it to a linger
    process when it exits (it stays up after this command)."""
    return pgdata in _HANDED_OVER


def release_embedded(pgdata: Path) -> None:
    """Give up this process's hold on the embedded server of ``pgdata`` now, stopping it when
    this was the last holder (what exit would do; before its folder is removed, say)."""
    from pgserver.postgres_server import PostgresServer  # pinned 0.1.6: its instance registry

    held = PostgresServer._instances.get(pgdata)
    if held is not None:
        held.cleanup()
    _HANDED_OVER.discard(pgdata)
    _embedded_uri.cache_clear()


def database_uri(database_url: str | None, pgdata: Path, *, linger_s: float = 0.0) -> str:
    """``database_url`` when one is configured, else the embedded server's (in ``pgdata``),
    kept up ``linger_s`` seconds after this process exits (:mod:`archive.store.linger`)."""
    if database_url:
        return database_url
    return _embedded_uri(pgdata, linger_s)


def sqlalchemy_uri(uri: str) -> str:
    """The same database as a SQLAlchemy async URL on the psycopg driver."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if uri.startswith(prefix):
            return "postgresql+psycopg://" + uri[len(prefix) :]
    raise ValueError("DATABASE_URL must start with postgresql://")
