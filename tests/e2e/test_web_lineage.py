"""The chat page shows a citation's lineage: hovering a badge of an attachment's passage says
which message it came with, and the side panel offers that message's download beside the
attachment's (headless Chromium against `bosun serve` on the example archive)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.browser import WATCH_STREAM, serve
from tests.e2e.harness import Bosun

pytestmark = pytest.mark.e2e

QUESTION = "What did the jacket cooling water log record for the Nordic Star main engine?"
ANSWER_S = 180_000  # ms: a turn on two shared CPU cores, the first one loading models


def test_an_attachment_badge_names_its_message_and_the_panel_offers_both_files(
    browser: Browser, bosun: Bosun, tmp_path_factory: pytest.TempPathFactory
) -> None:
    with serve(bosun, tmp_path_factory.mktemp("serve") / "server.log") as url:
        context = browser.new_context(accept_downloads=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.add_init_script(WATCH_STREAM)
        page.goto(url)
        box = page.get_by_role("textbox", name="Message")
        box.fill(QUESTION)
        box.press("Enter")
        answer = page.locator(".message.assistant .answer").last
        expect(answer.locator(".badge").first).to_be_visible(timeout=ANSWER_S)
        badges = answer.locator(".badge")
        attached = None
        for i in range(badges.count()):
            badges.nth(i).hover()
            preview = page.locator(".preview-facts")
            if preview.count() and "attached to" in preview.first.inner_text():
                attached = badges.nth(i)
                break
        assert attached is not None, "no badge previewed an attachment's lineage"
        expect(page.locator(".preview-facts").first).to_contain_text("jacket-water-log.txt")
        attached.click()
        expect(page.locator("#panel-meta")).to_contain_text("Attached to")
        message = page.locator("#panel-download-message")
        expect(message).to_be_visible()
        with page.expect_download() as download:
            message.click()
        assert download.value.suggested_filename.endswith(".eml")
        context.close()
        assert not errors, f"script errors on the page: {errors}"
