"""`bosun status` and `bosun stop`: what the archive holds, and stopping this home's embedded
server. Neither loads a model or the graph: status reads counts in SQL, stop manages processes."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from agent.settings import Settings


def add_status_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    status = subparsers.add_parser("status", help="what the archive holds")
    status.add_argument("--json", action="store_true")


def add_stop_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    stop = subparsers.add_parser(
        "stop", help="stop the embedded PostgreSQL server of this BOSUN_HOME and its helper"
    )
    stop.add_argument("--json", action="store_true")


async def run_status(settings: Settings, args: argparse.Namespace) -> int:
    """What the collection holds, read in SQL: no model is loaded and nothing is created (a
    collection never ingested reads as empty)."""
    from archive.store.vessels import collection_status

    info: dict[str, Any] = {
        **await collection_status(settings.database_uri(), settings.collection),
        "collection": settings.collection,
        "archive": settings.archive_url or str(settings.archive_dir),
    }
    if args.json:
        _say(json.dumps(info, indent=2))
    else:
        for key, value in info.items():
            _say(f"{key:>16}: {'-' if value is None else value}")
    return 0


async def run_stop(settings: Settings, args: argparse.Namespace) -> int:
    """Stop this home's embedded server and its linger process (nothing to do with a server
    that DATABASE_URL names: Bosun never started that one)."""
    from agent.warm.client import stop as stop_warm
    from archive.store.linger import stop

    warm = await asyncio.to_thread(stop_warm, settings.home.resolve())  # it holds the server
    stopped = await asyncio.to_thread(stop, settings.pgdata_dir)
    if args.json:
        report = {
            "warm_ask_stopped": warm,
            "helper_stopped": stopped.helper,
            "server_stopped": stopped.server,
            "held_by": list(stopped.holders),
        }
        _say(json.dumps(report, indent=2))
    else:
        if warm is not None:
            _say(f"stopped the warm ask process {warm}")
        if stopped.holders:
            pids = ", ".join(str(pid) for pid in stopped.holders)
            _say(f"the embedded server is still in use by process {pids}; stop those first")
        elif stopped.server:
            _say(f"stopped the embedded PostgreSQL server in {settings.pgdata_dir}")
        else:
            _say(f"no embedded server was running in {settings.pgdata_dir}")
    if settings.database_url:
        sys.stderr.write("(DATABASE_URL is set: that server is not Bosun's to stop)\n")
    return 1 if stopped.holders else 0


def _say(text: str) -> None:
    """The commands' output layer: one line to stdout."""
    sys.stdout.write(text + "\n")
