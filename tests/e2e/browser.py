"""What the browser tests share: `bosun serve` on a free port, and Debian's headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e.harness import Bosun, free_port, running_server

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


@contextmanager
def serve(bosun: Bosun, log: Path, **env: str) -> Iterator[str]:
    """`bosun serve` on 127.0.0.1 (local single-user mode) with ``env`` added; yields its URL once
    ``/api/health`` answers, and stops its whole process group afterwards."""
    port = free_port()
    command = [*bosun.command, "serve", "--host", "127.0.0.1", "--port", str(port)]
    with running_server(command, {**bosun.env, **env}, port, "/api/health", log, STARTUP_S) as url:
        yield url


#: Installed before the page's scripts: records what the reader saw while the answer streamed
#: (each distinct streaming text, pending markers) and when the final frame (its thumbs) and the
#: badges first appeared.
WATCH_STREAM = """
window.__watch = {streamed: [], pending: 0, lastTokenAt: null, finalAt: null, badgesAt: null};
new MutationObserver((mutations) => {
  const w = window.__watch;
  // Pending markers exist only while streaming; one read may hold the last tokens and the final
  // payload, which replaces them before this callback runs, so the added nodes are counted too.
  for (const m of mutations) {
    for (const n of m.addedNodes) {
      if (n.nodeType !== 1) continue;
      const markers = n.matches('.marker') ? 1 : n.querySelectorAll('.marker').length;
      w.pending = Math.max(w.pending, markers);
    }
  }
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
