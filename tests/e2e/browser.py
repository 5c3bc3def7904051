"""What the browser tests share: `bosun serve` on a free port, and Debian's headless Chromium."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.e2e.harness import ROOT, Bosun

#: Debian's `chromium` package (CI: `apt-get install -y chromium`); Playwright drives it, it never
#: downloads a browser of its own.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STARTUP_S = 180.0


def require_chromium() -> None:
    """Skip (with the reason) only when the browser itself is not installed."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is absent: install Debian's chromium (apt-get install -y chromium)"
        )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(bosun: Bosun, log: Path, **env: str) -> Iterator[str]:
    """`bosun serve` on 127.0.0.1 (local single-user mode) with ``env`` added; yields its URL once
    ``/api/health`` answers, and stops its whole process group afterwards."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*bosun.command, "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT,
            env={**bosun.env, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"bosun serve exited with {proc.returncode}:\n{tail(log)}")
            try:
                if httpx.get(f"{url}/api/health", timeout=2.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"bosun serve did not answer in {STARTUP_S:.0f} s:\n{tail(log)}")
            time.sleep(0.5)
        yield url
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the server's process group, SIGKILL if it lingers."""
    for sig, wait in ((signal.SIGTERM, 15.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def tail(log: Path, chars: int = 4000) -> str:
    return log.read_text(errors="replace")[-chars:]


#: Installed before the page's scripts: records what the reader saw while the answer streamed
#: (each distinct streaming text, pending markers) and when the final frame (its thumbs) and the
#: badges first appeared.
WATCH_STREAM = """
window.__watch = {streamed: [], pending: 0, lastTokenAt: null, finalAt: null, badgesAt: null};
new MutationObserver(() => {
  const w = window.__watch;
  const streaming = document.querySelector('.message.assistant:last-of-type .answer.streaming');
  if (streaming) {
    const text = streaming.textContent;
    if (text && text !== w.streamed[w.streamed.length - 1]) {
      w.streamed.push(text);
      w.lastTokenAt = performance.now();
    }
    w.pending = Math.max(w.pending, streaming.querySelectorAll('.marker').length);
  }
  const done = document.querySelector('.message.assistant:last-of-type .badge');
  if (done && w.badgesAt === null) w.badgesAt = performance.now();
  const final = document.querySelector('.message.assistant:last-of-type .feedback');
  if (final && w.finalAt === null) w.finalAt = performance.now();  // thumbs come with `final`
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
