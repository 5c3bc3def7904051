"""A fix question about a mail conversation, through the real graph on real PostgreSQL: the
conversation's messages are gathered (its thread, and the same subject's fragments a list
archive split off), and the answer comes from the reply the asker confirmed, cited to it."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.wiring import Services, build_clients, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.threads import thread_messages, topic_conversations
from graph.builder import build_graph

pytestmark = pytest.mark.integration

LIST = "usrp-users@lists.example.org"
FIX = "You need to run uhd_images_downloader once so that the B210 firmware image can be loaded."


def eml(message_id: str, sender: str, day: int, body: str, *refs: str) -> str:
    headers = [
        f"From: {sender}",
        f"To: {LIST}",
        "Subject: Re: [USRP-users] B210 not found by uhd_find_devices",
        f"Date: Tue, {day} Mar 2025 10:00:00 +0000",
        f"Message-ID: <{message_id}>",
    ]
    if refs:
        headers += [f"In-Reply-To: <{refs[-1]}>", "References: " + " ".join(f"<{r}>" for r in refs)]
    return "\n".join(headers) + "\n\n" + body + "\n"


MAILS = {
    "ask": eml(
        "ask@x",
        f'"Ann Example via USRP-users" <{LIST}>',
        3,
        "My B210 is not found by uhd_find_devices although lsusb lists it as Cypress WestBridge. "
        "I am on Ubuntu 22.04 with UHD 4.6 installed from the PPA.",
        "root@x",
    ),
    "fix": eml(
        "fix@x",
        "Bob Helper <bob@example.org>",
        3,
        f"{FIX}\n\nOn Mon, 3 Mar 2025, Ann wrote:\n> My B210 is not found by uhd_find_devices.",
        "root@x",
        "ask@x",
    ),
    "thanks": eml(
        "thanks@x",
        f'"Ann Example via USRP-users" <{LIST}>',
        4,
        "Thanks Bob, that fixed it! The B210 shows up now.",
        "root@x",
        "ask@x",
        "fix@x",
    ),
    # the same conversation, filed under another missing root by the list archive
    "aside": eml(
        "aside@x",
        "Carl Other <carl@example.org>",
        5,
        "Also make sure the B210 sits on a USB 3 port and not behind a passive hub.",
        "other-root@x",
    ),
}


@pytest.fixture(scope="module")
async def services(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Services]:
    folder: Path = tmp_path_factory.mktemp("thread-mail")
    for name, text in MAILS.items():
        (folder / f"{name}.eml").write_text(text, encoding="utf-8")
    async with open_services(settings, collection=f"{settings.collection}_threads") as svc:
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == []
        yield svc


async def test_a_conversation_is_gathered_across_the_fragments_of_its_subject(
    services: Services,
) -> None:
    gathered = await thread_messages(services.store, ["root@x", "unknown@x"])
    assert list(gathered) == ["root@x"]
    members = gathered["root@x"]
    assert {m["source_id"] for m in members} == {"ask@x", "fix@x", "thanks@x", "aside@x"}
    authors = {m["source_id"]: m["author"] for m in members}
    assert authors["ask@x"] == "Ann Example" and authors["fix@x"] == "Bob Helper"
    fix = next(m for m in members if m["source_id"] == "fix@x")
    assert fix["in_reply_to"] == "ask@x" and fix["references"] == ["root@x", "ask@x"]
    assert all(m["conversation"] == "root@x" for m in members)


async def test_the_fix_is_answered_from_the_confirmed_reply_and_cited_to_it(
    services: Services,
) -> None:
    graph = build_graph(build_clients(services, offline=True), checkpointer=InMemorySaver())
    config: Any = {"configurable": {"thread_id": uuid.uuid4().hex}}
    question = "My B210 is not found by uhd_find_devices although lsusb lists it; what fixed it?"
    state = await graph.ainvoke({"messages": [HumanMessage(question)]}, config)
    answer = str(state["messages"][-1].content)
    assert "uhd_images_downloader" in answer, answer
    assert "confirmed" in answer and "Bob Helper" in answer, answer
    cited = {c["source_id"] for c in state["citations"]}
    assert "fix@x" in cited, state["citations"]
    assert all(c["kind"] != "thread_digest" for c in state["citations"])
    assert state["diagnostics"]["citation_check"]["invalid"] == 0
    assert answer.count("not found by uhd_find_devices although lsusb") <= 1


async def test_the_conversations_mentioning_a_topic_are_read_once_with_the_lists_word_stats(
    services: Services,
) -> None:
    found = await topic_conversations(services.store, "firmware images")
    assert found.matched == 1  # only the reply says "firmware image": its thread
    assert len(found.conversations) == 1
    (members,) = found.conversations.values()
    assert {m["source_id"] for m in members} >= {"ask@x", "fix@x", "thanks@x"}
    assert 0 < found.shares["firmwar"] <= 1 and found.bursts["firmwar"] >= 1
    across = await topic_conversations(services.store, "lsusb firmware")  # asker's, reply's word
    assert across.matched == 1
    nothing = await topic_conversations(services.store, "octoclock")
    assert (nothing.matched, nothing.conversations) == (0, {})
    # the list's word statistics come with no match too: what the list talks about as subjects
    assert nothing.shares == found.shares and nothing.bursts == found.bursts
