"""The web server under the database restarting and under limits at a window edge.

    python benchmarks/server_faults.py [--down-s 5] [--json]

Starts an embedded PostgreSQL of its own (a temporary folder), builds the web app in-process
over it (an empty collection: the thread list is the measured route) and:

- stops the database, sends one request and then two more while it is down, starts it again
  and sends requests until one answers 200: how long each waited, how many failed after the
  restart and how long the first success took;
- sends 30 requests in the last second of a clock minute and 30 more in the first seconds of the
  next (limit 30 a minute, the database's own counters, times given), and counts how many went
  through within 4 s;
- sends 50 requests from 50 client addresses without API keys (limit 30): how many got 429.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from starlette.exceptions import HTTPException

from agent.server import ratelimit
from agent.server.app import build_app
from agent.server.config import ServerConfig
from agent.settings import Settings
from agent.turns import open_pool
from archive.store.server import database_uri


async def _timed(client: httpx.AsyncClient, path: str) -> tuple[int, float]:
    start = time.perf_counter()
    response = await client.get(path, timeout=120)
    return response.status_code, time.perf_counter() - start


async def restart(settings: Settings, pgdata: Path, server: Any, down_s: float) -> dict[str, Any]:
    from pgserver._commands import pg_ctl

    app = build_app(settings, ServerConfig(secret=b"bench-secret-0123456789"))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    out: dict[str, Any] = {}
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        assert (await client.get("/api/threads", timeout=120)).status_code == 200
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=server.system_user)
        out["first_down"] = await _timed(client, "/api/threads")
        out["later_down"] = [await _timed(client, "/api/threads") for _ in range(2)]
        await asyncio.sleep(down_s)
        with server._lock:
            server.ensure_postgres_running()
        started = time.perf_counter()
        failures = 0
        while (status := await _timed(client, "/api/threads"))[0] != 200:
            failures += 1
        out["failures_after_restart"] = failures
        out["first_success_s"] = time.perf_counter() - started
        out["first_success_request_s"] = status[1]
    await app.state.runtime.close()
    return out


async def limits(settings: Settings) -> dict[str, Any]:
    pool = await open_pool(settings, max_size=2)
    accepted = 0
    edge = (time.time() // 60 + 1) * 60
    times = [edge - 1 + n / 30 for n in range(30)] + [edge + 0.5 + n / 10 for n in range(30)]
    try:
        for now in times:
            try:
                await ratelimit.hit(pool, f"bench-{edge}", "chat", 30, now=now)
                accepted += 1
            except HTTPException:
                pass
    finally:
        await pool.close()
    app = build_app(settings, ServerConfig(secret=b"bench-secret-0123456789", chat_per_minute=30))
    refused = 0
    for n in range(50):
        transport = httpx.ASGITransport(app=app, client=(f"192.0.2.{n + 1}", 40000 + n))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            response = await client.post("/api/chat", json={"message": ["not text"]})
            refused += response.status_code == 429
    await app.state.runtime.close()
    return {"edge_accepted_in_4s": accepted, "edge_sent": len(times), "clients_429_of_50": refused}


async def run(home: Path, down_s: float) -> dict[str, Any]:
    import pgserver

    pgdata = home / "pgdata"
    uri = database_uri(None, pgdata)
    server = pgserver.get_server(pgdata)
    settings = Settings(home=home, database_url=uri, collection=f"b_{uuid.uuid4().hex[:8]}")
    try:
        return {**await restart(settings, pgdata, server, down_s), **await limits(settings)}
    finally:
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=server.system_user)
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--down-s", type=float, default=5.0, help="seconds the database is down")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="bosun-bench-faults-"))
    home.chmod(0o755)  # pgserver runs PostgreSQL as its own user under root
    result = asyncio.run(run(home, args.down_s))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    rows = [
        (
            "first request while down",
            f"HTTP {result['first_down'][0]} after {result['first_down'][1]:.1f} s",
        ),
        *(
            (f"request {n + 2} while down", f"HTTP {code} after {seconds:.2f} s")
            for n, (code, seconds) in enumerate(result["later_down"])
        ),
        ("failed requests after the restart", str(result["failures_after_restart"])),
        ("first 200 after the restart", f"{result['first_success_s']:.2f} s"),
        (
            "requests through at a minute's edge (limit 30)",
            f"{result['edge_accepted_in_4s']} of {result['edge_sent']} in 4 s",
        ),
        ("429s for 50 client addresses, no keys (limit 30)", str(result["clients_429_of_50"])),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"| {'measure'.ljust(width)} | result |")
    print(f"|{'-' * (width + 2)}|--------|")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value} |")


if __name__ == "__main__":
    main()
