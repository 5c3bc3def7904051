"""Keep the embedded PostgreSQL server up for a while after the last command that used it.

pgserver stops the server when the last process holding it exits, so every `bosun ask` started
the server (~0.4 s on 2 cores) and stopped it again at exit (a shutdown checkpoint). Instead the
exiting process hands its hold over to one small background process (``python -m
archive.store.linger PGDATA``) that holds the server for ``linger_s`` more seconds and exits,
stopping it as the last holder. A later command inside that window extends it, so one linger
process serves a session of commands; ``BOSUN_SERVER_LINGER_S=0`` stops the server at exit as
before. The hand-over is recorded in ``PGDATA/bosun-linger.json`` (``pid``, ``until``).

:func:`stop` (`bosun stop`) ends the linger process now and stops the server once no other
process holds it. A linger process that is sent SIGTERM or SIGINT exits as if its time were up,
stopping the server; one killed with SIGKILL cannot, and :func:`stop` (or the next command,
which forgets dead holders) takes over.
"""

from __future__ import annotations

import json
import logging
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

logger = logging.getLogger(__name__)

STATE_FILE = "bosun-linger.json"
_POLL_S = 1.0  # how often the linger process rereads its deadline
READY_S = 20.0  # longest wait of a handing-over command for the linger process to hold the server
HOLDERS_FILE = ".handle_pids.json"  # pgserver's list of the processes holding the server


def _read(pgdata: Path) -> dict[str, float]:
    try:
        state = json.loads((pgdata / STATE_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def deadline(pgdata: Path) -> float:
    """When the linger process of ``pgdata`` lets the server go (a time.time() value; 0.0 when
    none holds it): a process that stays up beside the server (the warm ask process) stays
    as long."""
    return float(_read(pgdata).get("until", 0.0))


def _write(pgdata: Path, pid: int, until: float) -> None:
    partial = pgdata / f"{STATE_FILE}.{os.getpid()}"
    partial.write_text(json.dumps({"pid": pid, "until": until}))
    partial.replace(pgdata / STATE_FILE)  # atomic: the linger never reads half a file


def hand_over(pgdata: Path, linger_s: float) -> None:
    """Called at exit by a process holding the server: the linger process holds it from now on
    for ``linger_s`` seconds (a running one is given the later deadline)."""
    from pgserver.postgres_server import PostgresServer
    from pgserver.utils import DiskList, process_is_running

    until = time.time() + linger_s
    ready, told = os.pipe()  # the child writes a byte once it holds the server
    try:
        with PostgresServer._lock:  # pgserver's own lock over its holder list
            state = _read(pgdata)
            pid = int(state.get("pid", 0))
            if pid and process_is_running(pid):
                _write(pgdata, pid, max(until, float(state.get("until", 0.0))))
                return
            child = subprocess.Popen(  # noqa: S603 - this interpreter, this module, our own folder
                [sys.executable, "-m", "archive.store.linger", str(pgdata), str(told)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,  # outlives this process and its terminal's signals
                env={**os.environ, "PYTHONPATH": os.pathsep.join(_pythonpath())},
                pass_fds=(told,),
            )
            _write(pgdata, child.pid, until)
            # Held from now: this process's own exit must not stop the server.
            DiskList(pgdata / ".handle_pids.json").get_and_add(child.pid)
        os.close(told)
        told = -1
        _wait_ready(ready, child.pid)
    finally:
        for fd in (ready, told):
            if fd >= 0:
                os.close(fd)
    logger.info("the embedded server stays up %.0f s (held by process %d)", linger_s, child.pid)


def _wait_ready(ready: int, pid: int) -> None:
    """Until the linger process ``pid`` holds the server and stops it on SIGTERM (a byte on
    ``ready``), or died (end of file), or :data:`READY_S` passed (both logged). Until then a
    SIGTERM would end it before it could stop the server: the command that handed over waits,
    once per linger process, so no one can stop the linger process too early."""
    readable, _, _ = select.select([ready], [], [], READY_S)
    if not readable:
        logger.warning("the linger process %d did not take the server over in %.0f s", pid, READY_S)
    elif not os.read(ready, 1):
        logger.warning("the linger process %d exited before it took the server over", pid)


def release(pgdata: Path) -> int | None:
    """End the hold now (the linger process exits within a second, stopping the server if no
    one else holds it); the linger process's id, or ``None`` when there was none."""
    from pgserver.postgres_server import PostgresServer

    with PostgresServer._lock:
        pid = int(_read(pgdata).get("pid", 0))
        if not pid:
            return None
        _write(pgdata, pid, 0.0)
    return pid


def _pythonpath() -> list[str]:
    """This package's root first, so the child runs this very code."""
    root = str(Path(__file__).resolve().parents[2])
    return [root, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]


def linger(pgdata: Path, ready: int | None = None) -> None:
    """The linger process: hold the server until the recorded deadline passes (or another
    linger process takes over), then exit; pgserver stops the server if no one else holds it.
    Once it holds the server and handles SIGTERM, it writes a byte to the pipe ``ready`` (the
    command that handed over waits for it)."""
    import pgserver
    from pgserver.postgres_server import PostgresServer

    # SIGTERM (kill, a service manager) ends the hold like a deadline: SystemExit unwinds and
    # pgserver's exit handler stops the server if this was its last holder. Without it the
    # process died at once and left PostgreSQL running with no one to stop it.
    signal.signal(signal.SIGTERM, _exit_on_signal)
    pgserver.get_server(pgdata, cleanup_mode="stop")
    if ready is not None:
        os.write(ready, b"1")
        os.close(ready)
    while True:
        time.sleep(max(0.0, min(_left(pgdata), _POLL_S)))
        if _left(pgdata) > 0:
            continue
        with PostgresServer._lock:  # decided under the lock hand_over takes
            if _left(pgdata) <= 0:
                if int(_read(pgdata).get("pid", 0)) == os.getpid():
                    (pgdata / STATE_FILE).unlink(missing_ok=True)
                return


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


@dataclass(frozen=True)
class Stopped:
    """What :func:`stop` did."""

    helper: int | None  # the linger process it ended (None: none was running)
    server: bool  # the embedded server was running and is stopped now
    holders: tuple[int, ...]  # other live processes holding the server (then left running)


def running_postmaster(pgdata: Path) -> int | None:
    """The process id of the PostgreSQL server running on ``pgdata``, or None."""
    from pgserver.utils import PostmasterInfo, process_is_running

    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
    except (OSError, ValueError, AssertionError):  # half-written while it starts or stops
        return None
    if info is None or not process_is_running(info.pid):
        return None
    return info.pid


def stop(pgdata: Path, *, wait_s: float = 15.0) -> Stopped:
    """Stop the embedded server of ``pgdata`` and its linger process (`bosun stop`).

    The linger process is released and given ``wait_s`` to exit (then sent SIGTERM, which it
    handles the same way). The server is then stopped unless another live process (a `bosun
    chat`, `bosun serve`) still holds it: those are returned and the server is left to them.
    A server nobody holds any more (its linger process was killed with SIGKILL) is stopped."""
    from pgserver._commands import pg_ctl  # type: ignore[attr-defined]  # made at import
    from pgserver.postgres_server import PostgresServer
    from pgserver.utils import DiskList, process_is_running

    if not pgdata.is_dir():
        return Stopped(None, False, ())
    running = running_postmaster(pgdata)
    helper = release(pgdata)
    if helper is not None and not _is_linger(helper):
        helper = None  # the recorded process is gone (its id may belong to another by now)
    if helper is not None and not _exited(helper, wait_s):
        logger.warning("linger process %d did not exit; sending SIGTERM", helper)
        os.kill(helper, signal.SIGTERM)
        _exited(helper, wait_s)
    with PostgresServer._lock:
        holders = DiskList(pgdata / HOLDERS_FILE)
        alive = tuple(pid for pid in holders.get() if process_is_running(pid))
        holders.put(list(alive))  # forget the dead, as every command does
        pid = running_postmaster(pgdata)
        if pid is not None and not alive:  # nobody holds it: not even its linger process
            # As pgserver runs it: as its own system user when this process is root.
            user = "pgserver" if hasattr(os, "geteuid") and os.geteuid() == 0 else None
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
            logger.info("stopped the embedded server (process %d)", pid)
    stopped = running is not None and running_postmaster(pgdata) is None
    return Stopped(helper, stopped, alive)


def _is_linger(pid: int) -> bool:
    """Whether ``pid`` is a running linger process (not another that reused its id)."""
    import psutil

    try:
        return "archive.store.linger" in psutil.Process(pid).cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False


def _exited(pid: int, wait_s: float) -> bool:
    """Whether process ``pid`` is gone within ``wait_s`` seconds."""
    from pgserver.utils import process_is_running

    deadline = time.monotonic() + wait_s
    while process_is_running(pid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def _left(pgdata: Path) -> float:
    """Seconds this process still holds the server (0 when another linger took over)."""
    state = _read(pgdata)
    if int(state.get("pid", 0)) != os.getpid():
        return 0.0
    return float(state.get("until", 0.0)) - time.time()


if __name__ == "__main__":
    linger(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else None)
