"""First starts at the same moment: processes migrating collections of one fresh database (the
same collection and different ones) all succeed, and each migration is applied once."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import conninfo

from agent.settings import Settings
from archive.store.schema import migrations

pytestmark = pytest.mark.integration

#: Waits for a shared start time, then migrates one collection of the database it is given.
_MIGRATOR = """
import asyncio, sys, time
from psycopg import AsyncConnection
from archive.store.schema import migrate

async def main(uri, schema, start):
    async with await AsyncConnection.connect(uri, autocommit=True) as conn:
        time.sleep(max(0.0, start - time.time()))
        await migrate(conn, schema, dim=8)

asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
"""


@pytest.fixture
def fresh_database(settings: Settings) -> Iterator[str]:
    """A new, empty database (no pgvector yet) on the test server; dropped afterwards."""
    uri = settings.database_uri()
    name = f"race_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")  # type: ignore[arg-type]
    try:
        yield conninfo.make_conninfo(uri, dbname=name)
    finally:
        with psycopg.connect(uri, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")  # type: ignore[arg-type]


def test_concurrent_first_migrations_of_a_fresh_database_all_succeed(fresh_database: str) -> None:
    schemas = ["alpha", "alpha", "beta", "gamma"]
    start = time.time() + 3.0  # every process connected and waiting by then
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _MIGRATOR, fresh_database, schema, str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for schema in schemas
    ]
    failures = []
    for proc in procs:
        _, stderr = proc.communicate(timeout=120)
        if proc.returncode != 0:
            failures.append(stderr[-1500:])
    assert failures == []
    with psycopg.connect(fresh_database, autocommit=True) as conn:
        extensions = conn.execute("SELECT count(*) FROM pg_extension WHERE extname = 'vector'")
        assert extensions.fetchone() == (1,)
        for schema in sorted(set(schemas)):
            cur = conn.execute(
                f"SELECT version FROM {schema}.schema_migrations ORDER BY version"  # noqa: S608
            )
            assert [row[0] for row in cur.fetchall()] == [v for v, _, _ in migrations()]
