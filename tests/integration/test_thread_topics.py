"""Which conversations a pattern question over a mailing list reads, on real PostgreSQL: the
topic's words as a phrase first, then anywhere in the thread, then all but one of them, the
strictest way that finds enough threads, and when asked, any one of them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.threads import ANY_WORD, MOST_WORDS, PHRASE, WORDS, topic_conversations

pytestmark = pytest.mark.integration

BODIES = {
    "p1": "uhd_find_devices prints No devices found for my B210 on Ubuntu.",
    "p2": "Since the upgrade I get No devices found when the X310 boots.",
    "w1": "Two devices on the bus, and the second one was found only after a reboot.",
    "c1": "An external clock at 10 MHz helps the two radios stay aligned.",
    "c2": "The reference clock drifts when the lab gets warm.",
    "m1": "My B200mini drops samples over USB.",
    "m2": "The B200-mini gets hot in a closed case.",
    "m3": "A B200 mini on a Pi needs a powered hub.",
}


def eml(name: str, day: int, body: str) -> str:
    return (
        f"From: User {name} <{name}@example.org>\nTo: list@example.org\n"
        f"Subject: [USRP-users] Question {name}\nDate: Tue, {day} Mar 2025 10:00:00 +0000\n"
        f"Message-ID: <{name}@x>\n\n{body}\n"
    )


@pytest.fixture(scope="module")
async def services(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Services]:
    folder: Path = tmp_path_factory.mktemp("topic-mail")
    for day, (name, body) in enumerate(BODIES.items(), start=1):
        (folder / f"{name}.eml").write_text(eml(name, day, body), encoding="utf-8")
    async with open_services(settings, collection=f"{settings.collection}_topics") as svc:
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == []
        yield svc


async def test_a_topic_is_matched_as_a_phrase_when_that_finds_enough_threads(
    services: Services,
) -> None:
    found = await topic_conversations(services.store, "no devices found", least=2)
    assert (found.matched, found.how) == (2, PHRASE)  # not the thread that says both apart
    wider = await topic_conversations(services.store, "no devices found", least=3)
    assert (wider.matched, wider.how) == (3, WORDS)
    assert {p["source_id"] for ps in wider.conversations.values() for p in ps} == {
        "p1@x",
        "p2@x",
        "w1@x",
    }


async def test_a_topic_no_thread_holds_whole_is_matched_by_all_but_one_of_its_words(
    services: Services,
) -> None:
    found = await topic_conversations(services.store, "external reference clock", least=2)
    assert (found.matched, found.how) == (2, MOST_WORDS)  # "external clock", "reference clock"
    none = await topic_conversations(services.store, "octoclock", least=2)
    assert (none.matched, none.how) == (0, WORDS)


async def test_things_asked_about_together_are_matched_by_any_one_of_their_words(
    services: Services,
) -> None:
    """ "B210 and X310": no thread names both; with ``any_word`` the threads naming either
    match, and only when the stricter ways find too few."""
    strict = await topic_conversations(services.store, "B210 X310", least=2)
    assert (strict.matched, strict.how) == (0, WORDS)
    found = await topic_conversations(services.store, "B210 X310", least=2, any_word=True)
    assert (found.matched, found.how) == (2, ANY_WORD)
    assert {p["source_id"] for ps in found.conversations.values() for p in ps} == {"p1@x", "p2@x"}
    phrase = await topic_conversations(services.store, "no devices found", least=2, any_word=True)
    assert (phrase.matched, phrase.how) == (2, PHRASE)


async def test_a_model_name_with_a_word_after_its_number_is_matched_however_written(
    services: Services,
) -> None:
    """ "B200mini", "B200-mini" and "B200 mini" are one radio; text search reads the last two
    as two words, so each way of matching accepts them as a phrase too."""
    found = await topic_conversations(services.store, "B200mini", least=3)
    assert (found.matched, found.how) == (3, WORDS)
    with_word = await topic_conversations(services.store, "B200mini samples hot", least=3)
    assert (with_word.matched, with_word.how) == (2, MOST_WORDS)  # m1 and m2, not m3
