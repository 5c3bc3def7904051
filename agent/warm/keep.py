"""When the home's warm ask process is started: beside the embedded server.

A `bosun` command that leaves this home's embedded server up behind it (it hands the server to
its linger process at exit: :func:`archive.store.server.lingers_after_exit`) leaves the warm
process beside it, so the next `bosun ask` is answered warm whichever command came before it
(ingest, status, chat, serve, search, a cold ask). `bosun ingest` starts it as it begins, so
the models load while the documents are embedded and the ask that follows finds them loaded
(the warm process reopens the graph on the new archive when the ingest ends). With
``DATABASE_URL`` there is no embedded server to stay up beside: only a cold `bosun ask` starts
one, for the asks after it. Nothing is started with ``BOSUN_WARM_ASK=off``, with
``BOSUN_SERVER_LINGER_S=0``, after a command that failed, or by a caller of
``agent.cli.main(argv)`` (only the `bosun` command itself: tests and library callers keep no
background process)."""

from __future__ import annotations

import argparse
import logging

from agent.errors import SettingsError
from agent.settings import Settings

logger = logging.getLogger(__name__)

#: Commands that start the warm process as they begin (long ones: it loads meanwhile).
EARLY = frozenset({"ingest"})


def wanted(settings: Settings, command: str, *, lingers: bool) -> bool:
    """Whether ``command`` (that succeeded) leaves a warm process: it left the embedded server
    up behind it (``lingers``), or it is an ask (any database); never with the opt-out."""
    if not settings.warm_ask or settings.server_linger_s <= 0 or command == "stop":
        return False
    return lingers or command == "ask"


def before(args: argparse.Namespace) -> None:
    """As a command of :data:`EARLY` begins on the embedded server: start the warm process
    unless one is up (it loads while the command runs)."""
    if args.command not in EARLY or any(not path.exists() for path in args.paths):
        return  # a missing path: the command fails at once
    settings = _settings()
    if settings is None or settings.database_url or not wanted(settings, "", lingers=True):
        return
    _ensure(settings)


def after(command: str, code: int) -> None:
    """As a command ends with ``code``: start the warm process if it is wanted
    (:func:`wanted`) and none is up for this environment and code (a stale one exits)."""
    if code != 0:
        return
    settings = _settings()
    if settings is None:
        return
    from archive.store.server import lingers_after_exit

    if wanted(settings, command, lingers=lingers_after_exit(settings.pgdata_dir)):
        _ensure(settings)


def _settings() -> Settings | None:
    try:
        return Settings.from_env()
    except SettingsError as err:  # the command reported it already
        logger.debug("no warm process: %s", err)
        return None


def _ensure(settings: Settings) -> None:
    from agent.warm.client import answering
    from agent.warm.process import start

    if not answering(settings.home.resolve()):
        start(settings)
