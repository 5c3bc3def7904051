"""`bosun serve`: the web app under uvicorn."""

from __future__ import annotations

import argparse
import os

from agent.server.config import LOCAL_HOSTS, WILDCARD_BINDS, ServerConfig
from agent.settings import Settings

#: The factory uvicorn imports in each worker (settings come from the environment).
APP_FACTORY = "agent.server.serve:app_from_env"


def add_serve_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = subparsers.add_parser("serve", help="the web app: chat page and HTTP API")
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, help="worker processes")


def app_from_env():  # type: ignore[no-untyped-def]  # uvicorn's factory protocol
    from agent.server.app import build_app

    return build_app(Settings.from_env())


def run_serve(settings: Settings, args: argparse.Namespace) -> int:
    """Refuse a non-loopback interface without API keys (and every interface without a public
    host name), then serve until interrupted. A single address bound is a host clients may name."""
    import uvicorn

    ServerConfig.from_env(settings).check_bind(args.host)
    from agent.sync import scheduled

    scheduled(os.environ)  # a bad mailbox setting stops the start, not a later sync
    from agent.adapt_schedule import adapt_schedule

    adapt_schedule(os.environ)  # so does a bad adapt schedule
    os.environ.setdefault("BOSUN_HOME", str(settings.home))
    if args.host not in LOCAL_HOSTS | WILDCARD_BINDS:
        named = os.environ.get("BOSUN_PUBLIC_HOST", "")
        os.environ["BOSUN_PUBLIC_HOST"] = ",".join(h for h in (named, args.host) if h)
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="warning",
        timeout_graceful_shutdown=5,
        # A worker imports the whole `bosun` command first (the spawned child re-imports the
        # script): on a busy machine that is longer than uvicorn's 5 s, which kills and
        # restarts the worker forever.
        timeout_worker_healthcheck=60,
    )
    return 0
