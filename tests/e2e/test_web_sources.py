"""The chat page shows what `bosun ask` prints (headless Chromium against `bosun serve` on the
example archive): a numbered source list under each answer, numbered like its badges and worded
like the CLI's list, whose entries preview and open the original like the badges; the thumbs a
reader gave shown again after a reload and when the thread is reopened from the list; thread
titles cut at a word with the full first question on hover and the day of the last turn. The page
runs under its content security policy without a violation.

Set ``BOSUN_SCREENSHOT=docs/web-page.png`` to save the page with the source list and the panel
open (docs/web.md shows it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from agent.thread_registry import thread_title
from answers.citations import render_answer
from tests.e2e.harness import ROOT

pytestmark = pytest.mark.e2e

MAIL = "How was the cylinder liner crack on Nordic Star resolved?"
REPORT = "What was the probable cause of the ERA25LA084 accident?"
#: Longer than a title, with a bidi override that must reach neither the title nor the hover.
LONG = (
    "What was the probable cause of the ERA25LA084 accident, and what did the \u202epilot\u202c "
    "report about the fuel remaining in each tank before the engine lost power?"
)
ANSWER_S = 180_000  # ms: a turn on two shared CPU cores, the first one loading models

#: Installed before the page's scripts: every content security policy violation.
WATCH_POLICY = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    """The page in a fresh profile on UTC; script errors and policy violations fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda err: errors.append(str(err)))
    opened.add_init_script(WATCH_POLICY)
    opened.goto(server)
    yield opened
    violations = opened.evaluate("window.__violations")
    context.close()
    assert not errors, f"script errors on the page: {errors}"
    assert not violations, f"content security policy violations: {violations}"


def _ask(page: Page, question: str) -> Locator:
    """The new answer's message element once its badges are there."""
    before = page.locator(".message.assistant").count()
    box = page.get_by_role("textbox", name="Message")
    box.fill(question)
    box.press("Enter")
    message = page.locator(".message.assistant").nth(before)
    expect(message.locator(".answer .badge").first).to_be_visible(timeout=ANSWER_S)
    expect(message.locator(".feedback")).to_be_visible(timeout=30_000)  # the final frame is in
    return message


def _thread(page: Page, server: str) -> dict[str, Any]:
    thread_id = parse_qs(urlparse(page.url).query)["thread"][0]
    response = page.request.get(f"{server}/api/threads/{thread_id}")
    assert response.ok, response.text()
    return dict(response.json())


def _cli_lines(payloads: list[dict[str, Any]]) -> dict[int, str]:
    """The source lines `bosun ask` prints for these citations (answers.citations)."""
    cited = [{**p, "number": p["n"], "id": p["chunk_id"], "archive_path": "-"} for p in payloads]
    lines = render_answer("", cited).split("\nSources:\n", 1)[1].splitlines()
    return {int(line.split("]")[0].strip(" [")): line.strip() for line in lines[::2]}


def _check_sources(message: Locator, payloads: list[dict[str, Any]]) -> None:
    """The list under ``message``: numbered 1..N in order, one entry per badge number with the
    badge's passage, each worded as the CLI's line (title, then date, sender, section, page)."""
    entries = message.locator(".sources .source-open")
    expect(entries).to_have_count(len(payloads))
    numbers = [int(entries.nth(i).get_attribute("data-n") or 0) for i in range(entries.count())]
    assert numbers == list(range(1, len(payloads) + 1))
    badges = message.locator(".answer .badge")
    badge_of = {
        int(badges.nth(i).get_attribute("data-n") or 0): badges.nth(i).get_attribute("data-chunk")
        for i in range(badges.count())
    }
    assert sorted(badge_of) == numbers  # every badge number listed, nothing listed unbadged
    cli = _cli_lines(payloads)
    by_n = {p["n"]: p for p in payloads}
    for i, n in enumerate(numbers):
        entry = entries.nth(i)
        assert entry.get_attribute("data-chunk") == badge_of[n] == by_n[n]["chunk_id"]
        number = entry.locator(".source-n").inner_text()
        title = entry.locator(".source-title").inner_text()
        facts = entry.locator(".source-facts")
        said = facts.inner_text() if facts.count() else ""
        if by_n[n]["lineage"]:  # the CLI prints where an attachment came from in its place
            assert (number, said) == (f"[{n}]", by_n[n]["lineage"])
        else:
            assert f"{number} {title}" + (f" — {said}" if said else "") == cli[n]


def test_each_answer_lists_its_sources_and_the_thumbs_given_come_back(
    page: Page, server: str
) -> None:
    mail = _ask(page, MAIL)
    # The vessel the first question named is a filter of the thread: removed, the next question
    # on the same thread is answered from the PDF report.
    page.locator("#filter-chips .chip").first.get_by_role("button").click()
    expect(page.locator("#filter-chips .chip")).to_have_count(0)
    report = _ask(page, REPORT)
    live = [m.locator(".sources").inner_html() for m in (mail, report)]
    answers = [m for m in _thread(page, server)["messages"] if m["role"] == "assistant"]
    for message, stored in zip((mail, report), answers, strict=True):
        _check_sources(message, stored["citations"])
    # The mail answer names a sender and a date; the report answer a page of the PDF.
    mail_facts = " ".join(mail.locator(".source-facts").all_inner_texts())
    assert "@" in mail_facts and "2025-01-" in mail_facts, mail_facts
    report_facts = report.locator(".source-facts").all_inner_texts()
    assert any("p. " in f for f in report_facts), report_facts

    # An entry previews on hover and opens the original like the badge with its number.
    entry = mail.locator(".sources .source-open").first
    cited = answers[0]["citations"][0]
    entry.hover()
    preview = page.locator("#preview")
    expect(preview).to_be_visible()
    expect(preview.locator(".preview-title")).to_have_text(f"[1] {cited['title']}")
    entry.click()
    expect(page.locator("#panel-title")).to_have_text(f"[1] {cited['title']}")
    mark = page.locator("#panel mark#cited")
    expect(mark).to_be_visible()
    expect(mark).to_be_in_viewport()
    if shot := os.environ.get("BOSUN_SCREENSHOT"):
        page.mouse.move(0, 0)
        page.screenshot(path=str(ROOT / shot))
    page.keyboard.press("Escape")
    expect(page.locator("#panel")).to_be_hidden()
    assert page.evaluate("document.activeElement.className") == "source-open"

    # Thumbs down with a comment on the first answer, thumbs up on the second.
    mail.get_by_role("button", name="Not helpful", exact=True).click()
    expect(mail.locator(".feedback-status")).to_contain_text("Thanks")
    comment = mail.get_by_role("textbox", name="Feedback comment")
    comment.fill("The liner's serial number is missing")
    comment.press("Enter")
    expect(mail.locator(".feedback-status")).to_contain_text("Comment sent")
    report.get_by_role("button", name="Helpful", exact=True).click()
    expect(report.locator(".feedback-status")).to_contain_text("Thanks")

    def given(reopened: Page) -> None:
        first, second = reopened.locator(".message.assistant").all()
        for message, pressed, other in (
            (first, "Not helpful", "Helpful"),
            (second, "Helpful", "Not helpful"),
        ):
            thumb = message.get_by_role("button", name=pressed, exact=True)
            expect(thumb).to_have_attribute("aria-pressed", "true")
            expect(message.get_by_role("button", name=other, exact=True)).to_have_attribute(
                "aria-pressed", "false"
            )
        expect(first.locator(".feedback-status")).to_have_text(
            "You rated this not helpful. Your comment: “The liner's serial number is missing”"
        )
        expect(second.locator(".feedback-status")).to_have_text("You rated this helpful.")
        # The source lists come back from the stored payload, as first rendered.
        assert [m.locator(".sources").inner_html() for m in (first, second)] == live

    page.reload()
    expect(page.locator(".message.assistant .sources")).to_have_count(2, timeout=30_000)
    given(page)
    thread_id = parse_qs(urlparse(page.url).query)["thread"][0]
    page.get_by_role("button", name="New chat").click()
    expect(page.locator(".message")).to_have_count(0)
    page.locator(f'#thread-list li[data-thread="{thread_id}"] .thread-open').click()
    expect(page.locator(".message.assistant .sources")).to_have_count(2, timeout=30_000)
    given(page)


def test_a_thread_is_listed_by_a_readable_title_with_its_question_on_hover_and_its_day(
    page: Page, server: str
) -> None:
    _ask(page, LONG)
    thread_id = parse_qs(urlparse(page.url).query)["thread"][0]
    listed = {t["thread_id"]: t for t in page.request.get(f"{server}/api/threads").json()}
    question = LONG.replace("\u202e", "").replace("\u202c", "")
    item = page.locator(f'#thread-list li[data-thread="{thread_id}"]')
    title = item.locator(".thread-title")
    expect(title).to_have_text(thread_title(LONG))  # cut after a whole word, with an ellipsis
    assert title.inner_text().endswith(", and…") and len(title.inner_text()) <= 60
    # All of it shows: the title box does not clip it.
    assert title.evaluate("e => e.scrollHeight <= e.clientHeight + 1 && e.clientWidth > 100")
    opener = item.locator(".thread-open")
    expect(opener).to_have_attribute("title", question)
    day = datetime.fromisoformat(listed[thread_id]["updated_at"]).astimezone(UTC)
    date = item.locator("time.thread-date")
    expect(date).to_have_text(f"{day.day} {day:%b} {day.year}")
    expect(date).to_have_attribute("datetime", listed[thread_id]["updated_at"])

    # Renamed, it keeps the first question for the hover.
    item.locator(".thread-rename").click()
    box = page.get_by_role(
        "textbox", name="New conversation title (Enter to save, Escape to cancel)"
    )
    box.fill("ERA25LA084 fuel")
    box.press("Enter")
    expect(title).to_have_text("ERA25LA084 fuel")
    page.reload()
    expect(item.locator(".thread-title")).to_have_text("ERA25LA084 fuel")
    expect(item.locator(".thread-open")).to_have_attribute("title", question)
