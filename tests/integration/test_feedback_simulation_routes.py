"""The feedback simulation (benchmarks/feedback_simulation.py) sends its users' feedback through
the real routes: on a tiny BEIR collection, a few simulated turns through the app's chat,
citation, download and feedback routes leave the label rows `bosun adapt` learns from (what
each answer showed, stamped when opened or downloaded, and the thumbs)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.collections import ensure_ingested
from agent.settings import Settings
from agent.wiring import open_services
from benchmarks.simulated_users import Ledger, UserModel
from benchmarks.simulation_routes import SimulatedUser, until
from tests.integration.server_harness import serve

pytestmark = pytest.mark.integration

KEY, USER = "simulation-key-0123456789", "simulated-tester"

CORPUS = {
    "d1": "Carburetor icing. The engine lost power in cruise flight; the carburetor heat was "
    "not applied although the temperature and dew point favoured carburetor ice.",
    "d2": "Fuel exhaustion. The pilot did not refuel before the return leg and both tanks ran "
    "dry over the lake; the airplane was ditched near the shore.",
    "d3": "Bird strike. A flock of geese struck the windscreen during the climb out and the "
    "pilot returned to the airport with a cracked windscreen.",
    "d4": "Hard landing. The student pilot flared too high in a gusting crosswind and the "
    "airplane landed hard, collapsing the nose landing gear.",
}
QUERIES = {
    "q1": "engine power loss from carburetor ice without carburetor heat",
    "q2": "fuel exhaustion after the pilot did not refuel, tanks ran dry",
    "q3": "geese struck the windscreen in the climb",
}


def tiny_dataset(folder: Path) -> BeirDataset:
    folder.mkdir()
    (folder / "qrels").mkdir()
    lines = [json.dumps({"_id": i, "title": t.split(".")[0], "text": t}) for i, t in CORPUS.items()]
    (folder / "corpus.jsonl").write_text("\n".join(lines) + "\n")
    queries = [json.dumps({"_id": q, "text": t}) for q, t in QUERIES.items()]
    (folder / "queries.dev.jsonl").write_text("\n".join(queries) + "\n")
    qrels = ["query-id\tcorpus-id\tscore", "q1\td1\t1", "q2\td2\t1", "q3\td3\t1"]
    (folder / "qrels" / "dev.tsv").write_text("\n".join(qrels) + "\n")
    return load_dataset(folder, "dev")


@pytest.fixture(scope="module")
async def tiny(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Settings, BeirDataset]]:
    own = replace(settings, collection="simulation_routes")
    dataset = tiny_dataset(tmp_path_factory.mktemp("beir") / "tiny")
    async with open_services(own) as services:
        stats = await ensure_ingested(services, dataset)
        assert stats.documents == len(CORPUS)
    yield own, dataset


async def test_simulated_turns_leave_feedback_rows_through_the_real_routes(
    tiny: tuple[Settings, BeirDataset],
) -> None:
    settings, dataset = tiny
    # Every event the model can send: the relevant citation opened and downloaded, a thumb.
    model = UserModel(seed=1, noise=0.0, download=1.0, thumbs=1.0)
    ledger = Ledger()
    # An API user of its own: the session's other tests' threads are never listed or deleted.
    async with serve(settings, api_keys={KEY: USER}) as client:
        client.headers["Authorization"] = f"Bearer {KEY}"
        user = SimulatedUser(client)
        reached = await until(user, 7, iter(QUERIES), dataset, model, ledger)
        assert reached and ledger.events == 7 and ledger.turns == 3
        threads = (await client.get("/api/threads")).json()
        assert len(threads) == 3
        async with open_services(settings) as services, services.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT score FROM public.bosun_feedback"
                " WHERE user_id = %s AND thread_id = ANY(%s)",
                (USER, [t["thread_id"] for t in threads]),
            )
            scores = sorted(row["score"] for row in await cur.fetchall())
            cur = await conn.execute(
                """SELECT count(*) AS shown, count(opened_at) AS opened,
                          count(downloaded_at) AS downloaded
                   FROM public.bosun_shown WHERE collection = %s AND thread_id = ANY(%s)""",
                (settings.collection, [t["thread_id"] for t in threads]),
            )
            labels = await cur.fetchone()
        assert labels is not None and labels["shown"] >= ledger.turns
        # Each open and download the users sent stamped the passage its answer showed.
        assert labels["opened"] == ledger.by_kind["open"]
        assert labels["downloaded"] == ledger.by_kind["download"]
        thumbs = [a for a, _ in ledger.backlog if a.kind == "thumb"]
        # Three answers, each thumbed once: the first two sent, the third still waiting.
        assert ledger.by_kind.get("thumb", 0) + len(thumbs) == 3
        assert len(scores) == ledger.by_kind["thumb"]
        assert ledger.shown_relevant == sum(s == 1 for s in scores) + sum(
            a.score == 1 for a in thumbs
        )
        assert ledger.labelled <= set(CORPUS)
        assert await user.forget_everything() == 3
        assert (await client.get("/api/threads")).json() == []
