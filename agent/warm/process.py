"""The warm ask process of one home: ``python -m agent.warm.process ENVIRONMENT CODE``.

Started in the background by a cold `bosun ask` (:func:`start`), with that command's
environment and the stamps it computed. It claims the home's socket first (a second one exits
at once), opens the graph as `bosun ask` does, loads the models, then answers forwarded asks
one at a time with the very code path of a cold ask (:func:`agent.conversation.answer`), its
output relayed to the client. A question is refused (and the process exits) when the request's
stamps differ from its own, or the archive (an ingest, a delete) or its models (`bosun adapt`)
changed since it opened them; a client that goes away cancels its turn. It exits after
``BOSUN_SERVER_LINGER_S`` seconds without a question, on `bosun stop`, or on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent.settings import Settings
from agent.warm.address import code_stamp, environment_stamp, name_of, peer

logger = logging.getLogger(__name__)

LOG_FILE = "warm-ask.log"  # in BOSUN_HOME: the processes' own log
LOG_BYTES = 1 << 20  # a start rewrites the log once it is larger


def start(settings: Settings) -> None:
    """Start the home's warm process in the background (it exits at once if one is up)."""
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    log = settings.home / LOG_FILE
    fresh = log.exists() and log.stat().st_size > LOG_BYTES
    with log.open("wb" if fresh else "ab") as out:
        subprocess.Popen(  # noqa: S603 - this interpreter, this module
            [sys.executable, "-m", __name__, environment_stamp(os.environ), code_stamp()],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,  # outlives the command and its terminal's signals
            env=env,
        )
    logger.info("a warm process keeps the models loaded for the next asks (log: %s)", log)


class _QuestionStderr(logging.Handler):
    """Warnings raised while a question runs go to its relayed error stream, as a cold ask
    writes them to its terminal (the process's own log keeps everything)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if sys.stderr is not sys.__stderr__:
            sys.stderr.write(self.format(record) + "\n")


class WarmProcess:
    def __init__(self, settings: Settings, environment: str, code: str) -> None:
        self.settings = settings
        self.stamps = {"environment": environment, "code": code}
        self.version: dict[str, str] = {}
        self.runner: Any = None
        self.done = asyncio.Event()
        self.one_at_a_time = asyncio.Lock()
        self.last = time.monotonic()

    async def serve(self, listening: socket.socket) -> None:
        from agent.turns import open_runner
        from archive.store.embedder import read_version

        uri, collection = self.settings.database_uri(), self.settings.collection
        self.version = await read_version(uri, collection)  # before the caches fill
        async with open_runner(self.settings, warm=True) as runner:
            self.runner = runner
            server = await asyncio.start_unix_server(self.handle, sock=listening)
            async with server:
                logger.info("answering asks for %s", self.settings.home)
                while not self.done.is_set():
                    idle = time.monotonic() - self.last
                    if not self.one_at_a_time.locked() and idle >= self.settings.server_linger_s:
                        break
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.done.wait(), 1.0)
        logger.info("exiting")

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if peer(writer.get_extra_info("socket"))[1] != os.getuid():
                return
            request = json.loads(await reader.readline() or b"{}")
            if request.get("stop"):
                self.done.set()
                await _send(writer, {"stopped": True})
                return
            refusal = await self.refusal(request)
            if refusal:
                logger.info("refused a question (%s): exiting", refusal)
                self.done.set()
                await _send(writer, {"accepted": False, "reason": refusal})
                return
            await _send(writer, {"accepted": True})
            async with self.one_at_a_time:
                status = await self.answer(request["argv"], reader, writer)
                self.last = time.monotonic()
            logger.info("answered an ask (exit status %s)", status)
            if status is not None:
                await _send(writer, {"exit": status})
        except (OSError, ValueError) as err:
            logger.warning("a forwarded ask failed: %s", err)
        finally:
            writer.close()

    async def refusal(self, request: dict[str, Any]) -> str | None:
        """Why this process must not answer the request (None: it may)."""
        from archive.store.embedder import read_version

        for key, stamp in self.stamps.items():
            if request.get(key) != stamp:
                return f"another {key}"
        version = await read_version(self.settings.database_uri(), self.settings.collection)
        return "the archive or its models changed" if version != self.version else None

    async def answer(
        self, argv: Sequence[str], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> int | None:
        """Run the ask; its exit status, or None when the client went away (turn cancelled)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            turn = asyncio.ensure_future(self._ask(argv))
            gone = asyncio.ensure_future(reader.read(1))  # EOF: the client was interrupted
            await asyncio.wait({turn, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not turn.done():
                turn.cancel()
                logger.info("the client went away: its turn is cancelled")
                with contextlib.suppress(asyncio.CancelledError):
                    await turn
                return None
            gone.cancel()
            status = turn.result()
        await _send(writer, {"out": out.getvalue(), "err": err.getvalue()})
        return status

    async def _ask(self, argv: Sequence[str]) -> int:
        from agent.cli import arguments_of
        from agent.conversation import answer

        try:
            args = arguments_of(argv)
        except SystemExit as exit_:  # a usage error, already written to the stream
            return int(exit_.code or 0)
        if isinstance(args, int):
            return args
        return await answer(self.runner, self.settings, args)


async def _send(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    writer.write(json.dumps(message).encode() + b"\n")
    await writer.drain()


def main(argv: Sequence[str]) -> int:
    environment, code = argv
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger().addHandler(_QuestionStderr())
    logging.getLogger("pgserver").setLevel(logging.ERROR)  # as a cold ask does
    settings = Settings.from_env()
    listening = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listening.bind(name_of(settings.home.resolve()))
    except OSError:
        logger.info("another warm process answers for %s", settings.home)
        return 0
    listening.listen(16)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    asyncio.run(WarmProcess(settings, environment, code).serve(listening))
    return 0


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
