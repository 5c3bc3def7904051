"""What a reopened thread brings back on real PostgreSQL: the feedback its reader gave (the latest
thumbs and the latest comment, nobody else's), and the thread list's readable title beside the
first question in full and the thread's dates; the page is served under a content security
policy that runs only its own scripts."""

from __future__ import annotations

from datetime import datetime

import httpx
import pytest

from agent.settings import Settings
from agent.thread_registry import thread_title
from agent.wiring import Services
from tests.integration.server_harness import ask, serve

pytestmark = pytest.mark.integration

#: Over the title's 60 characters, with a bidi override that must not reach the reader.
QUESTION = (
    "Why did the purifier on Kestrel Dawn overheat during the \u202eApril\u202c voyage, and "
    "what did the chief engineer do about it afterwards?"
)
KEYS = {"key-a": "alice", "key-b": "bob"}


async def test_a_reopened_thread_returns_the_feedback_given_on_each_answer(
    ingested: Services, settings: Settings
) -> None:
    alice, bob = {"X-API-Key": "key-a"}, {"X-API-Key": "key-b"}
    async with serve(settings, api_keys=KEYS) as client:
        first = await ask(client, "Why did the purifier on Kestrel Dawn overheat?", key="key-a")
        thread_id = first[0][1]["thread_id"]
        second = await ask(client, "How was it repaired?", key="key-a", thread_id=thread_id)
        rated, unrated = first[-1][1]["message_id"], second[-1][1]["message_id"]

        async def rate(body: dict[str, object], headers: dict[str, str]) -> httpx.Response:
            return await client.post(
                "/api/feedback",
                json={"thread_id": thread_id, "message_id": rated, **body},
                headers=headers,
            )

        assert (await rate({"score": 1}, alice)).status_code == 201
        assert (await rate({"score": 1, "comment": "Clear \u202eanswer"}, alice)).status_code == 201
        assert (await rate({"score": -1}, alice)).status_code == 201  # changed their mind
        assert (await rate({"score": 1}, bob)).status_code == 404  # not bob's thread

        thread = (await client.get(f"/api/threads/{thread_id}", headers=alice)).json()
        answers = {m["id"]: m for m in thread["messages"] if m["role"] == "assistant"}
        assert answers[rated]["feedback"] == {"score": -1, "comment": "Clear answer"}
        assert answers[unrated]["feedback"] is None
        assert all(m["feedback"] is None for m in thread["messages"] if m["role"] == "user")


async def test_the_thread_list_gives_a_readable_title_the_full_question_and_dates(
    ingested: Services, settings: Settings
) -> None:
    async with serve(settings) as client:
        thread_id = (await ask(client, QUESTION))[0][1]["thread_id"]
        listed = {t["thread_id"]: t for t in (await client.get("/api/threads")).json()}
        thread = listed[thread_id]
        shown = QUESTION.replace("\u202e", "").replace("\u202c", "")
        assert thread["question"] == shown
        assert thread["title"] == thread_title(QUESTION)
        assert thread["title"] == "Why did the purifier on Kestrel Dawn overheat during the…"
        created = datetime.fromisoformat(thread["created_at"])
        assert created <= datetime.fromisoformat(thread["updated_at"])

        # A renamed thread keeps its first question for the hover.
        await client.patch(f"/api/threads/{thread_id}", json={"title": "Purifier"})
        listed = {t["thread_id"]: t for t in (await client.get("/api/threads")).json()}
        assert (listed[thread_id]["title"], listed[thread_id]["question"]) == ("Purifier", shown)


async def test_the_page_runs_under_a_policy_that_allows_only_its_own_scripts(
    ingested: Services, settings: Settings
) -> None:
    async with serve(settings) as client:
        policy = (await client.get("/")).headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["connect-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["default-src"] == "'self'"
