"""The `bosun` command line as a user types it, on the shipped example archive, fully offline.

Each command is its own process (import, model load, database pool). The independent ones run a
few at a time so that the module stays short; each test then checks what one command printed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.e2e.harness import EXAMPLE_ARCHIVE, Bosun, Run

pytestmark = pytest.mark.e2e

ERA = "What was the probable cause of the ERA25LA084 accident?"
NORDIC = ("How was the cylinder liner crack on Nordic Star resolved?", "who replaced it?")
COILS = "what happened to the steel coils?"
SEARCH_KEYS = {"chunk_id", "source_id", "title", "text", "bm25", "cosine", "score"}


def _thread(cli: Bosun, thread: str, *questions: str) -> list[Run]:
    """Questions asked one after another on one thread, as separate `bosun ask` processes."""
    return [cli.run("ask", q, "--thread", thread, "--json") for q in questions]


@pytest.fixture(scope="module")
def runs(bosun: Bosun) -> Iterator[dict[str, Future[Run] | Future[list[Run]]]]:
    # The first conversation creates the checkpoint tables; the rest then run side by side.
    first = bosun.run("ask", "hello", "--json")
    done: Future[Run] = Future()
    done.set_result(first)
    suffix = uuid.uuid4().hex[:8]
    with ThreadPoolExecutor(max_workers=3) as pool:
        jobs: dict[str, Future[Run] | Future[list[Run]]] = {
            "hello": done,
            "nordic": pool.submit(_thread, bosun, f"e2e-a-{suffix}", *NORDIC),
            "era": pool.submit(bosun.run, "ask", ERA, "--json"),
            "france": pool.submit(bosun.run, "ask", "what is the capital of France", "--json"),
            "coils": pool.submit(_thread, bosun, f"e2e-b-{suffix}", COILS),
            "search": pool.submit(bosun.run, "search", "ERA25LA084", "--json"),
            "status": pool.submit(bosun.run, "status", "--json"),
            "nordik": pool.submit(bosun.run, "search", "x", "--vessel", "Nordik Star"),
            "gobi": pool.submit(bosun.run, "search", "x", "--vessel", "Queen of the Gobi"),
            "reingest": pool.submit(bosun.run, "ingest", EXAMPLE_ARCHIVE),
        }
        yield jobs


def _run(runs: dict[str, Future[Run] | Future[list[Run]]], key: str) -> Run:
    result = runs[key].result()
    assert isinstance(result, Run)
    return result


def _turns(runs: dict[str, Future[Run] | Future[list[Run]]], key: str) -> list[Run]:
    result = runs[key].result()
    assert isinstance(result, list)
    return result


def test_a_greeting_is_answered_without_retrieval_or_model(runs: dict) -> None:
    data = _run(runs, "hello").json()
    assert data["intent"] == "greeting"
    assert data["retrieved"] == 0 and data["llm_called"] is False
    assert data["citations"] == [] and data["answer"]


def test_a_report_question_is_answered_from_the_report_with_resolvable_citations(
    runs: dict, bosun: Bosun
) -> None:
    data = _run(runs, "era").json()
    assert data["intent"] == "factual_query" and data["cutoff"] is False
    assert data["citations"] and data["invalid_citations"] == 0 and data["flagged"] is False
    assert data["citations"][0]["source_id"] == "ERA25LA084"
    archive: Path = bosun.settings.archive_dir
    for citation in data["citations"]:
        assert (archive / citation["archive_path"]).is_file(), citation
        assert f"[C:{citation['id']}]" in data["answer"]
    assert "fuel" in data["answer"].lower()


def test_an_off_topic_question_is_cut_off_before_any_model(runs: dict) -> None:
    data = _run(runs, "france").json()
    assert data["cutoff"] is True and data["llm_called"] is False
    assert data["citations"] == []


def test_a_vessel_named_once_stays_the_filter_of_its_thread_only(runs: dict) -> None:
    first, follow_up = (turn.json() for turn in _turns(runs, "nordic"))
    assert [v["name"] for v in first["filters"]["vessels"]] == ["Nordic Star"]
    assert first["citations"] and first["invalid_citations"] == 0
    assert follow_up["thread_id"] == first["thread_id"]
    assert [v["name"] for v in follow_up["filters"]["vessels"]] == ["Nordic Star"]
    assert "replaced" in follow_up["answer"].lower() and follow_up["citations"]

    (other,) = (turn.json() for turn in _turns(runs, "coils"))
    assert not other["filters"].get("vessels"), other["filters"]
    assert "Nordic Star" not in other["filters_text"]
    assert "coils" in other["answer"].lower() and other["citations"]


def test_search_finds_the_report_by_number_with_its_scores(runs: dict) -> None:
    results = _run(runs, "search").json()["results"]
    assert results and results[0]["source_id"] == "ERA25LA084"
    assert set(results[0]) >= SEARCH_KEYS, set(results[0])


def test_status_counts_what_was_ingested(runs: dict, bosun: Bosun) -> None:
    info = _run(runs, "status").json()
    assert {"documents", "chunks", "threads", "vessels", "embedding_model"} <= set(info)
    assert info["documents"] == bosun.ingested["added"] + bosun.ingested["thread_digests"]
    assert info["chunks"] == bosun.ingested["chunks_added"]
    assert info["vessels"] >= 2 and info["threads"] >= 1  # Nordic Star, Baltic Trader, ...
    assert info["topics"] == bosun.ingested["new_topics"] > 0  # the ontology is built at ingest
    assert info["embedding_model"]


def test_a_misspelt_vessel_is_resolved_visibly(runs: dict) -> None:
    run = _run(runs, "nordik")
    assert run.returncode == 0, run.stderr
    assert "Nordik Star" in run.stderr and "Nordic Star" in run.stderr


def test_an_unknown_vessel_is_refused_with_a_clear_message(runs: dict) -> None:
    run = _run(runs, "gobi")
    assert run.returncode == 2
    assert "Queen of the Gobi" in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""


def test_ingesting_the_same_archive_again_changes_nothing(runs: dict, bosun: Bosun) -> None:
    run = _run(runs, "reingest")
    assert run.returncode == 0, run.stderr
    unchanged = bosun.ingested["added"]
    expected = (
        "ingested 0 new and 0 changed documents and 0 thread digests (0 chunks, 0 new topics)"
    )
    assert f"{expected}, {unchanged} unchanged" in run.stdout
