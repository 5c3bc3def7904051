"""The chat page in headless Chromium against `bosun serve` on the example archive.

One question is followed the way an operator would: tokens stream with pending markers, badges
replace them, a badge previews on hover and opens the original with the passage highlighted, the
original downloads byte for byte, a thumbs-up lands in Postgres, the reopened thread renders the
same HTML, a filter chip is removed. A second server delays the citations frame past 3 s and the
badges come from the final frame instead.

The screenshot in docs/web.md is taken by tests/e2e/test_web_sources.py (``BOSUN_SCREENSHOT``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import psycopg
import pytest
from playwright.sync_api import Browser, Page, expect

from agent.settings import Settings
from tests.e2e.browser import WATCH_STREAM, serve
from tests.e2e.harness import Bosun

pytestmark = pytest.mark.e2e

QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"
ERA = "What was the probable cause of the ERA25LA084 accident?"
ANSWER_S = 180_000  # ms: a turn on two shared CPU cores, first one loading models


def _page(browser: Browser, url: str, width: int = 1280, height: int = 860) -> Page:
    """The page in a fresh browser profile; its script errors fail the test at :func:`_close`."""
    context = browser.new_context(
        viewport={"width": width, "height": height}, accept_downloads=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    _ERRORS[id(page)] = errors
    page.add_init_script(WATCH_STREAM)
    page.goto(url)
    return page


_ERRORS: dict[int, list[str]] = {}


def _close(page: Page) -> None:
    errors = _ERRORS.pop(id(page), [])
    page.unroute_all(behavior="ignoreErrors")
    page.context.close()
    assert not errors, f"script errors on the page: {errors}"


def _ask(page: Page, question: str) -> Any:
    box = page.get_by_role("textbox", name="Message")
    box.fill(question)
    box.press("Enter")  # Enter sends
    answer = page.locator(".message.assistant .answer").last
    expect(answer.locator(".badge").first).to_be_visible(timeout=ANSWER_S)
    return answer


def _thread_id(page: Page) -> str:
    thread = parse_qs(urlparse(page.url).query).get("thread")
    assert thread, f"the page did not put the thread in its address: {page.url}"
    return thread[0]


def _get(page: Page, url: str) -> Any:
    response = page.request.get(url)
    assert response.ok, f"GET {url}: {response.status} {response.text()[:300]}"
    return response.json()


def test_a_question_streams_cites_opens_downloads_rates_and_reopens(
    browser: Browser, server: str, settings: Settings
) -> None:
    page = _page(browser, server)
    answer = _ask(page, QUESTION)

    # Tokens streamed before the badges (the offline answerer sends its sentences as token
    # frames back to back, so they may reach the page in one read), markers shown as pending.
    assert int(answer.get_attribute("data-tokens") or 0) >= 2
    watch = page.evaluate("window.__watch")
    assert watch["streamed"], "no streamed text was ever shown"
    assert watch["pending"] >= 1, f"no pending marker while streaming: {watch['streamed'][-1:]}"
    assert watch["badgesAt"] >= watch["lastTokenAt"]
    expect(answer).to_have_attribute("data-citations-from", "citations")
    live = answer.inner_html()  # as first rendered, before any hover or click
    final_text = answer.inner_text()
    assert "[C:" not in final_text

    thread_id = _thread_id(page)
    thread = _get(page, f"{server}/api/threads/{thread_id}")
    reply = [m for m in thread["messages"] if m["role"] == "assistant"][-1]
    citations = {c["chunk_id"]: c for c in reply["citations"]}
    badges = answer.locator(".badge")

    # Hover: title, date, sender or page, snippet.
    chunks = [badges.nth(i).get_attribute("data-chunk") or "" for i in range(badges.count())]
    assert set(chunks) == set(citations), (chunks, set(citations))
    # The first badge with a sender or page (a thread digest has neither), else the first.
    chunk = next((c for c in chunks if citations[c]["sender"] or citations[c]["page"]), chunks[0])
    badge = answer.locator(f'.badge[data-chunk="{chunk}"]').first
    cited = citations[chunk]
    badge.hover()
    preview = page.locator("#preview")
    expect(preview).to_be_visible()
    expect(preview).to_contain_text(cited["title"])
    if cited["date"]:
        expect(preview).to_contain_text(cited["date"])
    if cited["sender"] or cited["page"]:
        expect(preview).to_contain_text(cited["sender"] or f"Page {cited['page']}")
    expect(preview.locator(".preview-snippet")).to_have_text(cited["snippet"])

    # Click: the original text, the cited passage highlighted and scrolled into view.
    badge.click()
    panel = page.locator("#panel")
    expect(panel).to_be_visible()
    mark = panel.locator("mark#cited")
    expect(mark).to_be_visible()
    expect(mark).to_be_in_viewport()
    detail = _get(page, f"{server}/api/citations/{cited['chunk_id']}")
    assert " ".join(mark.inner_text().split()) == " ".join(detail["passage"].split())

    # Download: the bytes of the archived original.
    link = panel.get_by_role("link", name="Download original")
    archived = parse_qs(urlparse(link.get_attribute("href") or "").query)["path"][0]
    with page.expect_download() as download:
        link.click()
    saved = Path(download.value.path())
    assert saved.read_bytes() == (settings.archive_dir / archived).read_bytes()

    # Escape closes the panel and gives the focus back to the badge.
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert page.evaluate("document.activeElement.dataset.chunk") == cited["chunk_id"]

    # Thumbs up: a feedback row for this answer.
    message = page.locator(".message.assistant").last
    message.get_by_role("button", name="Helpful", exact=True).click()
    expect(message.locator(".feedback-status")).to_contain_text("Thanks")
    query = "SELECT thread_id, score, comment FROM bosun_feedback WHERE message_id = %s ORDER BY id"
    with psycopg.connect(str(settings.database_url)) as conn:
        assert conn.execute(query, (reply["id"],)).fetchall() == [(thread_id, 1, None)]
    comment = message.get_by_role("textbox", name="Feedback comment")
    comment.fill("Clear, and the sources check out")
    comment.press("Enter")
    expect(message.locator(".feedback-status")).to_contain_text("Comment sent")
    with psycopg.connect(str(settings.database_url)) as conn:
        rows = conn.execute(query, (reply["id"],)).fetchall()
    assert rows[-1] == (thread_id, 1, "Clear, and the sources check out")

    # Reopened (reloaded) thread: the same rendering function, the same HTML.
    page.reload()
    reopened = page.locator(".message.assistant .answer").last
    expect(reopened.locator(".badge").first).to_be_visible(timeout=30_000)
    expect(reopened).to_have_attribute("data-citations-from", "history")
    assert reopened.inner_html() == live

    # The vessel the question names is an active filter; removing its chip clears it.
    chips = page.locator("#filter-chips .chip")
    expect(chips.first).to_be_visible()
    count = chips.count()
    chip = chips.first
    name = chip.get_attribute("data-filter") or ""
    chip.get_by_role("button").click()
    expect(chips).to_have_count(count - 1)
    assert name not in (_get(page, f"{server}/api/threads/{thread_id}")["filters"] or {})
    _close(page)


def test_with_api_keys_and_late_citations_the_page_signs_in_and_falls_back(
    browser: Browser, bosun: Bosun, tmp_path: Path
) -> None:
    """A server with API keys whose citations frame comes 5 s after the text."""
    env = {"BOSUN_TEST_CITATIONS_DELAY_S": "5", "BOSUN_API_KEYS": "e2e-key-alice:alice"}
    with serve(bosun, tmp_path / "server.log", **env) as url:
        page = _page(browser, url)  # no key yet: a plain message, not a failure page
        expect(page.locator("#notice")).to_have_text(
            "Not authorised (missing or unknown API key): "
            "open the page once as /?key=<your API key>."
        )
        page.goto(f"{url}/?key=e2e-key-alice")  # kept in localStorage, dropped from the address
        assert "key=" not in page.url
        page.goto(url)
        expect(page.locator("#notice")).to_be_hidden()
        answer = _ask(page, QUESTION)
        expect(answer).to_have_attribute("data-citations-from", "final")
        watch = page.evaluate("window.__watch")
        # Badges waited 3 s after the text, then came from `final` as soon as both were there
        # (the citations frame follows `final` by 5 s).
        waited_ms = watch["badgesAt"] - watch["lastTokenAt"]
        due_ms = max(watch["lastTokenAt"] + 3000, watch["finalAt"])
        assert waited_ms >= 2900 and watch["badgesAt"] - due_ms < 1000, watch
        answer.locator(".badge").first.click()  # the key goes with the citation request too
        expect(page.locator("#panel mark#cited")).to_be_visible()
        _close(page)


def _sse(*frames: tuple[str, dict[str, Any]]) -> str:
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in frames)


def test_outages_limits_and_degraded_stages_read_as_plain_messages(
    browser: Browser, server: str
) -> None:
    page = _page(browser, server, width=375, height=740)  # phone width
    chat = "**/api/chat"

    page.route(chat, lambda route: route.abort("connectionrefused"))
    page.get_by_role("textbox", name="Message").fill("first")
    page.get_by_role("button", name="Send").click()
    error = page.locator(".message.assistant .error").last
    expect(error).to_have_text(
        "Cannot reach the Bosun server. Check that it is running, then retry."
    )
    page.unroute(chat)

    page.route(
        chat,
        lambda route: route.fulfill(
            status=429, headers={"Retry-After": "17"}, json={"detail": "rate limit exceeded"}
        ),
    )
    page.locator(".message.assistant .retry").last.click()  # Retry resends the question
    expect(page.locator(".message.assistant .error").last).to_have_text(
        "Too many requests — try again in 17 s."
    )
    page.unroute(chat)

    failed = _sse(
        ("meta", {"thread_id": None, "trace_id": "t"}),
        ("error", {"message": "the answer failed (TimeoutError); please retry", "status": 500}),
    )
    page.route(
        chat,
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=failed),
    )
    page.locator(".message.assistant .retry").last.click()
    expect(page.locator(".message.assistant .error").last).to_have_text(
        "the answer failed (TimeoutError); please retry"
    )
    page.unroute(chat)

    citation = {
        "n": 1,
        "chunk_id": "0123456789ab",
        "title": "<img src=x onerror=alert(1)>Report",
        "subject": None,
        "sender": None,
        "date": "2024-01-02",
        "page": 3,
        "snippet": "snippet",
        "source_id": "R1",
        "kind": "report",
        "download_url": "/api/files?path=x",
    }
    answer = "Done <script>window.__owned = 1</script> [C:0123456789ab]."
    body = _sse(
        ("meta", {"thread_id": None, "trace_id": "t"}),
        ("token", {"text": answer}),
        ("citations", {"answer": answer, "citations": [citation]}),
        (
            "final",
            {"message_id": "m1", "answer": answer, "citations": [citation], "filters": {}}
            | {"degraded": ["rerank"], "cutoff": False, "flagged": False, "trace_id": "t"},
        ),
    )
    page.route(
        chat,
        lambda route: route.fulfill(status=200, content_type="text/event-stream", body=body),
    )
    page.get_by_role("textbox", name="Message").fill("degraded please")
    page.get_by_role("textbox", name="Message").press("Enter")
    message = page.locator(".message.assistant").last
    expect(message.locator(".warning")).to_contain_text("degraded (rerank)")
    expect(message.locator(".badge")).to_have_text("1")
    assert message.locator(".answer script, .answer img").count() == 0  # sanitized, not run
    # The source list shows the hostile title as text.
    expect(message.locator(".source-title")).to_have_text("<img src=x onerror=alert(1)>Report")
    assert message.locator("img").count() == 0
    assert page.evaluate("window.__owned") is None
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll
    _close(page)


def test_stop_retry_keyboard_and_the_thread_list(browser: Browser, server: str) -> None:
    page = _page(browser, server)
    box = page.get_by_role("textbox", name="Message")
    box.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "send"  # tab order: box, then Send

    # Stop: the request never answers (held by the browser), Stop aborts it.
    chat = "**/api/chat"
    page.route(chat, lambda route: None)
    box.fill(ERA)
    box.press("Enter")
    page.get_by_role("button", name="Stop").click()
    message = page.locator(".message.assistant").last
    expect(message.locator(".error")).to_have_text("Stopped.")
    page.unroute_all(behavior="ignoreErrors")  # the held request was aborted by the page
    message.get_by_role("button", name="Retry").click()
    answer = page.locator(".message.assistant .answer").last
    expect(answer.locator(".badge").first).to_be_visible(timeout=ANSWER_S)
    expect(page.locator(".message.assistant")).to_have_count(1)  # the stopped one was replaced

    # A badge from the keyboard: focus previews, Enter opens the source, Escape closes it.
    badge = answer.locator(".badge").first
    badge.focus()
    expect(page.locator("#preview")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#panel mark#cited")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#panel")).to_be_hidden()

    # The thread list: rename inline (Enter saves), then delete.
    thread_id = _thread_id(page)
    item = page.locator(f'#thread-list li[data-thread="{thread_id}"]')
    expect(item).to_be_visible()
    item.locator(".thread-rename").click()
    title = page.get_by_role(
        "textbox", name="New conversation title (Enter to save, Escape to cancel)"
    )
    title.fill("ERA25LA084 fuel")
    title.press("Enter")
    expect(item.locator(".thread-title")).to_have_text("ERA25LA084 fuel")
    listed = {t["thread_id"]: t["title"] for t in _get(page, f"{server}/api/threads")}
    assert listed[thread_id] == "ERA25LA084 fuel"
    page.once("dialog", lambda dialog: dialog.accept())
    item.locator(".thread-delete").click()
    expect(item).to_have_count(0)
    assert page.request.get(f"{server}/api/threads/{thread_id}").status == 404
    expect(page.locator(".message")).to_have_count(0)  # the open thread was closed
    _close(page)
