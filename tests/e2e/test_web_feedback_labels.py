"""Feedback as labels from the page's real clicks, in headless Chromium against `bosun serve`:
the passages an answer showed are stored with their places; opening a badge and downloading the
original stamp the passage the reader chose; thumbs land with the answer; `bosun adapt`'s click
model reads them as a label; deleting the thread in the thread list deletes them all."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, expect
from psycopg.rows import dict_row

from adapt.feedback import read_shown, turn_labels
from agent.settings import Settings
from tests.e2e.test_web_page import _ask, _close, _get, _page, _thread_id

pytestmark = pytest.mark.e2e

QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"


def shown(settings: Settings, message_id: str) -> list[dict[str, Any]]:
    with psycopg.connect(str(settings.database_url), row_factory=dict_row) as conn:
        return conn.execute(
            "SELECT * FROM bosun_shown WHERE message_id = %s ORDER BY position", (message_id,)
        ).fetchall()


def test_the_pages_clicks_become_labels_and_go_with_the_thread(
    browser: Browser, server: str, settings: Settings
) -> None:
    page = _page(browser, server)
    answer = _ask(page, QUESTION)
    thread_id = _thread_id(page)
    reply = [m for m in _get(page, f"{server}/api/threads/{thread_id}")["messages"]][-1]
    rows = shown(settings, reply["id"])
    assert [(r["chunk_id"], r["position"]) for r in rows] == [
        (c["chunk_id"], c["n"]) for c in reply["citations"]
    ]
    assert {(r["question"], r["user_id"], r["collection"]) for r in rows} == {
        (QUESTION, "local", settings.collection)
    }
    assert not any(r["opened_at"] or r["downloaded_at"] for r in rows)

    # The reader passes over the first sources and opens the last one, then downloads it.
    last = rows[-1]
    answer.locator(f'.badge[data-chunk="{last["chunk_id"]}"]').first.click()
    panel = page.locator("#panel")
    expect(panel.locator("mark#cited")).to_be_visible()
    with page.expect_download():
        panel.get_by_role("link", name="Download original").click()
    stamped = {r["chunk_id"]: r for r in shown(settings, reply["id"])}
    assert stamped[last["chunk_id"]]["opened_at"] is not None
    assert [c for c, r in stamped.items() if r["opened_at"]] == [last["chunk_id"]]
    assert any(
        r["downloaded_at"] and r["archive_path"] == last["archive_path"] for r in stamped.values()
    )
    page.keyboard.press("Escape")

    # Skip-above: the label's positive is the opened passage, the ones shown above it negatives.
    (label,) = [
        lb
        for lb in turn_labels(read_shown(str(settings.database_url), settings.collection))
        if lb.query == rows[0]["query"]
    ]
    assert last["chunk_id"] in label.positives
    above = {r["chunk_id"] for r in rows[:-1]} - label.positives
    assert label.negatives == above

    message = page.locator(".message.assistant").last
    message.get_by_role("button", name="Helpful", exact=True).click()
    expect(message.locator(".feedback-status")).to_contain_text("Thanks")

    # Deleting the thread in the thread list deletes what it showed and the thumbs on it.
    page.on("dialog", lambda dialog: dialog.accept())
    item = page.locator(f'li.thread[data-thread="{thread_id}"]')
    item.locator(".thread-delete").click()
    expect(item).to_have_count(0)
    assert shown(settings, reply["id"]) == []
    with psycopg.connect(str(settings.database_url)) as conn:
        left = conn.execute(
            "SELECT count(*) FROM bosun_feedback WHERE thread_id = %s", (thread_id,)
        )
        assert left.fetchone() == (0,)
    _close(page)
