"""`bosun adapt` on stored feedback, on real PostgreSQL: too few labels change nothing; the
click memory is checked by nested cross-validation over every feedback question on the served
retrieval, installed and served when it gains, and refused when it cannot (the memory in place,
its file and meta stay); `--reset` forgets it. Needs the optional [adapt] extra (CPU torch)."""

from __future__ import annotations

import json
import shutil
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest

from adapt.checked import Ranker, adapt_on_labels
from adapt.command import AdaptOptions
from adapt.feedback import FeedbackLabel, read_shown, turn_labels, usable
from adapt.memory_fit import MIN_MOVABLE, Ranked
from agent.adapt_command import adapt_target, ranker
from agent.evaluation.beir import load_dataset
from agent.evaluation.collections import collection_name, open_eval_services
from agent.evaluation.harness import EVAL_CHUNKS
from agent.evaluation.layers import Layers, layered_search
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.embedder import MEMORY_FILE_KEY, MEMORY_KEYS, read_embedder, read_meta
from tests.integration.test_adapt import CORPUS, QUERIES, _parse

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


def third(real: Ranker) -> Ranker:
    """``real``'s rankings with each question's opened document moved to third place: a memory
    of its paraphrases has something to lift."""

    async def rank(labels: list[FeedbackLabel]) -> tuple[list[Ranked], np.ndarray]:
        ranked, vectors = await real(labels)
        moved = []
        for r in ranked:
            others = [s for s in r.sources if s not in r.relevant]
            sources = (*others[:2], *sorted(r.relevant), *others[2:])
            moved.append(replace(r, sources=sources, pooled=None))  # the memory's case alone
        return moved, vectors

    return rank


def already_first(real: Ranker) -> Ranker:
    """``real``'s rankings with each question's opened document the one served first: nothing
    for a memory to gain, so any lift can only lose."""

    async def rank(labels: list[FeedbackLabel]) -> tuple[list[Ranked], np.ndarray]:
        ranked, vectors = await real(labels)
        return [replace(r, relevant=frozenset(r.sources[:1])) for r in ranked], vectors

    return rank


def _passes(check: dict[str, Any]) -> bool:
    """What the report says of a check's verdict (adapt.memory_fit.Fitted.passes)."""
    moved, first = check["movable"], check["first"]
    return (
        moved["questions"] >= MIN_MOVABLE
        and moved["after"] > moved["before"]
        and first["change"] >= -first["margin"]
    )


async def test_a_memory_is_installed_only_when_its_cross_validated_check_gains(
    settings: Settings, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from agent.adapt_command import run_adapt

    collection = collection_name(tiny.name)
    async with open_eval_services(settings, load_dataset(tiny, "dev")):
        pass
    await store_feedback(settings, collection)
    labels = usable(turn_labels(read_shown(settings.database_uri(), collection)))
    assert len(labels) == 60
    assert all(len(label.negatives) == 2 for label in labels)  # skip-above: the two shown above

    # The real command: the check on the served retrieval decides, and says what it measured.
    assert await run_adapt(settings, _parse("adapt", ["--collection", collection, "--json"])) == 0
    report = json.loads(capsys.readouterr().out)
    check = report["check"]
    assert check["metric"] == "ndcg@10" and check["before"] is not None
    gained = _passes(check)
    assert report["labels"] == {"questions": 60, "folds": 5}
    words = report["vocabulary_check"]  # the click vocabulary's own check, on the real pools
    assert words["before"] is not None
    blends = _passes(words)
    kept = False
    if blends:  # a vocabulary served: no residual is fitted on top of it
        assert "residual_check" not in report
    else:
        residual = report["residual_check"]  # the click residual's own check
        assert residual["before"] is not None and residual["power"] == 1.0
        kept = _passes(residual)
    assert report["installed"] is (gained or kept or blends)
    assert report.get("parts", []) == [
        *(["vocabulary"] if blends else []),
        *(["residual"] if kept else []),
        *(["memory"] if gained else []),
    ]
    assert await read_embedder(settings.database_uri(), collection) is None  # no head: stock

    # A memory that gains is installed and served: a labelled question's document comes first.
    real = ranker(settings, collection)
    target = adapt_target(settings, collection)
    installed = await adapt_on_labels(target, AdaptOptions(), ({}, {}, ""), third(real))
    assert installed["installed"] is True, installed
    assert installed["check"]["after"] > installed["check"]["before"]
    meta = await read_meta(settings.database_uri(), collection, MEMORY_KEYS)
    assert (settings.home / meta[MEMORY_FILE_KEY]).is_file()
    async with open_services(settings, collection=collection) as services:
        assert services.calibration.memory is not None
        search = await layered_search(services, Layers(), EVAL_CHUNKS)
        for label in labels[:8]:
            found = await search(label.query)
            assert found.candidates[0]["source_id"] in label.relevant_sources

    # Nothing of it reaches another collection of the same database and home.
    elsewhere = tiny.parent / f"{tiny.name}_elsewhere"
    shutil.copytree(tiny, elsewhere)
    async with open_eval_services(settings, load_dataset(elsewhere, "dev")) as other:
        assert other.calibration.memory is None
    assert (
        await read_meta(settings.database_uri(), collection_name(elsewhere.name), MEMORY_KEYS) == {}
    )
    assert not (settings.home / "models" / collection_name(elsewhere.name)).exists()

    # One that can only lose is refused: the memory in place, its file and meta stay as they are.
    files_before = sorted(p.name for p in (settings.home / "models" / collection).iterdir())
    refused = await adapt_on_labels(target, AdaptOptions(), ({}, {}, ""), already_first(real))
    assert refused["installed"] is False and "current model stays" in refused["reason"]
    assert refused["check"]["after"] <= refused["check"]["before"]
    assert await read_meta(settings.database_uri(), collection, MEMORY_KEYS) == meta
    files_after = sorted(p.name for p in (settings.home / "models" / collection).iterdir())
    assert files_after == files_before

    # --reset forgets the memory (and its file) without re-embedding stock vectors.
    capsys.readouterr()
    argv = ["--collection", collection, "--reset", "--json"]
    assert await run_adapt(settings, _parse("adapt", argv)) == 0
    assert json.loads(capsys.readouterr().out)["reembed"]["chunks"] == 0
    assert await read_meta(settings.database_uri(), collection, MEMORY_KEYS) == {}
    assert not list((settings.home / "models" / collection).glob("click-memory-*"))
