"""Several processes opening the checkpointer on a fresh database at once all succeed."""

from __future__ import annotations

import asyncio
import sys

import pytest
from psycopg import AsyncConnection

from agent.settings import Settings

pytestmark = pytest.mark.integration

OPEN = """
import asyncio, os
from agent.settings import Settings
from checkpoints.postgres import open_checkpointer

async def main():
    async with open_checkpointer(Settings.from_env().database_uri()) as saver:
        await saver.aget_tuple({"configurable": {"thread_id": "race"}})

asyncio.run(main())
"""


async def test_concurrent_setup_on_a_fresh_database(settings: Settings) -> None:
    uri = settings.database_uri()
    async with await AsyncConnection.connect(uri, autocommit=True) as conn:
        await conn.execute("DROP DATABASE IF EXISTS checkpoint_race")
        await conn.execute("CREATE DATABASE checkpoint_race")
    fresh = uri.replace("/postgres?", "/checkpoint_race?")
    assert fresh != uri
    env = {"DATABASE_URL": fresh, "BOSUN_HOME": str(settings.home), "PATH": ""}
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", OPEN, env=env, stderr=asyncio.subprocess.PIPE
        )
        for _ in range(4)
    ]
    results = [await p.communicate() for p in procs]
    for proc, (_, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0, err.decode()[-2000:]
