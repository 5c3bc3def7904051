"""Where a cold `bosun ask` spends its import and first-turn CPU, on BOSUN_HOME's archive.

    BOSUN_HOME=... python benchmarks/imports.py [--runs 7] [--json]

Each number is the least over ``--runs`` fresh processes (the least is what the work costs;
more is other processes in the way). Three tables:

1. CPU of the imports of a cold ask in the order it runs them: settings (pydantic,
   pydantic-settings, the database driver), ``import langgraph.graph``, everything else; then
   the product's own modules alone (every library they import imported first) and, of them,
   the injection detector's (``text/injection*``);
2. CPU of ``import langgraph.graph`` and of its imports of LangSmith, ``langgraph_sdk``,
   httpx's command-line extras and OpenTelemetry's SDK (each with the imports it makes first);
3. CPU of a first turn with the models already loaded (as a cold ask has them, loaded on a
   thread during the imports), as the product runs it and with the injection detector's
   concept patterns compiled before it, next to a warm turn.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from render import Table, emit

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"

#: What `bosun ask` imports before its first turn (as benchmarks/startup.py's stages).
ASK_IMPORTS = """
import agent.cli, agent.conversation
from agent.server.db import ensure_schema
from agent.turns import TurnRunner, open_pool
from agent.wiring import build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph import intents
from graph.builder import build_graph
"""
OWN = ("agent", "graph", "adapt", "tools", "answers", "checkpoints", "providers", "archive", "text")

CHUNKS = f"""
import gc, json, time
gc.disable()  # as agent.startup.importing runs them
marks = [time.process_time()]
from agent.settings import Settings
Settings.from_env()
marks.append(time.process_time())
import langgraph.graph
marks.append(time.process_time())
{ASK_IMPORTS}
marks.append(time.process_time())
print(json.dumps([round((b - a) * 1000, 1) for a, b in zip(marks, marks[1:])]))
"""

LIBRARIES = f"""
import json, sys
{ASK_IMPORTS}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] not in {OWN!r})))
"""

OWN_ONLY = """
import gc, importlib, json, time
gc.disable()
for name in {libraries!r}:
    try:
        importlib.import_module(name)
    except Exception:  # noqa: BLE001 - a module only importable as part of its package
        pass
import text.words, text.sentences, text.storable, text.models, text.names, text.dates
marks = [time.process_time()]
import text.injection
marks.append(time.process_time())
{ask}
marks.append(time.process_time())
print(json.dumps([round((marks[2] - marks[0]) * 1000, 1), round((marks[1] - marks[0]) * 1000, 1)]))
"""

FIRST_TURN = f"""
import asyncio, json, sys, time
from agent.settings import Settings
from agent.turns import open_runner

async def main():
    async with open_runner(Settings.from_env(), warm=True) as runner:
        if sys.argv[1] == "precompiled":
            from text.injection_concepts import concept_features
            concept_features("compile the concept patterns")
        cpu = []
        for _ in range(2):
            start = time.process_time()
            await runner.run(f"imports-{{time.time_ns()}}", {QUESTION!r})
            cpu.append(round((time.process_time() - start) * 1000, 1))
        print(json.dumps(cpu))

asyncio.run(main())
"""

#: Parts of ``import langgraph.graph``: label -> the module whose cumulative import time it is.
PARTS = {
    "LangSmith's run trees (langsmith.run_trees)": "langsmith.run_trees",
    "of which its generated API types (langsmith.types)": "langsmith.types",
    "of which its client (langsmith.client)": "langsmith.client",
    "langgraph_sdk": "langgraph_sdk",
    "of which httpx's command-line extras (httpx._main: rich, click, pygments)": "httpx._main",
    "OpenTelemetry's SDK (opentelemetry.sdk.trace)": "opentelemetry.sdk.trace",
}


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOSUN_WARM_ASK": "off", "PYTHONPATH": str(ROOT)}
    env.pop("BOSUN_CHAT_MODEL", None)
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )


def _least(code: str, runs: int, *args: str) -> list[float]:
    """The least of each number ``code`` prints (a JSON list) over ``runs`` processes."""
    out = [json.loads(_run(code, *args).stdout.strip().splitlines()[-1]) for _ in range(runs)]
    return [min(values) for values in zip(*out, strict=True)]


def cpu_table(runs: int) -> Table:
    settings, graph, rest = _least(CHUNKS, runs)
    libraries = json.loads(_run(LIBRARIES).stdout.strip().splitlines()[-1])
    own, injection = _least(OWN_ONLY.format(libraries=libraries, ask=ASK_IMPORTS), runs)
    rows: list[list[Any]] = [
        ["settings (pydantic, pydantic-settings, the database driver)", round(settings)],
        ["`import langgraph.graph`", round(graph)],
        ["the rest of the ask's imports", round(rest)],
        ["the product's own modules (libraries imported first)", round(own)],
        ["of which the injection detector's (text/injection*)", round(injection)],
    ]
    return Table("cpu", ["a cold ask's imports", "CPU ms (least)"], rows)


#: CPU of ``import langgraph.graph`` and of the modules of :data:`PARTS` within it (each the
#: CPU its loader took, its own imports included, as ``-X importtime`` counts but in CPU time).
GRAPH_PARTS = """
import gc, importlib.abc, json, sys, time
gc.disable()
watched, spent = {watched!r}, {{}}

class Timed(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name not in watched or name in spent:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        exec_module = spec.loader.exec_module

        def timed(module):
            start = time.process_time()
            try:
                exec_module(module)
            finally:
                spent[name] = (time.process_time() - start) * 1000

        spec.loader.exec_module = timed
        return spec

sys.meta_path.insert(0, Timed())
import importlib.util
import langgraph.graph
print(json.dumps([spent.get(name, 0.0) for name in watched]))
"""


def graph_table(runs: int) -> Table:
    watched = ["langgraph.graph", *PARTS.values()]
    least = _least(GRAPH_PARTS.format(watched=watched), runs)
    rows: list[list[Any]] = [["`import langgraph.graph`", round(least[0]), 100]]
    rows += [
        [label, round(ms), round(100 * ms / least[0])]
        for label, ms in zip(PARTS, least[1:], strict=True)
    ]
    columns = ["`import langgraph.graph` and parts of it", "CPU ms (least)", "%"]
    return Table("langgraph", columns, rows)


def turn_table(runs: int) -> Table:
    shipped_first, shipped_warm = _least(FIRST_TURN, runs, "as shipped")
    precompiled_first, _ = _least(FIRST_TURN, runs, "precompiled")
    rows = [
        ["first turn, as shipped", round(shipped_first)],
        ["first turn, the detector's concept patterns compiled first", round(precompiled_first)],
        ["a second turn (same question, new thread)", round(shipped_warm)],
    ]
    return Table("turn", ["turn (models loaded before it)", "CPU ms (least)"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per number")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    tables = [cpu_table(args.runs), graph_table(args.runs), turn_table(args.runs)]
    command = f"python benchmarks/imports.py --runs {args.runs} --json"
    emit(command, tables, as_json=args.json, archive="examples/archive, offline")


if __name__ == "__main__":
    main()
