"""Start-up and warm-turn cost of `bosun ask`, stage by stage, on the archive under BOSUN_HOME.

    BOSUN_HOME=... python benchmarks/startup.py [--runs 5] [--turns 20]

Needs an archive (``bosun ingest examples/archive``) and no chat model (the offline path is
measured; ``BOSUN_CHAT_MODEL`` is cleared for the children). Three tables:

1. cold `bosun ask --json` wall time, ``--runs`` fresh processes each, with the embedded
   PostgreSQL server already running (a repeat command: the previous one's linger process
   holds it, :mod:`archive.store.linger`) and not running (``BOSUN_SERVER_LINGER_S=0``: each
   process starts the server and stops it on exit);
2. one cold process's start-up split into stages, the median over ``--runs`` processes:
   imports, settings, server start (or reuse), store open, model load, intent centroids,
   pools and checkpointer, graph compile, vessel registry, and the first turn's own stages;
3. ``--turns`` warm turns in one process through :class:`agent.turns.TurnRunner` (what `bosun
   chat` and the web server run): p50/p95 end to end and per graph stage.

Each child process is this script with ``--stages`` (prints one JSON object).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

QUESTIONS = [
    "How was the cylinder liner crack on Nordic Star resolved?",
    "What was the probable cause of the ERA25LA084 accident?",
    "Which vessels reported ballast pump problems?",
    "What did the pilot do before the engine lost power?",
    "hello",
]
ROOT = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LANGFUSE_")}
    env.update(extra)
    env.pop("BOSUN_CHAT_MODEL", None)
    env.pop("GOOGLE_API_KEY", None)
    env.pop("GEMINI_API_KEY", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _bosun() -> list[str]:
    script = Path(sys.executable).with_name("bosun")
    return [str(script)] if script.exists() else [sys.executable, "-m", "agent.cli"]


def cold_asks(runs: int, linger_s: str) -> list[list[float]]:
    """Wall and CPU seconds (user + system, the process alone: not the server's) of ``runs``
    fresh `bosun ask --json` processes."""
    seconds = []
    for i in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [*_bosun(), "ask", "--json", QUESTIONS[i % 2]],
            env=_env(BOSUN_SERVER_LINGER_S=linger_s),
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        seconds.append([wall, cpu])
    return seconds


def child_stages(runs: int, turns: int) -> list[dict[str, Any]]:
    """``runs`` fresh processes, each printing its own stage timings (ms); the first one then
    runs ``turns`` warm turns."""
    out = []
    for i in range(runs):
        proc = subprocess.run(
            [sys.executable, __file__, "--stages", "--turns", str(turns if i == 0 else 0)],
            env=_env(),
            check=True,
            capture_output=True,
            text=True,
        )
        out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


_CPU: dict[str, float] = {}  # stage -> CPU ms of this process


def _ms(start: float, stage: str = "") -> float:
    """Wall ms since ``start``; the CPU ms since the previous call are kept under ``stage``."""
    cpu = time.process_time()
    if stage:
        _CPU[stage] = round((cpu - _CPU.get("_last", 0.0)) * 1000.0, 1)
    _CPU["_last"] = cpu
    return round((time.perf_counter() - start) * 1000.0, 1)


async def _stages(turns: int) -> dict[str, Any]:  # noqa: PLR0915 - one stage after another
    """Time each start-up stage as `bosun ask` runs it (``agent.turns.open_runner`` unrolled),
    then the first turn and ``turns`` warm turns."""
    result: dict[str, Any] = {}
    _CPU["_last"] = 0.0  # the imports' CPU time counts from the interpreter's start
    start = time.perf_counter()
    import agent.cli  # noqa: F401 - what `bosun ask` imports
    from agent.server.db import ensure_schema  # noqa: F401
    from agent.settings import Settings
    from agent.turns import TurnRunner, open_pool
    from agent.wiring import build_clients, open_services
    from checkpoints.postgres import open_checkpointer
    from graph import intents
    from graph.builder import build_graph

    result["imports"] = _ms(start, "imports")
    start = time.perf_counter()
    settings = Settings.from_env()
    result["settings"] = _ms(start, "settings")
    start = time.perf_counter()
    uri = settings.database_uri()
    result["server start or reuse"] = _ms(start, "server start or reuse")
    start = time.perf_counter()
    async with open_services(settings) as services:
        result["store open"] = _ms(start, "store open")
        start = time.perf_counter()
        services.embeddings.embed_query("model load")
        result["model load (first embedding)"] = _ms(start, "model load (first embedding)")
        start = time.perf_counter()
        await intents.centroids(services.embeddings)
        result["intent centroids"] = _ms(start, "intent centroids")
        start = time.perf_counter()
        pool = await open_pool(settings)
        try:
            async with open_checkpointer(uri) as saver:
                result["pools, schema, checkpointer"] = _ms(start, "pools, schema, checkpointer")
                start = time.perf_counter()
                graph = build_graph(build_clients(services), checkpointer=saver)
                result["graph compile"] = _ms(start, "graph compile")
                runner = TurnRunner(graph, settings, pool)
                start = time.perf_counter()
                turn = await runner.run(f"startup-{time.time_ns()}", QUESTIONS[0])
                result["first turn"] = _ms(start, "first turn")
                result["first turn stages"] = dict(turn.diagnostics.get("timings") or {})
                warm = []
                for i in range(turns):
                    question = QUESTIONS[i % len(QUESTIONS)]
                    cpu = time.process_time()
                    turn = await runner.run(f"startup-{time.time_ns()}", question)
                    warm.append(
                        {
                            "total": round(turn.seconds * 1000.0, 1),
                            "total CPU": round((time.process_time() - cpu) * 1000.0, 1),
                            **(turn.diagnostics.get("timings") or {}),
                        }
                    )
                result["warm"] = warm
        finally:
            await pool.close()
    _CPU["_last"] = time.process_time()
    start = time.perf_counter()
    table = await intents.compute_centroids(services.embeddings)
    result["centroids if recomputed (not run by ask)"] = _ms(
        start, "centroids if recomputed (not run by ask)"
    )
    del table
    result["cpu"] = {k: v for k, v in _CPU.items() if not k.startswith("_")}
    return result


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def report_cold(held: list[list[float]], fresh: list[list[float]]) -> str:
    """Wall and CPU seconds of the cold asks (``[wall, cpu]`` per process)."""
    lines = [
        "| cold `bosun ask --json` | wall median s | wall min s | CPU median s | CPU min s |",
        "|---|---|---|---|---|",
    ]
    for label, runs in (("server already running", held), ("server not running", fresh)):
        if not runs:
            continue
        wall, cpu = [r[0] for r in runs], [r[1] for r in runs]
        lines.append(
            f"| {label} | {statistics.median(wall):.2f} | {min(wall):.2f} |"
            f" {statistics.median(cpu):.2f} | {min(cpu):.2f} |"
        )
    return "\n".join(lines)


def report_stages(children: list[dict[str, Any]]) -> str:
    keys = [k for k, v in children[0].items() if isinstance(v, int | float)]
    lines = ["| start-up stage (one process) | wall median ms | CPU median ms |", "|---|---|---|"]
    for key in keys:
        wall = statistics.median(c[key] for c in children)
        cpu = statistics.median(c["cpu"].get(key, 0.0) for c in children)
        lines.append(f"| {key} | {wall:.0f} | {cpu:.0f} |")
    stages = children[0]["first turn stages"].keys()
    for stage in stages:
        values = [c["first turn stages"].get(stage, 0.0) for c in children]
        lines.append(f"| first turn: {stage} | {statistics.median(values):.0f} | |")
    return "\n".join(lines)


def report_warm(warm: list[dict[str, float]]) -> str:
    keys: list[str] = []
    for turn in warm:
        keys += [k for k in turn if k not in keys]
    lines = [f"| warm turn stage ({len(warm)} turns) | p50 ms | p95 ms |", "|---|---|---|"]
    for key in keys:
        values = [t.get(key, 0.0) for t in warm]
        lines.append(f"| {key} | {_p(values, 0.5):.0f} | {_p(values, 0.95):.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold processes per measurement")
    parser.add_argument("--turns", type=int, default=20, help="warm turns in one process")
    parser.add_argument("--stages", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--raw", type=Path, help="print the tables of a run's raw figures (stderr)")
    args = parser.parse_args()
    if args.raw:
        raw = json.loads(args.raw.read_text().strip().splitlines()[-1])
        _print_tables(raw["held"], raw["fresh"], raw["children"])
        return
    if args.stages:
        import asyncio

        print(json.dumps(asyncio.run(_stages(args.turns))))  # noqa: T201 - the child's output
        return

    from agent.settings import Settings
    from archive.store.linger import release

    pgdata = Settings.from_env().pgdata_dir
    if release(pgdata):  # an earlier command's linger: let the server stop first
        time.sleep(3)
    fresh: list[list[float]] = []
    if (pgdata / "postmaster.pid").exists():
        print("server not running: not measured, another process holds it", file=sys.stderr)  # noqa: T201
    else:
        fresh = cold_asks(args.runs, "0")  # nothing holds the server: each starts and stops it
    cold_asks(1, "300")  # starts the server and leaves it to a linger process
    held = cold_asks(args.runs, "300")
    children = child_stages(args.runs, args.turns)
    raw = {"held": held, "fresh": fresh, "children": children}
    print(json.dumps(raw), file=sys.stderr)  # noqa: T201 - the raw figures, for the record
    _print_tables(held, fresh, children)


def _print_tables(
    held: list[list[float]], fresh: list[list[float]], children: list[dict[str, Any]]
) -> None:
    print(report_cold(held, fresh))  # noqa: T201 - a benchmark prints its tables
    print()  # noqa: T201
    print(report_stages(children))  # noqa: T201
    print()  # noqa: T201
    print(report_warm(children[0]["warm"]))  # noqa: T201


if __name__ == "__main__":
    main()
