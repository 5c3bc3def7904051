"""evaluate() end to end on a 6-document BEIR folder with a real PostgreSQL and the local model."""

from __future__ import annotations

import argparse
import json
import uuid
from pathlib import Path

import pytest

from agent.evaluation.answers_command import add_eval_answers_parser, run_eval_answers
from agent.evaluation.beir import load_dataset
from agent.evaluation.collections import collection_name, ensure_ingested, open_eval_services
from agent.evaluation.command import add_eval_parser, run_eval
from agent.evaluation.harness import evaluate, read_runs, record_run, runs_file
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.schema import StoreError
from archive.store.search_filters import SearchFilters
from tools.hybrid import Retrieval, retrieve
from tools.retrieval_config import RetrievalConfig

pytestmark = pytest.mark.integration

CORPUS = {
    "fuel": (
        "Fuel exhaustion",
        "The engine stopped because both fuel tanks were empty after a "
        "long cross-country flight; the pilot had not refueled.",
    ),
    "wind": (
        "Crosswind landing",
        "During landing in a strong gusting crosswind the airplane "
        "veered off the runway and struck a ditch.",
    ),
    "ice": (
        "Carburetor ice",
        "Carburetor icing in humid conditions reduced engine power during "
        "cruise and the pilot made a forced landing in a field.",
    ),
    "bird": (
        "Bird strike",
        "A flock of geese struck the windshield and the left engine shortly after takeoff.",
    ),
    "gear": (
        "Gear up",
        "The pilot forgot to extend the landing gear and the airplane landed "
        "gear up, scraping the belly.",
    ),
    "wire": (
        "Wire strike",
        "While spraying crops at low altitude the helicopter struck power "
        "lines that crossed the field.",
    ),
}
QUERIES = {
    "q_fuel": ("empty fuel tanks engine stopped", {"fuel": 1}),
    "q_wind": ("gusting crosswind runway excursion", {"wind": 2, "gear": 0}),
    "q_wire": ("helicopter hit power lines during crop spraying", {"wire": 1}),
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("beir") / f"tiny_{uuid.uuid4().hex[:6]}"
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text(
        "".join(
            json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, (t, x) in CORPUS.items()
        ),
        encoding="utf-8",
    )
    (root / "queries.dev.jsonl").write_text(
        "".join(json.dumps({"_id": q, "text": t}) + "\n" for q, (t, _) in QUERIES.items()),
        encoding="utf-8",
    )
    (root / "qrels" / "dev.tsv").write_text(
        "query-id\tcorpus-id\tscore\n"
        + "".join(f"{q}\t{d}\t{s}\n" for q, (_, rel) in QUERIES.items() for d, s in rel.items()),
        encoding="utf-8",
    )
    return root


async def test_ingest_once_then_evaluate_every_arm(settings: Settings, tiny: Path) -> None:
    dataset = load_dataset(tiny, "dev")
    async with open_eval_services(settings, dataset) as services:
        assert services.store.schema == collection_name(tiny.name) == f"eval_{tiny.name}"
        again = await ensure_ingested(services, dataset)
        assert (again.documents, again.added) == (6, 0)  # reused, not re-ingested
        results = {
            name: await evaluate(services, dataset, options=options)
            for name, options in {
                "bm25": RetrievalConfig(dense=False),
                "dense": RetrievalConfig(lexical=False),
                "hybrid": RetrievalConfig(),
            }.items()
        }
    for name, result in results.items():
        assert result.queries == 3, name
        assert result.metrics["ndcg@10"] == pytest.approx(1.0), name
        assert result.metrics["mrr@10"] == pytest.approx(1.0), name
        assert result.metrics["recall@100"] == pytest.approx(1.0), name
        assert result.per_query[1].ranked[0] == "wind"
    assert set(results["bm25"].latency_ms) == {"bm25", "retrieve", "total"}
    assert set(results["dense"].latency_ms) == {"embed", "vector", "retrieve", "total"}
    hybrid = results["hybrid"].summary()
    assert set(hybrid) == {"ndcg@10", "recall@10", "recall@100", "mrr@10", "queries", "latency_ms"}
    assert hybrid["latency_ms"]["total"]["p95"] >= hybrid["latency_ms"]["total"]["p50"] > 0


async def test_a_search_hook_replaces_retrieval_and_limit_cuts_the_queries(
    settings: Settings, tiny: Path
) -> None:
    dataset = load_dataset(tiny, "dev")
    seen: list[str] = []
    async with open_eval_services(settings, dataset) as services:

        async def reversed_bm25(query: str) -> Retrieval:
            seen.append(query)
            got = await retrieve(
                services.store,
                services.embeddings,
                query,
                SearchFilters(),
                RetrievalConfig(dense=False, k=100),
            )
            worst_first = [{**c, "score": -c["score"]} for c in got.candidates]
            return Retrieval(worst_first, {**got.timings_ms, "hook": 1.0})

        result = await evaluate(services, dataset, limit=2, search=reversed_bm25)
    assert seen == ["empty fuel tanks engine stopped", "gusting crosswind runway excursion"]
    assert result.queries == 2
    assert result.metrics["mrr@10"] < 1.0
    assert "hook" in result.latency_ms


async def test_runs_are_logged_and_a_changed_chunk_size_is_refused(
    settings: Settings, tiny: Path
) -> None:
    dataset = load_dataset(tiny, "dev")
    async with open_eval_services(settings, dataset) as services:
        result = await evaluate(services, dataset, options=RetrievalConfig(dense=False), limit=1)
        with pytest.raises(StoreError, match="1000-character chunks, not 400"):
            await ensure_ingested(services, dataset, chunk_chars=400)
    log = record_run(settings, result, {"no_hybrid": False, "lexical_only": True}, {"x": 1})
    assert log == runs_file(settings, tiny.name)
    last = read_runs(log)[-1]
    assert last["dataset"] == tiny.name and last["split"] == "dev" and last["queries"] == 1
    assert last["switches"] == {"no_hybrid": False, "lexical_only": True}
    assert last["metrics"]["ndcg@10"] == pytest.approx(1.0)
    assert last["timestamp"]


async def test_run_eval_prints_one_json_object_and_writes_the_chart(
    settings: Settings, tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    add_eval_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        ["eval", str(tiny), "--split", "dev", "--json", "--out", str(tmp_path / "charts")]
    )
    assert await run_eval(settings, args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["queries"] == 3 and out["ndcg@10"] == pytest.approx(1.0)
    assert set(out["latency_ms"]) >= {"embed", "bm25", "vector", "retrieve", "total"}
    assert (tmp_path / "charts" / f"{tiny.name}_dev.png").is_file()

    bad = parser.parse_args(["eval", str(tiny), "--split", "test"])
    assert await run_eval(settings, bad) == 2
    assert "available: dev" in capsys.readouterr().err


async def test_an_eval_collection_with_another_chunk_size_is_its_own(
    settings: Settings, tiny: Path
) -> None:
    dataset = load_dataset(tiny, "dev")
    name = collection_name(tiny.name, 400)
    assert name == f"eval_{tiny.name}_c400"
    async with open_services(settings, collection=name) as services:
        stats = await ensure_ingested(services, dataset, chunk_chars=400)
        assert (stats.documents, stats.added) == (6, 6)


async def test_ablation_runs_each_layer_combination_into_one_table_and_chart(
    settings: Settings, tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    add_eval_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "eval",
            str(tiny),
            "--split",
            "dev",
            "--ablation",
            "--json",
            "--out",
            str(tmp_path / "charts"),
        ]
    )
    assert await run_eval(settings, args) == 0
    out = json.loads(capsys.readouterr().out)
    runs = {run["configuration"]: run for run in out["runs"]}
    assert list(runs) == [
        "bm25",
        "dense",
        "hybrid",
        "hybrid+rerank",
        "hybrid+rerank+expand",
        "hybrid+rerank+topics",
    ]
    assert [r["configuration"] for r in out["runs"] if r["default"]] == ["hybrid+rerank"]
    assert all(r["queries"] == 3 for r in out["runs"])
    assert "rerank" not in runs["hybrid"]["latency_ms"]
    assert {"rerank", "cutoff"} <= set(runs["hybrid+rerank"]["latency_ms"])
    assert "expand" in runs["hybrid+rerank+expand"]["latency_ms"]
    assert "topics" in runs["hybrid+rerank+topics"]["latency_ms"]  # ontology built on demand
    assert sum(runs["hybrid+rerank+topics"]["topic_decisions"].values()) == 3
    assert runs["hybrid+rerank"]["ndcg@10"] == pytest.approx(1.0)
    assert runs["hybrid+rerank"]["stopped_by_cutoff"] == 0
    assert (tmp_path / "charts" / f"{tiny.name}_dev_ablation.png").is_file()


async def test_eval_answers_stops_off_topic_questions_and_answers_the_datasets_queries(
    settings: Settings, tiny: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "".join(
            json.dumps(row) + "\n"
            for row in (
                {
                    "question": "What is the capital of France?",
                    "expect": "off_topic",
                    "split": "train",
                },
                {"question": "Give me a good recipe for banana bread.", "split": "heldout"},
                {"question": "hello there", "split": "heldout"},
                {"question": "Why did the helicopter hit the power lines?", "expect": "in_domain"},
            )
        ),
        encoding="utf-8",
    )
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    add_eval_answers_parser(sub)
    args = parser.parse_args(
        [
            "eval-answers",
            str(questions),
            "--expect",
            "off_topic",
            "--dataset",
            str(tiny),
            "--split",
            "dev",
            "--json",
            "--details",
            str(tmp_path / "details.jsonl"),
        ]
    )
    assert await run_eval_answers(settings, args) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["questions"], out["off_topic"], out["in_domain"]) == (7, 3, 4)
    assert out["off_topic_stopped_no_llm"] == 3 and out["off_topic_stopped_no_llm_share"] == 1.0
    assert out["off_topic_by_split"]["heldout"] == {
        "questions": 2,
        "stopped_no_llm": 2,
        "share": 1.0,
    }
    assert out["in_domain_wrongly_stopped"] == 0, out["failures"]
    assert out["answers"] == 4 and out["citations_all_valid_share"] == 1.0
    assert out["mean_citations_per_answer"] >= 1
    details = [json.loads(line) for line in (tmp_path / "details.jsonl").read_text().splitlines()]
    assert [d["outcome"] for d in details[:3]] == ["cutoff", "cutoff", "reply"]
    assert not any(d["llm_called"] for d in details)

    missing = parser.parse_args(["eval-answers", str(questions)])  # no --expect for two lines
    assert await run_eval_answers(settings, missing) == 2
    assert "questions.jsonl:2" in capsys.readouterr().err
