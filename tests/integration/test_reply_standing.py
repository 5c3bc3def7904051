"""How often an author answers others on the list, read from the archive itself on real
PostgreSQL: an author who answered two threads opened by others stands above one who answered
one, one who only asked has no standing, and a gathered conversation's messages carry it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.store.threads import standings, thread_messages

pytestmark = pytest.mark.integration

LIST = "usrp-users@lists.example.org"


def eml(message_id: str, sender: str, subject: str, day: int, body: str, *refs: str) -> str:
    headers = [
        f"From: {sender}",
        f"To: {LIST}",
        f"Subject: {subject}",
        f"Date: Tue, {day} Mar 2025 10:00:00 +0000",
        f"Message-ID: <{message_id}>",
    ]
    if refs:
        headers += [f"In-Reply-To: <{refs[-1]}>", "References: " + " ".join(f"<{r}>" for r in refs)]
    return "\n".join(headers) + "\n\n" + body + "\n"


ANN = f'"Ann Asker via USRP-users" <{LIST}>'
ZOE = "Zoe Asker <zoe@example.org>"
MARTIN = "Martin Helper <martin@example.org>"
BOB = "Bob Newcomer <bob@example.org>"
MAILS = {
    "a1": eml("a1@x", ANN, "B210 not found", 3, "My B210 is not found by uhd_find_devices."),
    "a2": eml("a2@x", MARTIN, "Re: B210 not found", 3, "Run uhd_images_downloader once.", "a1@x"),
    "a3": eml("a3@x", BOB, "Re: B210 not found", 4, "Try another USB 3 cable please.", "a1@x"),
    "a4": eml("a4@x", ANN, "Re: B210 not found", 5, "Thanks, that fixed it!", "a1@x", "a2@x"),
    "z1": eml("z1@x", ZOE, "X310 underflows", 6, "My X310 underflows at 200 Msps on 10 GbE."),
    "z2": eml("z2@x", MARTIN, "Re: X310 underflows", 6, "Use DPDK and isolate the cores.", "z1@x"),
}


@pytest.fixture(scope="module")
async def services(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Services]:
    folder: Path = tmp_path_factory.mktemp("standing-mail")
    for name, text in MAILS.items():
        (folder / f"{name}.eml").write_text(text, encoding="utf-8")
    async with open_services(settings, collection=f"{settings.collection}_standing") as svc:
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == []
        yield svc


async def test_an_author_who_answers_more_threads_of_others_stands_higher(
    services: Services,
) -> None:
    ranks = await standings(services.store)
    assert ranks["martinhelper"] > ranks.get("bobnewcomer", 0.0)
    assert "annasker" not in ranks and "zoeasker" not in ranks  # they only asked
    gathered = await thread_messages(services.store, ["a1@x"])
    by_author = {m["author"]: m["standing"] for m in gathered["a1@x"]}
    assert by_author["Martin Helper"] == ranks["martinhelper"]
    assert by_author["Ann Asker"] == 0.0
