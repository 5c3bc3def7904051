"""Ctrl-C for the `bosun` commands that run on an event loop.

The first SIGINT cancels the command: it stops at its next await, keeps what it committed and
reports ``interrupted`` (``bosun ingest``: every slice is its own transaction, so a rerun
continues). Once it has returned, the process ends without waiting for what no longer matters:
a model call still running in a worker thread (its vectors would be thrown away) and the
interpreter's teardown (seconds of garbage collection after a large ingest: 3.8 s measured under
load). The exit handlers still run first (log handlers flushed, the embedded server handed to
its linger process or stopped). A second SIGINT ends the process at once.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import logging
import os
import signal
import socket
import sys
from collections.abc import Coroutine
from types import FrameType
from typing import Any

logger = logging.getLogger(__name__)

#: The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def leave(code: int, *, exit_handlers: bool = True) -> None:
    """End the process now with ``code``: output flushed, the exit handlers run (unless
    ``exit_handlers`` is false: a second Ctrl-C), no waiting for other threads."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream
            stream.flush()
    if exit_handlers:
        atexit._run_exitfuncs()
    os._exit(code)


class _Watch:
    """The running command's task and how many SIGINTs arrived."""

    def __init__(self) -> None:
        self.task: asyncio.Task[Any] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.count = 0

    def on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1
        if self.count > 1:
            leave(INTERRUPTED, exit_handlers=False)
        if self.task is None or self.loop is None or self.task.done():
            raise KeyboardInterrupt  # not started yet, or already over: Python's own behaviour
        self.loop.call_soon_threadsafe(self.task.cancel)


@contextlib.contextmanager
def _woken(loop: asyncio.AbstractEventLoop) -> Any:
    """Wake ``loop`` on every signal, whichever thread the kernel delivers it to. Python runs
    signal handlers in the main thread only; a SIGINT taken by a worker thread (a model call)
    would otherwise wait until the main thread's ``epoll_wait`` returns, which, with nothing else
    scheduled, is never (what asyncio's own signal handling does with the same call)."""
    wake, woken = socket.socketpair()
    for end in (wake, woken):
        end.setblocking(False)
    previous = signal.set_wakeup_fd(wake.fileno(), warn_on_full_buffer=False)
    loop.add_reader(woken.fileno(), _drain, woken)
    try:
        yield
    finally:
        loop.remove_reader(woken.fileno())
        signal.set_wakeup_fd(previous)
        wake.close()
        woken.close()


def _drain(woken: socket.socket) -> None:
    with contextlib.suppress(BlockingIOError, InterruptedError):
        woken.recv(4096)


def run_command(command: Coroutine[Any, Any, int]) -> int:
    """Run ``command`` on a new event loop and return its exit status (see the module's
    docstring for Ctrl-C). Where SIGINT is not Python's default (ignored in a background job,
    or a handler of the caller's), the caller's choice stands and this is ``asyncio.run``."""
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return asyncio.run(command)
    watch = _Watch()

    async def watched() -> int:
        watch.task = asyncio.current_task()
        watch.loop = asyncio.get_running_loop()
        with _woken(watch.loop):
            return await command

    signal.signal(signal.SIGINT, watch.on_sigint)
    runner = asyncio.Runner()  # sees our handler, so it installs none of its own
    try:
        try:
            code = runner.run(watched())
        except asyncio.CancelledError:  # a command that does not report its own interruption
            code = INTERRUPTED
        if watch.count:
            logger.debug("interrupted: leaving without waiting for worker threads")
            leave(code)
    finally:
        if not watch.count:
            runner.close()  # what asyncio.run does: tasks, async generators, the thread pool
        signal.signal(signal.SIGINT, signal.default_int_handler)
    return code
