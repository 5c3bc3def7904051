"""Checkpoint bytes per turn: how much conversation state one thread stores as it grows.

Asks a scripted conversation on one thread through the product graph over an ingested archive
(``BOSUN_HOME`` / ``DATABASE_URL`` as for ``bosun``), with an in-memory checkpointer that holds
exactly what the Postgres one would write (the same serializer): every checkpoint and every
channel blob. Prints, per turn, the checkpoints written, the bytes added, and the largest
channels (what to slim)::

    bosun ingest examples/archive
    python benchmarks/checkpoint_size.py --turns 8 [--json]
"""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter

from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from render import Table, emit

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from graph.builder import TURN_DURABILITY, build_graph
from graph.context import Context

QUESTIONS = [
    "How was the cylinder liner crack on Nordic Star resolved?",
    "who replaced it?",
    "What was the probable cause of the ERA25LA084 accident?",
    "what happened to the steel coils?",
    "Were there any hatch cover repairs?",
    "and what did the surveyor say about it?",
    "Which aircraft lost engine power after takeoff?",
    "thanks",
]


def stored_bytes(saver: InMemorySaver, thread: str) -> tuple[int, int, Counter[str]]:
    """Checkpoints of ``thread``, their bytes (checkpoint, metadata, writes, channel blobs),
    and bytes per channel."""
    checkpoints = 0
    total = 0
    for _ns, by_id in saver.storage.get(thread, {}).items():
        for checkpoint, metadata, _parent in by_id.values():
            checkpoints += 1
            total += len(checkpoint[1]) + len(metadata[1])
    per_channel: Counter[str] = Counter()
    for (thread_id, _ns, channel, _version), (_kind, blob) in saver.blobs.items():
        if thread_id == thread:
            per_channel[channel] += len(blob)
    for (thread_id, _ns, _checkpoint), writes in saver.writes.items():
        if thread_id == thread:
            for _task, channel, (_kind, blob), _path in writes.values():
                per_channel[f"writes:{channel}"] += len(blob)
    return checkpoints, total + sum(per_channel.values()), per_channel


async def run(turns: int, as_json: bool = False) -> None:
    settings = Settings.from_env()
    saver = InMemorySaver()
    async with open_services(settings) as services:
        graph = build_graph(build_clients(services), checkpointer=saver)
        thread = "checkpoint-size"
        before_n, before_bytes = 0, 0
        rows: list[tuple[int, int, int, int, str]] = []
        for n, question in enumerate((QUESTIONS * turns)[:turns], start=1):
            await graph.ainvoke(
                {"messages": [HumanMessage(question)]},
                {"configurable": {"thread_id": thread}},
                context=Context(),
                durability=TURN_DURABILITY,
            )
            count, size, channels = stored_bytes(saver, thread)
            top = ", ".join(f"{c} {b // 1024} KB" for c, b in channels.most_common(3))
            rows.append((n, count - before_n, size - before_bytes, size, top))
            before_n, before_bytes = count, size
    table = Table(
        "turns",
        ["turn", "checkpoints", "bytes added", "total bytes", "largest channels"],
        [list(row) for row in rows],
    )
    mean = Table("mean", ["turns", "mean bytes per turn"], [[len(rows), rows[-1][3] // len(rows)]])
    command = f"python benchmarks/checkpoint_size.py --turns {turns} --json"
    emit(command, [table, mean], as_json=as_json, archive="examples/archive, offline")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    asyncio.run(run(args.turns, args.json))


if __name__ == "__main__":
    main()
