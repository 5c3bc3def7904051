"""Ctrl-C for the CLI's commands (agent/interrupts.py), in real processes sent real SIGINTs:
the first cancels the command and the process ends once it has reported, even while a model
call is stuck in a thread; a second ends a command that does not stop; exit handlers run."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: A hang guard, not a timing assertion: without the fix these processes never end.
HANG_S = 120

PRELUDE = """
import asyncio, atexit, sys, time
from agent.interrupts import run_command
atexit.register(lambda: print("exit handlers ran", flush=True))
"""

STUCK_MODEL_CALL = """
async def ingest():
    print("ready", flush=True)
    try:
        await asyncio.to_thread(time.sleep, 3600)  # a model call that does not come back
    except asyncio.CancelledError:
        print('{"interrupted": true}', flush=True)
        return 130
    return 0
sys.exit(run_command(ingest()))
"""

TAKEN_BY_A_WORKER = """
import signal, threading
def model_call():
    print("ready", flush=True)
    time.sleep(0.5)  # until the main thread waits in the event loop's epoll_wait
    signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # the kernel's choice of thread
    time.sleep(3600)
async def ingest():
    try:
        await asyncio.to_thread(model_call)
    except asyncio.CancelledError:
        print('{"interrupted": true}', flush=True)
        return 130
    return 0
sys.exit(run_command(ingest()))
"""

STUBBORN = """
async def stubborn():
    print("ready", flush=True)
    while True:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            print("cancelled, going on", flush=True)  # a command stuck in its own clean-up
sys.exit(run_command(stubborn()))
"""


def _start(body: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(PRELUDE + body)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr
    return proc


def test_first_ctrl_c_ends_the_process_once_reported_despite_a_stuck_model_call() -> None:
    proc = _start(STUCK_MODEL_CALL)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 130, err
    assert '{"interrupted": true}' in out  # the command reported before the process ended
    assert "exit handlers ran" in out  # the embedded server's hand-over and the logs' flush
    assert "Traceback" not in err


def test_a_ctrl_c_delivered_to_a_worker_thread_still_cancels_the_command() -> None:
    proc = _start(TAKEN_BY_A_WORKER)  # it signals itself: nothing is sent from here
    out, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 130, err
    assert '{"interrupted": true}' in out


def test_a_second_ctrl_c_ends_a_command_that_does_not_stop() -> None:
    proc = _start(STUBBORN)
    assert proc.stdout is not None
    proc.send_signal(signal.SIGINT)
    assert proc.stdout.readline().strip() == "cancelled, going on"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=HANG_S)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
