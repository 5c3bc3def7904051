"""Forward a `bosun ask` to its home's warm process, if one is up and matches.

Imports the standard library only. :func:`forward` returns the exit status of an answered ask,
or ``None`` when the caller must answer cold: no process, one started from another environment
or older code (it exits; a fresh one is started after the cold ask), one that went away before
it accepted the question, or one that did not take it within :data:`WAIT_S` (still loading the
models on a machine that is very busy: said so on stderr). Once accepted, the answer is the
process's: a connection lost then is an error, never a second run of the same turn.
:func:`answering` is what a command that ended asks before it starts one."""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from agent.warm.address import SUPPORTED, code_stamp, environment_stamp, home_of, name_of, peer

logger = logging.getLogger(__name__)

LOST = 1  # exit status when the warm process goes away after accepting a question
#: Longest wait of an ask for the warm process to take its question. It listens before it
#: loads, so an ask that comes right after the command that started it waits for the load (a
#: cold ask would do the same work); past this, something is wrong and the ask is answered here.
WAIT_S = 30.0
#: Longest wait of a command that ended for the warm process to say whether it is current.
CHECK_S = 5.0


def forward(argv: Sequence[str]) -> int | None:
    """Have the warm process answer ``argv`` (``ask ...``): its exit status, or None."""
    if not SUPPORTED:
        return None
    sock = _connect()
    if sock is None:
        return None
    with sock:
        request = {
            "argv": list(argv),
            "environment": environment_stamp(os.environ),
            "code": code_stamp(),
        }
        sock.settimeout(WAIT_S)
        try:
            sock.sendall(json.dumps(request).encode() + b"\n")
            stream = sock.makefile("rb")
            first = _message(stream)
        except TimeoutError:
            logger.warning(
                "bosun: the warm ask process did not take the question in %.0f s; answering "
                "here (its log: warm-ask.log in BOSUN_HOME)",
                WAIT_S,
            )
            return None
        except OSError:
            return None
        if not first or not first.get("accepted"):
            return None  # refused (stale) or gone before accepting: answer cold
        sock.settimeout(None)  # accepted: the answer takes what it takes
        return _relay(stream)


def answering(home: Path) -> bool:
    """Whether ``home``'s warm process is up for this environment and code (it then reopens
    the graph if the archive changed meanwhile), or too busy to say within :data:`CHECK_S`
    (loading: left alone). False when none is up, or the one up was stale and is exiting (its
    socket's name is free by the time it says so)."""
    if not SUPPORTED:
        return False
    sock = _connect(home)
    if sock is None:
        return False
    with sock:
        request = {
            "check": True,
            "environment": environment_stamp(os.environ),
            "code": code_stamp(),
        }
        sock.settimeout(CHECK_S)
        try:
            sock.sendall(json.dumps(request).encode() + b"\n")
            reply = _message(sock.makefile("rb"))
        except TimeoutError:
            return True
        except OSError:
            return False
    return bool(reply and reply.get("accepted"))


def stop(home: Path, wait_s: float = 15.0) -> int | None:
    """End ``home``'s warm process and wait up to ``wait_s`` for it to exit (it holds the
    embedded server until then); its process id, or None when none was up."""
    if not SUPPORTED:
        return None
    sock = _connect(home)
    if sock is None:
        return None
    with sock:
        pid, _ = peer(sock)
        sock.sendall(b'{"stop": true}\n')
        _message(sock.makefile("rb"))  # its acknowledgement, or EOF as it exits
    deadline = time.monotonic() + wait_s
    while _running(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return pid


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's (a recycled id)
        return True
    return True


def _connect(home: Path | None = None) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(name_of(home or home_of(os.environ)))
    except OSError:  # nobody listens: no warm process for this home
        sock.close()
        return None
    if peer(sock)[1] != os.getuid():  # another user's process under our name: never talk to it
        sock.close()
        return None
    return sock


def _message(stream: object) -> dict[str, object] | None:
    line = stream.readline()  # type: ignore[attr-defined]
    if not line:
        return None
    message = json.loads(line)
    return message if isinstance(message, dict) else None


def _relay(stream: object) -> int:
    """Write the answer's output as it arrives; the process's exit status."""
    try:
        while (message := _message(stream)) is not None:
            if "out" in message:
                sys.stdout.write(str(message["out"]))
                sys.stdout.flush()
            if "err" in message:
                sys.stderr.write(str(message["err"]))
                sys.stderr.flush()
            if "exit" in message:
                return int(message["exit"])  # type: ignore[call-overload]
    except (OSError, ValueError) as err:
        return _lost(f" ({err})")
    return _lost("")


def _lost(detail: str) -> int:
    """The accepted answer is lost: said so, never run a second time."""
    sys.stderr.write(f"bosun: the warm ask process went away while answering{detail}; ask again\n")
    return LOST
