"""`bosun adapt` end to end on a tiny BEIR collection: a few training steps, the int8 ONNX export,
the re-embedded collection that reopens with its own model (hash checked), the held-out fold that
`bosun eval --fold` scores, and `--reset`. Needs the optional [adapt] extra (CPU torch)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import uuid
from pathlib import Path

import numpy as np
import pytest

from adapt import head as adapt_head
from adapt.calibration import POOL, collect, fit_calibration, record_calibration
from adapt.linear_head import read_head
from adapt.pair_mining import stored_chunks
from adapt.queries import LabelledQuery, off_topic_questions, vocabulary_model
from agent.adapt_command import adapt_target, add_adapt_parser, run_adapt
from agent.evaluation.beir import load_dataset
from agent.evaluation.collections import collection_name, open_eval_services
from agent.evaluation.command import add_eval_parser, run_eval
from agent.settings import Settings
from agent.wiring import Calibration, build_pipeline, open_services
from archive.store.embedder import (
    CALIBRATION_KEYS,
    HEAD_SHA_KEY,
    RERANKER_FILE_KEY,
    read_embedder,
    read_meta,
)
from archive.store.locks import ingest_stage
from archive.store.passages import fetch_vectors
from archive.store.schema import StoreError
from archive.store.search_filters import SearchFilters
from providers.linear_head import head_file
from providers.minilm import BASE_MODEL_ID, MiniLMEmbeddings, sha256_file
from providers.rerankers.translation import TRANSLATION_FEATURES
from tools.pipeline import run_pipeline
from tools.retrieval_config import RetrievalConfig

pytestmark = pytest.mark.integration
pytest.importorskip("torch", reason="bosun adapt needs the optional [adapt] extra")

CORPUS = {
    "fuel": "The engine stopped because both fuel tanks were empty after a long flight. The "
    "pilot had not refueled before departure. He made a forced landing in a field.",
    "wind": "During landing in a strong gusting crosswind the airplane veered off the runway. "
    "It struck a ditch and the left wing was damaged. The pilot was not injured.",
    "ice": "Carburetor icing in humid conditions reduced engine power during cruise. The pilot "
    "did not apply carburetor heat. The airplane landed hard in a field.",
    "cloud": "The pilot continued into clouds without an instrument rating. He became "
    "disoriented and the airplane entered a steep spiral. It struck trees near the lake.",
}
QUERIES = {
    "pc_fuel": ("Fuel exhaustion due to the pilot's inadequate fuel planning.", "fuel"),
    "pc_wind": ("The pilot's failure to maintain directional control in gusty wind.", "wind"),
    "pc_ice": ("A loss of engine power due to carburetor ice.", "ice"),
    "pc_cloud": ("Spatial disorientation in instrument conditions.", "cloud"),
}


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    root = tmp_path / f"adapt_{uuid.uuid4().hex[:6]}"
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text(
        "".join(json.dumps({"_id": i, "title": "", "text": t}) + "\n" for i, t in CORPUS.items()),
        encoding="utf-8",
    )
    (root / "queries.dev.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t}) + "\n" for q, (t, _) in QUERIES.items()),
        encoding="utf-8",
    )
    (root / "qrels" / "dev.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t1\n" for q, (_, d) in QUERIES.items()),
        encoding="utf-8",
    )
    return root


def _parse(command: str, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_adapt_parser(sub)
    add_eval_parser(sub)
    return parser.parse_args([command, *argv])


async def test_adapt_reembeds_the_collection_with_its_own_recorded_model(
    settings: Settings,
    tiny: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dataset = load_dataset(tiny, "dev")
    collection = collection_name(tiny.name)
    async with open_eval_services(settings, dataset) as services:
        before = await fetch_vectors(services.store, await _chunk_ids(services.store))
    adapt_args = ["--collection", collection, "--steps", "2"]
    held_out = ["--queries", str(tiny), "--split", "dev", "--hold-out", "1/2"]
    root_level = logging.getLogger().level
    assert await run_adapt(settings, _parse("adapt", [*adapt_args, *held_out, "--json"])) == 0
    assert logging.getLogger().level == root_level  # other warnings still reach their handlers
    report = json.loads(capsys.readouterr().out)
    model = Path(report["model"])
    assert model.parent == settings.home / "models" / collection
    assert list(model.parent.glob("minilm-adapted-*.onnx")) == [model]  # earlier heads removed
    assert report["sha256"] == sha256_file(model) and report["model_bytes"] > 10_000_000
    assert report["reembed"]["chunks"] == len(CORPUS)
    assert report["training"]["kind"] == "head"
    assert report["training"]["queries"] == f"{tiny.name}/dev without fold 1/2"
    # A second run starts from the stock vectors: the same head again.
    first = read_head(model)
    mined_on: list[object] = []
    mine = adapt_head.add_hard_negatives

    async def spy(*args: object, **kwargs: object) -> object:
        mined_on.append(await read_embedder(settings.database_uri(), collection))
        return await mine(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(adapt_head, "add_hard_negatives", spy)
    assert await run_adapt(settings, _parse("adapt", [*adapt_args, *held_out, "--json"])) == 0
    again = capsys.readouterr()
    assert "previous head was undone" in again.err
    assert mined_on[0] is None  # the first head's negatives: retrieved on stock vectors
    second = read_head(Path(json.loads(again.out)["model"]))
    assert first is not None and second is not None
    assert np.abs(first - second).max() < 0.01  # W⁻¹'s rounding, amplified by the fit
    report = json.loads(again.out)
    model = Path(report["model"])

    record = await read_embedder(settings.database_uri(), collection)
    assert record is not None and record.sha256 == report["sha256"]
    assert settings.home / record.file == model
    async with open_services(settings, collection=collection) as services:
        assert isinstance(services.embeddings, MiniLMEmbeddings)
        assert services.store.identity.model == record.model != f"local:{BASE_MODEL_ID}"
        ids = await _chunk_ids(services.store)
        after = await fetch_vectors(services.store, ids)
        # The stored vectors are the adapted model's (int8 activations are quantised per batch,
        # so a text embedded alone matches its stored vector to a cosine of ~0.99, not exactly).
        query = np.array(services.embeddings.embed_documents(list(CORPUS.values())))
        adapted = np.array([after[i] for i in ids])
        assert (query @ adapted.T).max(axis=1).min() > 0.98
        stock = np.array(MiniLMEmbeddings().embed_documents(list(CORPUS.values())))
        assert (stock @ adapted.T).max(axis=1).min() < (query @ adapted.T).max(axis=1).min()
        assert all(not np.allclose(before[i], after[i], atol=1e-3) for i in ids)

    # The held-out fold is scored without a warning; the training fold is flagged in-sample.
    for fold, in_sample in (("1/2", False), ("2/2", True)):
        argv = [str(tiny), "--split", "dev", "--fold", fold, "--no-rerank", "--json"]
        assert await run_eval(settings, _parse("eval", argv)) == 0
        out = capsys.readouterr()
        assert json.loads(out.out)["queries"] >= 1
        assert ("in-sample" in out.err) is in_sample

    os.replace(model, model.with_suffix(".moved"))
    with pytest.raises(StoreError, match="bosun adapt"):
        async with open_services(settings, collection=collection):
            pass
    os.replace(model.with_suffix(".moved"), model)

    assert await run_adapt(settings, _parse("adapt", ["--collection", collection, "--reset"])) == 0
    assert await read_embedder(settings.database_uri(), collection) is None
    async with open_services(settings, collection=collection) as services:
        assert services.store.identity.model == f"local:{BASE_MODEL_ID}"
        reset = await fetch_vectors(services.store, ids)
    assert all(np.allclose(before[i], reset[i], atol=1e-5) for i in ids)


async def _execute(
    settings: Settings, collection: str, statement: str, params: tuple[object, ...]
) -> None:
    async with (
        open_services(settings, collection=collection, calibrated=False) as services,
        services.store.pool.connection() as conn,
    ):
        await conn.execute(statement, params)


async def _chunk_ids(store: object) -> list[str]:
    async with store.pool.connection() as conn:  # type: ignore[attr-defined]
        cur = await conn.execute("SELECT chunk_id FROM chunks ORDER BY chunk_id")
        return [row["chunk_id"] for row in await cur.fetchall()]


async def test_the_fitted_reranker_and_head_are_recorded_and_opened_with_the_collection(
    settings: Settings, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = load_dataset(tiny, "dev")
    collection = collection_name(tiny.name)
    async with open_eval_services(settings, dataset):
        pass
    argv = ["--collection", collection, "--steps", "2", "--no-calibrate", "--queries", str(tiny)]
    assert await run_adapt(settings, _parse("adapt", [*argv, "--split", "dev", "--json"])) == 0
    capsys.readouterr()
    relevant = {q: [d for d, g in dataset.qrels[q].items() if g > 0] for q in dataset.queries}
    async with adapt_target(settings, collection).open() as services:
        chunks = await stored_chunks(services.store)
        # Four queries are too few to cross-fit: collected on the one head, min_queries=1.
        every = [LabelledQuery(t, frozenset(relevant[q])) for q, t in dataset.queries.items()]
        vocabulary = vocabulary_model(chunks, (dataset.queries, relevant, "tiny"), frozenset())
        collected = await collect(services, every, off_topic_questions(), vocabulary)
        calibrated = fit_calibration([collected], "tiny", vocabulary, min_queries=1)
        recorded = await record_calibration(services, calibrated)
    reranker = recorded["reranker"]
    assert reranker["in_domain"] == len(QUERIES) and reranker["off_topic"] >= 1
    assert reranker["vocabulary"]["pairs"] >= len(QUERIES)  # each query with its passages
    record = await read_embedder(settings.database_uri(), collection)
    assert record is not None
    model = settings.home / record.file
    head_sha = (await read_meta(settings.database_uri(), collection, (HEAD_SHA_KEY,)))[HEAD_SHA_KEY]

    async with open_services(settings, collection=collection) as services:
        head = services.calibration.head  # saved beside the model, read without onnx
        assert head is not None and np.array_equal(head, read_head(model))
        fitted = services.calibration.reranker
        assert fitted is not None and fitted.cutoff == reranker["cutoff"]
        assert fitted.pool == POOL  # it orders the pool it was fitted on
        assert fitted.translation is not None and fitted.features[-2:] == TRANSLATION_FEATURES
        assert fitted.info["embedding_model"] == services.store.identity.model
        pipeline = build_pipeline(services)
        assert pipeline.judge is not None
        ranking = await run_pipeline(
            pipeline, QUERIES["pc_ice"][0], SearchFilters(), RetrievalConfig()
        )
        assert ranking.rerank["status"] == "ok" and ranking.kept[0]["source_id"] == "ice"
        assert ranking.relevance["judge"] == "stock" and not ranking.relevance["stopped"]
        off = await run_pipeline(
            pipeline, "banana bread recipe", SearchFilters(), RetrievalConfig()
        )
        assert off.relevance["stopped"]

    head_path = head_file(model)
    saved = head_path.read_bytes()
    head_path.write_bytes(saved[:-4] + b"\0\0\0\0")
    with pytest.raises(StoreError, match="the head .* sha256 does not match"):
        async with open_services(settings, collection=collection):
            pass
    head_path.write_bytes(saved)
    # A collection headed before the head was saved beside its model: a clear error, no guess.
    await _execute(settings, collection, "DELETE FROM meta WHERE key = %s", (HEAD_SHA_KEY,))
    with pytest.raises(StoreError, match="adapted before its head was saved"):
        async with open_services(settings, collection=collection):
            pass
    insert = "INSERT INTO meta (key, value) VALUES (%s, %s)"
    await _execute(settings, collection, insert, (HEAD_SHA_KEY, head_sha))

    meta = await read_meta(settings.database_uri(), collection, (RERANKER_FILE_KEY,))
    weights = settings.home / meta[RERANKER_FILE_KEY]
    assert weights.parent == settings.home / "models" / collection
    weights.write_text(weights.read_text().replace('"cutoff"', '"cutoff" ', 1))
    with pytest.raises(StoreError, match="sha256 does not match"):
        async with open_services(settings, collection=collection):
            pass

    assert await run_adapt(settings, _parse("adapt", ["--collection", collection, "--reset"])) == 0
    kept = await read_meta(settings.database_uri(), collection, (*CALIBRATION_KEYS, HEAD_SHA_KEY))
    assert kept == {}
    assert list(weights.parent.iterdir()) == []  # the model and reranker files are gone
    async with open_services(settings, collection=collection) as services:
        assert services.calibration == Calibration()


async def test_adapt_waits_for_writers_and_reset_recovers_a_lost_model(
    settings: Settings, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dataset = load_dataset(tiny, "dev")
    collection = collection_name(tiny.name)
    async with open_eval_services(settings, dataset) as services:
        ids = await _chunk_ids(services.store)
        before = await fetch_vectors(services.store, ids)
    argv = ["--collection", collection, "--steps", "2", "--no-calibrate", "--queries", str(tiny)]

    # An ingest writing the collection holds its lock: adapt says so and waits for it.
    async with open_services(settings, collection=collection, calibrated=False) as services:
        async with ingest_stage(services.store, exclusive=False):
            task = asyncio.create_task(
                run_adapt(settings, _parse("adapt", [*argv, "--split", "dev"]))
            )
            err = ""
            for _ in range(200):
                await asyncio.sleep(0.05)
                err += capsys.readouterr().err
                if "waiting for the runs writing" in err:
                    break
            assert "waiting for the runs writing" in err and not task.done()
            assert await read_embedder(settings.database_uri(), collection) is None
        assert await task == 0
        # A run that opened the collection before it was re-embedded may not write it now.
        with pytest.raises(StoreError, match="re-embedded by .* while this run waited"):
            async with ingest_stage(services.store, exclusive=False):
                pass
    record = await read_embedder(settings.database_uri(), collection)
    assert record is not None
    capsys.readouterr()

    # The model file is lost: --reset re-embeds every passage from its text with the stock model.
    (settings.home / record.file).unlink()
    assert await run_adapt(settings, _parse("adapt", ["--collection", collection, "--reset"])) == 0
    assert "missing or altered: re-embedding every passage" in capsys.readouterr().err
    assert await read_embedder(settings.database_uri(), collection) is None
    assert list((settings.home / "models" / collection).iterdir()) == []  # the head's file too
    async with open_services(settings, collection=collection) as services:
        assert services.store.identity.model == f"local:{BASE_MODEL_ID}"
        reset = await fetch_vectors(services.store, ids)
    # int8 activations are quantised per batch: the same text in another batch, cosine ~0.99
    assert min(float(np.dot(before[i], reset[i])) for i in ids) > 0.98
