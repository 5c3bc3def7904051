"""Web chat latency: time to the first token and to the citations frame over SSE.

    python benchmarks/web_latency.py [--questions 50] [--concurrency 20] [--workers 1]

Ingests ``examples/archive`` into ``benchmarks/out/web-home`` (once, with the real `bosun
ingest`), starts `bosun serve` on a free port, and asks questions made from the archive itself
(the NTSB reports' numbers and the fleet mails' subjects, in a fixed order), ``--concurrency``
streams at a time, each on a new thread (the per-user chat limit is raised for the run).
Prints p50/p95 of the time to the first ``token``
frame, to the ``citations`` frame and to ``final``, and the number of failed streams.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
from render import Table, emit

from agent.evaluation.metrics import percentile
from agent.settings import Settings
from agent.wiring import open_services

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "benchmarks" / "out" / "web-home"


@dataclass
class Stream:
    first_token_s: float | None = None
    citations_s: float | None = None
    final_s: float | None = None
    citations: int = 0
    error: str | None = None


def _bosun() -> list[str]:
    script = Path(sys.executable).with_name("bosun")
    return [str(script)] if script.exists() else [sys.executable, "-m", "agent.cli"]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGFUSE_", "BOSUN_"))}
    env.update(BOSUN_HOME=str(HOME), BOSUN_COLLECTION="web_bench", PYTHONUNBUFFERED="1")
    # One benchmark user sends far more than a person would: latency is measured, not the limit.
    env["BOSUN_RATE_CHAT"] = "100000"
    if os.environ.get("DATABASE_URL"):
        env["DATABASE_URL"] = os.environ["DATABASE_URL"]
    return env


async def questions(settings: Settings, n: int) -> list[str]:
    """Questions built from what the archive holds: report numbers and mail subjects."""
    async with open_services(settings) as services, services.store.pool.connection() as conn:
        cur = await conn.execute(
            """SELECT DISTINCT report_no, subject FROM documents
               WHERE report_no IS NOT NULL OR subject IS NOT NULL
               ORDER BY report_no NULLS LAST, subject"""
        )
        rows = await cur.fetchall()
    out = [
        f"What was the probable cause of the {r['report_no']} accident?"
        if r["report_no"]
        else f"What happened in the mail about {r['subject']}?"
        for r in rows
    ]
    if not out:
        raise SystemExit("the archive is empty: the ingest failed")
    return [out[i % len(out)] for i in range(n)]


async def ask(client: httpx.AsyncClient, question: str) -> Stream:
    result = Stream()
    start = time.perf_counter()
    event = ""
    try:
        async with client.stream("POST", "/api/chat", json={"message": question}) as response:
            if response.status_code != 200:
                result.error = f"HTTP {response.status_code}"
                return result
            async for line in response.aiter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                    now = time.perf_counter() - start
                    if event == "token" and result.first_token_s is None:
                        result.first_token_s = now
                    elif event == "citations":
                        result.citations_s = now
                    elif event == "final":
                        result.final_s = now
                    elif event == "error":
                        result.error = "error frame"
                elif line.startswith("data:") and event == "citations":
                    result.citations = len(json.loads(line[5:])["citations"])
    except httpx.HTTPError as err:
        result.error = type(err).__name__
    if result.final_s is None and result.error is None:
        result.error = "no final frame"
    return result


async def run(url: str, asked: list[str], concurrency: int) -> tuple[list[Stream], float]:
    gate = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency + 5)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:

        async def one(q: str) -> Stream:
            async with gate:
                return await ask(client, q)

        start = time.perf_counter()
        results = await asyncio.gather(*(one(q) for q in asked))
        return list(results), time.perf_counter() - start


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _row(name: str, values: list[float]) -> list[object]:
    if not values:
        return [name, None, None, None]
    p50, p95 = percentile(values, 50), percentile(values, 95)
    return [name, round(p50, 2), round(p95, 2), round(max(values), 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    env = _env()
    HOME.mkdir(parents=True, exist_ok=True)
    settings = Settings.from_env(env)
    if not (HOME / "ingested").exists():
        subprocess.run(
            [*_bosun(), "ingest", "examples/archive", "--no-progress"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=sys.stderr,  # stdout is the benchmark's table or JSON
        )
        (HOME / "ingested").write_text("examples/archive\n")
    asked = asyncio.run(questions(settings, args.questions))

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = (HOME / "serve.log").open("wb")
    server = subprocess.Popen(
        [*_bosun(), "serve", "--port", str(port), "--workers", str(args.workers)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while not _healthy(url):
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"bosun serve did not start; see {HOME / 'serve.log'}")
            time.sleep(0.3)
        asyncio.run(run(url, asked[:2], 2))  # warm-up: models loaded, pools open
        results, wall = asyncio.run(run(url, asked, args.concurrency))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)

    ok = [r for r in results if r.error is None]
    errors = [r.error for r in results if r.error]
    rows = [
        _row("first token", [r.first_token_s for r in ok if r.first_token_s is not None]),
        _row("citations frame", [r.citations_s for r in ok if r.citations_s is not None]),
        _row("final frame", [r.final_s for r in ok if r.final_s is not None]),
    ]
    summary = [
        len(results),
        args.concurrency,
        args.workers,
        len(errors),
        sum(1 for r in ok if r.citations),
        round(wall, 1),
    ]
    tables = [
        Table("streams", ["seconds", "p50", "p95", "max"], rows),
        Table(
            "run",
            ["questions", "concurrent", "workers", "errors", "answers with citations", "wall s"],
            [summary],
        ),
    ]
    command = (
        f"python benchmarks/web_latency.py --questions {args.questions} "
        f"--concurrency {args.concurrency} --workers {args.workers} --json"
    )
    emit(command, tables, as_json=args.json, errors=sorted(set(errors)))


if __name__ == "__main__":
    main()
