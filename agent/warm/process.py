"""The warm ask process of one home: ``python -m agent.warm.process ENVIRONMENT CODE``.

Started in the background (:func:`start`) beside the embedded server, when a command leaves it
up (:mod:`agent.warm.keep`), with that command's environment and the stamps it computed. It
claims the home's socket and listens before it loads anything (a second one exits at once), so
an ask that arrives meanwhile waits for it (:data:`agent.warm.client.WAIT_S` at most). It then
opens the graph as `bosun ask` does, loads the models, and answers forwarded asks one at a time
with the very code path of a cold ask (:func:`agent.conversation.answer`), its output relayed to
the client. A question whose stamps differ from its own is refused (and the process exits); when
the archive (an ingest, a delete) or its models (`bosun adapt`) changed since it opened them, it
reopens the graph first (the models stay loaded). A client that goes away cancels its turn. It
stays as long as the embedded server does: until ``BOSUN_SERVER_LINGER_S`` after the last
question or the linger process's deadline (:func:`archive.store.linger.deadline`), whichever is
later, and never hands the server over itself; `bosun stop` or SIGTERM end it at once."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
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
    settings.home.mkdir(parents=True, exist_ok=True)  # a first command in a new home
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
        self.linger_s = settings.server_linger_s
        # It never hands the server over at exit: it stays while the linger process does.
        self.settings = dataclasses.replace(settings, server_linger_s=0.0)
        self.stamps = {"environment": environment, "code": code}
        self.version: dict[str, str] = {}
        self.runner: Any = None
        self.ready = asyncio.Event()  # loaded (or failed to: then runner stays None)
        self.done = asyncio.Event()
        self.one_at_a_time = asyncio.Lock()
        self.last = time.time()
        self.waited = 0  # questions that arrived while the models loaded
        self.server: asyncio.Server | None = None
        self.runner_stack = contextlib.AsyncExitStack()
        self.tasks: set[asyncio.Task[None]] = set()

    async def serve(self, listening: socket.socket) -> None:
        self.server = await asyncio.start_unix_server(self.handle, sock=listening)
        async with self.server:
            try:
                if not await self.opened():
                    return  # stopped while it loaded
                logger.info("answering asks for %s", self.settings.home)
                while not self.done.is_set() and not self.over():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.done.wait(), 1.0)
            except Exception as err:  # logged; waiting clients are refused and answer cold
                logger.warning("the warm process failed: %s", err)
                raise
            finally:
                self.done.set()
                self.ready.set()  # questions still waiting are refused
                await self.runner_stack.aclose()
        logger.info("exiting")

    async def opened(self) -> bool:
        """:meth:`open`, unless it is stopped (`bosun stop`, a stale stamp) first: then the
        loading is cancelled at its next wait, not finished for nothing. Whether it opened."""
        opening = asyncio.ensure_future(self.open())
        stopped = asyncio.ensure_future(self.done.wait())
        await asyncio.wait({opening, stopped}, return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if opening.done():
            opening.result()  # a failed load raises here
            return True
        opening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await opening
        logger.info("stopped while loading")
        return False

    async def open(self) -> None:
        """Load the graph and the models; questions that arrive meanwhile wait. The graph's
        modules import on a thread, so the loop still answers a command's check meanwhile."""
        await asyncio.to_thread(importlib.import_module, "agent.conversation")
        self.version = await self.read_version()  # before the caches fill
        self.runner = await self.runner_stack.enter_async_context(self.opening())
        self.ready.set()

    def opening(self) -> contextlib.AbstractAsyncContextManager[Any]:
        from agent.turns import open_runner

        return open_runner(self.settings, warm=True)

    async def read_version(self) -> dict[str, str]:
        from archive.store.embedder import read_version

        return await read_version(self.settings.database_uri(), self.settings.collection)

    def deadline(self) -> float:
        """When it exits without a question: as late as the embedded server's linger process,
        and at least ``linger_s`` after the last question."""
        own = self.last + self.linger_s
        if self.settings.database_url:
            return own
        from archive.store.linger import deadline

        return max(own, deadline(self.settings.pgdata_dir))

    def over(self) -> bool:
        return not self.one_at_a_time.locked() and time.time() >= self.deadline()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if peer(writer.get_extra_info("socket"))[1] != os.getuid():
                return
            line = await reader.readline()
            if not line:  # connected and left without a word (a probe): nothing to do
                return
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("a request is one JSON object")
            if request.get("stop"):
                self._leave()
                await _send(writer, {"stopped": True})
                return
            refusal = self.refusal(request)
            if refusal:
                logger.info("refused a question (%s): exiting", refusal)
                self._leave()
                await _send(writer, {"accepted": False, "reason": refusal})
                return
            if request.get("check"):  # a command that ended: is the home's answerer current?
                await _send(writer, {"accepted": True})
                self._later(self.refresh_when_ready())
                return
            if not await self.loaded():
                await _send(writer, {"accepted": False, "reason": "not loaded"})
                return
            await _send(writer, {"accepted": True})
            async with self.one_at_a_time:
                status = await self.answer(request["argv"], reader, writer)
                self.last = time.time()
            logger.info("answered an ask (exit status %s)", status)
            if status is not None:
                await _send(writer, {"exit": status})
        except (OSError, ValueError) as err:
            logger.warning("a forwarded ask failed: %s", err)
        finally:
            writer.close()

    async def loaded(self) -> bool:
        """Wait until the graph and models are loaded; whether this process may answer."""
        if not self.ready.is_set():
            self.waited += 1
            logger.info("a question waits while the graph and models load")
            await self.ready.wait()
        return self.runner is not None and not self.done.is_set()

    def refusal(self, request: dict[str, Any]) -> str | None:
        """Why this process must not answer the request (None: it may)."""
        for key, stamp in self.stamps.items():
            if request.get(key) != stamp:
                return f"another {key}"
        return None

    def _leave(self) -> None:
        """Exit: the socket's name is free at once (a fresh process may claim it)."""
        if self.server is not None:
            self.server.close()
        self.done.set()

    def _later(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def refresh_when_ready(self) -> None:
        """Reopen ahead of the next question when a command changed the archive."""
        await self.ready.wait()
        if self.runner is None or self.done.is_set():
            return
        async with self.one_at_a_time:
            try:
                await self.refresh()
            except Exception as err:  # logged; the next ask answers cold and starts another
                logger.warning("cannot reopen the graph: %s; exiting", err)
                self._leave()

    async def refresh(self) -> None:
        """Reopen the graph when the archive or its models changed since it was opened (an
        ingest, a delete, `bosun adapt`): no cache of it is older than the archive. The
        models stay loaded; only the services, pools and graph are opened again."""
        version = await self.read_version()
        if version == self.version:
            return
        await self.runner_stack.aclose()
        self.runner = None
        self.runner_stack = contextlib.AsyncExitStack()
        self.version = version
        self.runner = await self.runner_stack.enter_async_context(self.opening())
        logger.info("reopened: the archive or its models changed")

    async def answer(
        self, argv: Sequence[str], reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> int | None:
        """Run the ask; its exit status, or None when the client went away (turn cancelled)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            turn = asyncio.ensure_future(self._refreshed_ask(argv))
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

    async def _refreshed_ask(self, argv: Sequence[str]) -> int:
        """The ask on a graph no older than the archive; a failed reopen is the ask's error
        (one line, as a cold ask reports it) and ends this process."""
        from agent.errors import exit_code, one_line

        try:
            await self.refresh()
        except Exception as err:  # the user-facing boundary: one scrubbed line, then exit
            logger.warning("cannot reopen the graph: %s", err)
            self._leave()
            sys.stderr.write(one_line(err) + "\n")
            return exit_code(err)
        return await self._ask(argv)

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
