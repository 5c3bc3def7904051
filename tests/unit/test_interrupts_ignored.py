"""The Ctrl-C tests hold when pytest itself starts with SIGINT ignored, as a shell's ``cmd &``
starts it: ``tests/conftest.py`` gives SIGINT its default back before any test signals a child."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

IGNORING = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "os.execv(sys.executable, [sys.executable, '-m', 'pytest', *sys.argv[1:]])"
)


def test_the_interrupt_tests_pass_under_a_pytest_started_with_sigint_ignored() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            IGNORING,
            "-q",
            "-p",
            "no:cacheprovider",
            "-x",
            "tests/unit/test_interrupts.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
