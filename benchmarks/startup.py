"""Start-up cost of `bosun` commands, and of `bosun ask` stage by stage, on BOSUN_HOME's archive.

    BOSUN_HOME=... python benchmarks/startup.py [--runs 5] [--turns 20] [--json]

Needs an archive (``bosun ingest examples/archive``) and no chat model (the offline path is
measured; ``BOSUN_CHAT_MODEL`` is cleared for the children). Four tables:

1. cold commands, ``--runs`` fresh processes each, wall and CPU time: ``python -c pass`` (the
   interpreter alone), `bosun --help`, `bosun status` and `bosun ask --json` with the embedded
   PostgreSQL server already running (a repeat command: the previous one's linger process
   holds it, :mod:`archive.store.linger`) but no warm process (``BOSUN_WARM_ASK=off``: each
   loads the graph and models), `bosun ask --json` right after `bosun ingest examples/archive`
   with nothing running before the ingest (the archive unchanged, so a short ingest: the
   server and the warm process come up with it, :mod:`agent.warm.keep`, and the ask is
   forwarded to the warm process, waiting for it if it is still loading), `bosun ask --json`
   answered by a warm process that is up and loaded (:mod:`agent.warm`; the client's own CPU,
   the turn runs in the warm process), and `bosun ask --json` with the server not running
   (``BOSUN_SERVER_LINGER_S=0``: each process starts the server and stops it on exit);
2. the warm process's memory (RSS and USS, psutil) once loaded and after the measured asks;
3. one cold process's start-up split into stages as `bosun ask` runs them, the median over
   ``--runs`` processes: settings, imports (the collector paused, the local model loading on a
   thread meanwhile: :mod:`agent.startup`), server start (or reuse), store open, what is left
   of the model load, intent centroids, pools and checkpointer, graph compile, and the first
   turn's own stages (CPU: the whole process, every thread);
4. ``--turns`` warm turns in one process through :class:`agent.turns.TurnRunner` (what `bosun
   chat` and the web server run): p50/p95 end to end and per graph stage.

Each child process is this script with ``--stages`` (prints one JSON object). The product's
packages are compiled to bytecode first, as an installation has them.
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

from render import Table, emit

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


def cold_runs(
    runs: int, argv: list[str], linger_s: str = "300", warm: str = "off", first: int = 0
) -> list[list[float]]:
    """Wall and CPU seconds (user + system, the process alone: not the server's nor the warm
    process's) of ``runs`` fresh processes of ``argv`` (``bosun`` is the installed command;
    ``{question}``: the ``first``-th question of :data:`QUESTIONS` on, two alternating)."""
    seconds = []
    for i in range(first, first + runs):
        command = [*_bosun(), *argv[1:]] if argv[0] == "bosun" else argv
        if command[-1] == "{question}":
            command = [*command[:-1], QUESTIONS[i % 2]]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            command,
            env=_env(BOSUN_SERVER_LINGER_S=linger_s, BOSUN_WARM_ASK=warm),
            check=True,
            capture_output=True,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        seconds.append([wall, cpu])
    return seconds


#: The cold commands measured, in order: label -> argv (``{question}``: one of QUESTIONS).
COLD = {
    "`python -c pass` (the interpreter alone)": [sys.executable, "-c", "pass"],
    "`bosun --help`": ["bosun", "--help"],
    "`bosun status`, server running": ["bosun", "status"],
    "`bosun ask --json`, server running, no warm process": ["bosun", "ask", "--json", "{question}"],
}
NOT_RUNNING = "`bosun ask --json`, server not running (started and stopped)"
AFTER_INGEST = (
    "`bosun ask --json` right after `bosun ingest examples/archive` (nothing running before "
    "the ingest; server and warm process come up with it)"
)
WARM = "`bosun ask --json`, warm process up and loaded"
ORDER = [*COLD, AFTER_INGEST, WARM, NOT_RUNNING]


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


_CPU: dict[str, float] = {}  # stage -> CPU ms of this process (all its threads)
SETTINGS = "settings (CPU: from the interpreter's start)"
IMPORTS = "imports (the model loading on a thread meanwhile)"
MODEL = "model load left after the imports (first embedding)"
#: The product's packages, compiled to bytecode before anything is timed (as `pip install`
#: does): a process with PYTHONDONTWRITEBYTECODE set would compile them at every start.
PACKAGES = ("agent", "graph", "adapt", "tools", "answers", "checkpoints", "providers", "archive")


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
    _CPU["_last"] = 0.0  # CPU time counts from the interpreter's start
    start = time.perf_counter()
    from agent import startup
    from agent.settings import Settings

    settings = Settings.from_env()
    result[SETTINGS] = _ms(start, SETTINGS)
    start = time.perf_counter()
    with startup.importing():  # as `bosun ask` starts (agent.cli.main)
        loading = startup.preload_embeddings(settings)
        import agent.cli  # noqa: F401 - what `bosun ask` imports
        import agent.conversation  # noqa: F401
        from agent.server.db import ensure_schema  # noqa: F401
        from agent.turns import TurnRunner, open_pool
        from agent.wiring import build_clients, open_services
        from checkpoints.postgres import open_checkpointer
        from graph import intents
        from graph.builder import build_graph

    result[IMPORTS] = _ms(start, IMPORTS)
    start = time.perf_counter()
    uri = settings.database_uri()
    result["server start or reuse"] = _ms(start, "server start or reuse")
    start = time.perf_counter()
    async with open_services(settings) as services:
        result["store open"] = _ms(start, "store open")
        start = time.perf_counter()
        if loading is not None:
            loading.join()
        services.embeddings.embed_query("model load")
        result[MODEL] = _ms(start, MODEL)
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


def report_cold(cold: dict[str, list[list[float]]]) -> Table:
    """Wall and CPU seconds of the cold commands (``[wall, cpu]`` per process)."""
    rows = []
    for label, runs in cold.items():
        wall, cpu = [r[0] for r in runs], [r[1] for r in runs]
        rows.append(
            [
                label,
                len(runs),
                round(statistics.median(wall), 2),
                round(min(wall), 2),
                round(statistics.median(cpu), 2),
            ]
        )
    columns = ["cold command", "runs", "wall median s", "wall min s", "CPU median s"]
    return Table("cold", columns, rows)


def report_stages(children: list[dict[str, Any]]) -> Table:
    keys = [k for k, v in children[0].items() if isinstance(v, int | float)]
    rows: list[list[Any]] = []
    for key in keys:
        wall = statistics.median(c[key] for c in children)
        cpu = statistics.median(c["cpu"].get(key, 0.0) for c in children)
        rows.append([key, round(wall), round(cpu)])
    for stage in children[0]["first turn stages"]:
        values = [c["first turn stages"].get(stage, 0.0) for c in children]
        rows.append([f"first turn: {stage}", round(statistics.median(values)), None])
    columns = [f"start-up stage (one process, median of {len(children)})", "wall ms", "CPU ms"]
    return Table("stages", columns, rows)


def report_warm(warm: list[dict[str, float]]) -> Table:
    keys: list[str] = []
    for turn in warm:
        keys += [k for k in turn if k not in keys]
    rows: list[list[Any]] = []
    for key in keys:
        values = [t.get(key, 0.0) for t in warm]
        rows.append([key, round(_p(values, 0.5)), round(_p(values, 0.95))])
    return Table("warm", [f"warm turn stage ({len(warm)} turns)", "p50 ms", "p95 ms"], rows)


def after_ingest(runs: int, home: Path, pgdata: Path) -> list[list[float]]:
    """``runs`` times: nothing running (`bosun stop`), `bosun ingest examples/archive` (not
    timed), then the timed `bosun ask --json` at once."""
    from agent.warm.client import stop as stop_warm
    from archive.store.linger import stop

    seconds = []
    for i in range(runs):
        stop_warm(home.resolve())
        stop(pgdata)
        ingest = ["bosun", "ingest", str(ROOT / "examples" / "archive"), "--no-progress"]
        cold_runs(1, ingest, warm="on")
        seconds += cold_runs(1, ["bosun", "ask", "--json", "{question}"], warm="on", first=i)
    return seconds


def warm_memory(home: Path) -> list[float]:
    """RSS and USS (MiB) of ``home``'s warm process (psutil)."""
    import socket

    import psutil

    from agent.warm.address import name_of, peer

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(name_of(home.resolve()))
        pid, _ = peer(sock)
    info = psutil.Process(pid).memory_full_info()
    return [round(info.rss / 2**20), round(info.uss / 2**20)]


def report_memory(memory: dict[str, list[float]]) -> Table:
    rows = [[label, *values] for label, values in memory.items()]
    return Table("memory", ["warm process", "RSS MiB", "USS MiB"], rows)


def _loaded(home: Path) -> int:
    """How many warm processes of ``home`` have loaded so far (its log says so)."""
    from agent.warm.process import LOG_FILE

    log = home / LOG_FILE
    return (log.read_text(errors="replace") if log.exists() else "").count("answering asks")


def _wait_warm(home: Path, before: int, seconds: float = 300.0) -> None:
    """Until the warm process that the last ask started has loaded its models."""
    deadline = time.monotonic() + seconds
    while _loaded(home) <= before:
        if time.monotonic() > deadline:
            raise SystemExit(f"the warm process did not start; see its log in {home}")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold processes per measurement")
    parser.add_argument("--turns", type=int, default=20, help="warm turns in one process")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--stages", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stages:
        import asyncio

        print(json.dumps(asyncio.run(_stages(args.turns))))  # noqa: T201 - the child's output
        return

    from agent.settings import Settings
    from agent.warm.client import stop as stop_warm
    from archive.store.linger import stop

    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *PACKAGES, "text"], cwd=ROOT, check=True
    )
    start_load = round(os.getloadavg()[0], 1)
    settings = Settings.from_env()
    pgdata = settings.pgdata_dir
    stop_warm(settings.home.resolve())  # an earlier command's warm process and linger: the
    stop(pgdata)  # server stops first
    cold: dict[str, list[list[float]]] = {}
    ask = ["bosun", "ask", "--json", "{question}"]
    if (pgdata / "postmaster.pid").exists():
        print("server not running: not measured, another process holds it", file=sys.stderr)  # noqa: T201
    else:  # nothing holds the server: each starts and stops it
        cold[NOT_RUNNING] = cold_runs(args.runs, ask, "0")
    cold_runs(1, ["bosun", "status"])  # starts the server and leaves it to a linger process
    for label, argv in COLD.items():
        cold[label] = cold_runs(args.runs, argv)
    loaded = _loaded(settings.home)
    cold_runs(1, ask, warm="on")  # a cold ask that leaves a warm process
    _wait_warm(settings.home, loaded)
    memory = {"loaded": warm_memory(settings.home)}
    cold[WARM] = cold_runs(args.runs, ask, warm="on")
    memory[f"after {args.runs} asks"] = warm_memory(settings.home)
    cold[AFTER_INGEST] = after_ingest(args.runs, settings.home, pgdata)
    stop_warm(settings.home.resolve())
    cold = {label: cold[label] for label in ORDER if label in cold}
    children = child_stages(args.runs, args.turns)
    tables = [
        report_cold(cold),
        report_memory(memory),
        report_stages(children),
        report_warm(children[0]["warm"]),
    ]
    command = f"python benchmarks/startup.py --runs {args.runs} --turns {args.turns} --json"
    emit(
        command,
        tables,
        as_json=args.json,
        archive="examples/archive, offline",
        load_avg_1m_start=start_load,
    )


if __name__ == "__main__":
    main()
