"""`bosun adapt` on stored feedback, on real PostgreSQL: too few labels change nothing; the
fitted model is scored on the held-back slice before and after; a model that scores lower is
not kept (the collection's vectors, meta and files go back to the model it had). Needs the
optional [adapt] extra (CPU torch)."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

import numpy as np
import psycopg
import pytest

from adapt.checked import TOLERANCE, adapt_on_labels
from adapt.command import AdaptOptions
from adapt.feedback import FeedbackLabel, read_shown, split_labels, turn_labels
from agent.adapt_command import adapt_target, scorer
from agent.evaluation.beir import load_dataset
from agent.evaluation.collections import collection_name, open_eval_services
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.embedder import MODEL_KEYS, read_embedder, read_meta
from archive.store.passages import fetch_vectors
from tests.integration.test_adapt import CORPUS, QUERIES, _chunk_ids, _parse

pytestmark = pytest.mark.integration
pytest.importorskip("torch", reason="bosun adapt needs the optional [adapt] extra")


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """test_adapt's four-document BEIR folder, in a collection of its own."""
    root = tmp_path / f"feedback_{uuid.uuid4().hex[:6]}"
    (root / "qrels").mkdir(parents=True)
    lines = [json.dumps({"_id": i, "title": "", "text": t}) for i, t in CORPUS.items()]
    (root / "corpus.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = [json.dumps({"_id": q, "text": t}) for q, (t, _) in QUERIES.items()]
    (root / "queries.dev.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    qrels = "".join(f"{q}\t{d}\t1\n" for q, (_, d) in QUERIES.items())
    (root / "qrels" / "dev.tsv").write_text(f"query-id\tcorpus-id\tscore\n{qrels}", "utf-8")
    return root


#: Ways an operator asks about each document of the tiny corpus (60 questions in all).
ASKED = {
    "fuel": ["why did the engine quit", "fuel planning before the flight", "empty tanks"],
    "wind": ["runway excursion in a crosswind", "gusts during landing", "wing hit a ditch"],
    "ice": ["carburetor heat not applied", "power loss in humid air", "ice in the intake"],
    "cloud": ["flight into clouds without rating", "spiral after disorientation", "trees"],
}


async def store_feedback(settings: Settings, collection: str, *, again: bool = False) -> None:
    """Turns that showed every document, the asked one third, opened by the user (so the two
    above it are skipped): the rows the web app writes, for 60 questions (``again``: the same
    questions asked in new turns)."""
    async with (
        open_services(settings, collection=collection, calibrated=False) as services,
        services.store.pool.connection() as conn,
    ):
        cur = await conn.execute(
            "SELECT c.chunk_id, d.source_id, d.archive_path FROM chunks c JOIN documents d"
            " USING (doc_id) ORDER BY d.source_id"
        )
        chunks = {r["source_id"]: r for r in await cur.fetchall()}
    ddl = files("agent.server").joinpath("schema.sql").read_text("utf-8")
    with psycopg.connect(settings.database_uri(), autocommit=True) as conn:
        conn.execute(ddl)  # type: ignore[call-overload]
        for source, phrasings in ASKED.items():
            others = [s for s in chunks if s != source]
            for n in range(5):
                for phrasing in phrasings:
                    question = f"{phrasing} ({n})"
                    turn = f"{collection}-{source}-{n}-{phrasing}{'-again' if again else ''}"
                    for position, shown in enumerate([*others[:2], source, others[2]], start=1):
                        row = chunks[shown]
                        conn.execute(
                            """INSERT INTO bosun_shown (message_id, chunk_id, thread_id,
                                   user_id, collection, question, query, position, source_id,
                                   archive_path, opened_at)
                               VALUES (%s, %s, 't', 'local', %s, %s, %s, %s, %s, %s, %s)""",
                            (
                                turn,
                                row["chunk_id"],
                                collection,
                                question,
                                question,
                                position,
                                shown,
                                row["archive_path"],
                                datetime.now(UTC) if shown == source else None,
                            ),
                        )


async def test_too_few_labels_change_nothing_and_say_so(
    settings: Settings, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agent.adapt_command import run_adapt

    collection = collection_name(tiny.name)
    async with open_eval_services(settings, load_dataset(tiny, "dev")):
        pass
    assert await run_adapt(settings, _parse("adapt", ["--collection", collection])) == 0
    out = capsys.readouterr().out
    assert "not enough labels" in out and "nothing was changed" in out
    assert await read_embedder(settings.database_uri(), collection) is None
    assert not (settings.home / "models" / collection).exists()


async def test_a_model_scoring_lower_on_the_held_back_slice_is_not_kept(
    settings: Settings, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agent.adapt_command import run_adapt

    collection = collection_name(tiny.name)
    async with open_eval_services(settings, load_dataset(tiny, "dev")):
        pass
    await store_feedback(settings, collection)
    train, held = split_labels(turn_labels(read_shown(settings.database_uri(), collection)))
    assert len(train) >= 20 and len(held) >= 5
    assert all(len(label.negatives) == 2 for label in train)  # skip-above: the two shown above

    # First run: the real check on the served retrieval decides, and says what it measured.
    argv = ["--collection", collection, "--steps", "2", "--no-calibrate", "--json"]
    assert await run_adapt(settings, _parse("adapt", argv)) == 0
    report = json.loads(capsys.readouterr().out)
    check = report["check"]
    assert check["metric"] == "ndcg@10" and check["before"] is not None
    assert report["installed"] is (check["after"] >= check["before"] - TOLERANCE)
    assert report["labels"] == {"train": len(train), "held_back": len(held)}

    # What is served now; a second model that scores lower must leave all of it as it is.
    folder = settings.home / "models" / collection
    files_before = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
    meta_before = await read_meta(settings.database_uri(), collection, MODEL_KEYS)
    async with open_services(settings, collection=collection) as services:
        ids = await _chunk_ids(services.store)
        vectors_before = await fetch_vectors(services.store, ids)
    real = scorer(settings, collection)
    calls: list[list[float]] = []

    async def judged_worse(labels: list[FeedbackLabel]) -> list[float]:
        measured = await real(labels)  # the real measurement; the second reads lower
        calls.append(measured)
        return [m - (0.5 if len(calls) == 2 else 0.0) for m in measured]

    target = adapt_target(settings, collection)
    options = AdaptOptions(steps=2, calibrate=False)
    refused = await adapt_on_labels(target, options, ({}, {}, ""), judged_worse)
    assert refused["installed"] is False and "current model stays" in refused["reason"]
    assert refused["check"]["after"] < refused["check"]["before"] - TOLERANCE
    assert refused["restored"]["chunks"] == len(ids)  # a model was fitted, then put away
    assert await read_meta(settings.database_uri(), collection, MODEL_KEYS) == meta_before
    assert (sorted(p.name for p in folder.iterdir()) if folder.exists() else []) == files_before
    async with open_services(settings, collection=collection) as services:
        vectors_after = await fetch_vectors(services.store, ids)
    assert all(np.allclose(vectors_before[i], vectors_after[i], atol=1e-4) for i in ids)
