"""The chat page's server against a hostile page, in headless Chromium (the page suite's browser).

A page served from another origin (another local port) makes the browser send what it may send
without asking — ``no-cors`` fetches with a ``text/plain`` or untyped body, a ``text/plain`` form
posted into a frame, a JSON fetch that needs a preflight — and reads what it can; a page on a
rebinding name (``rebound.test`` resolved to 127.0.0.1 by Chromium's host rules) reads the
server as its own origin. Nothing runs, nothing is written, nothing is read; the Bosun page's own
requests still work.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from playwright.sync_api import Browser, Response, sync_playwright

from agent.settings import Settings
from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, require_chromium

pytestmark = pytest.mark.e2e

MARK = "sent-by-evil-example"
EVIL_PAGE = """<!doctype html><html><body>
<form id="form" method="POST" action="{bosun}/api/feedback" enctype="text/plain" target="sink">
  <input name='{{"thread_id": "{thread}", "message_id": "{message}", "score": -1, "x": "'
         value='"}}'>
</form>
<iframe name="sink"></iframe>
<script>
const BOSUN = "{bosun}";
const RATING = {rating};
async function attack() {{
  const out = {{}};
  const chat = JSON.stringify({{message: "Why did the purifier overheat? {mark}"}});
  try {{
    await fetch(BOSUN + "/api/chat", {{method: "POST", mode: "no-cors",
      headers: {{"Content-Type": "text/plain"}}, body: chat}});
    out.plain = "sent";
  }} catch (e) {{ out.plain = "error"; }}
  try {{
    await fetch(BOSUN + "/api/feedback", {{method: "POST", mode: "no-cors",
      body: new Blob([JSON.stringify(RATING)])}});
    out.untyped = "sent";
  }} catch (e) {{ out.untyped = "error"; }}
  try {{
    const r = await fetch(BOSUN + "/api/chat", {{method: "POST",
      headers: {{"Content-Type": "application/json"}}, body: chat}});
    out.json = r.status;
  }} catch (e) {{ out.json = "blocked"; }}
  try {{
    const r = await fetch(BOSUN + "/api/threads");
    out.read = await r.text();
  }} catch (e) {{ out.read = "blocked"; }}
  return out;
}}
</script></body></html>"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require_chromium()
    with sync_playwright() as playwright:
        args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP rebound.test 127.0.0.1"]
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        yield launched
        launched.close()


def evil_site(html: str) -> tuple[ThreadingHTTPServer, str]:
    """``html`` served at ``/`` from another local port (another origin)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def _feedback_rows(settings: Settings, message_id: str) -> int:
    with psycopg.connect(str(settings.database_url)) as conn:
        row = conn.execute(
            "SELECT count(*) FROM bosun_feedback WHERE message_id = %s", (message_id,)
        ).fetchone()
    return int(row[0]) if row else 0


def test_a_page_on_another_origin_is_refused_and_the_bosun_page_still_works(
    browser: Browser, server: str, settings: Settings
) -> None:
    context = browser.new_context()
    page = context.new_page()
    # A thread with an answer to rate, made by a plain client (no Origin).
    turn = page.request.post(f"{server}/api/chat", data={"message": "What is on Kestrel Dawn?"})
    assert turn.ok, turn.text()
    final = json.loads(turn.text().split("event: final")[1].split("data:", 1)[1].split("\n")[0])
    thread = json.loads(turn.text().split("data:", 1)[1].split("\n")[0])["thread_id"]
    rating = {"thread_id": thread, "message_id": final["message_id"], "score": -1}
    before = page.request.get(f"{server}/api/threads").json()

    html = EVIL_PAGE.format(
        bosun=server,
        thread=thread,
        message=final["message_id"],
        rating=json.dumps(rating),
        mark=MARK,
    )
    httpd, evil = evil_site(html)
    seen: list[tuple[str, str, int]] = []

    def record(response: Response) -> None:
        if response.url.startswith(server):
            seen.append((response.request.method, urlsplit(response.url).path, response.status))

    page.on("response", record)
    try:
        page.goto(evil)
        out = page.evaluate("attack()")
        with page.expect_response(lambda r: r.url.startswith(f"{server}/api/feedback")):
            page.evaluate("document.getElementById('form').submit()")
        page.wait_for_timeout(500)
    finally:
        httpd.shutdown()
        httpd.server_close()

    assert out["json"] == "blocked" and out["read"] == "blocked", out  # CORS: never allowed
    posts = [(m, p, s) for m, p, s in seen if m == "POST"]
    assert {p for _, p, _ in posts} == {"/api/chat", "/api/feedback"}, seen
    assert all(s in (403, 415) for _, _, s in posts), seen
    after = page.request.get(f"{server}/api/threads").json()
    assert after == before and MARK not in json.dumps(after)
    assert _feedback_rows(settings, final["message_id"]) == 0

    # DNS rebinding: the attacker's name now resolves to this machine.
    port = urlsplit(server).port
    rebound = page.goto(f"http://rebound.test:{port}/api/threads")
    assert rebound is not None and rebound.status == 400
    assert thread not in page.content()

    # The Bosun page itself: its own fetches carry its origin and pass.
    page.goto(f"{server}/?thread={thread}")
    renamed = page.evaluate(
        """async (thread) => {
             const r = await fetch(`/api/threads/${thread}`, {method: "PATCH",
               headers: {"Content-Type": "application/json"},
               body: JSON.stringify({title: "Renamed by the page"})});
             return [r.status, await r.json()];
           }""",
        thread,
    )
    assert renamed[0] == 200 and renamed[1]["title"] == "Renamed by the page", renamed
    rated = page.evaluate(
        """async (rating) => (await fetch("/api/feedback", {method: "POST",
             headers: {"Content-Type": "application/json"},
             body: JSON.stringify(rating)})).status""",
        rating,
    )
    assert rated == 201 and _feedback_rows(settings, final["message_id"]) == 1
    context.close()
