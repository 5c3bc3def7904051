"""Loading BEIR-layout folders: corpus documents, queries, graded qrels, split errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.evaluation.beir import (
    DatasetError,
    available_splits,
    default_split,
    load_corpus,
    load_dataset,
)

CORPUS = [
    {"_id": "d1", "title": "Fuel starvation", "text": "The engine lost power."},
    {"_id": "d2", "title": "Only a title", "text": ""},
    {"_id": "d3", "title": "", "text": ""},
    {"_id": "d4", "title": "", "text": "Gusty crosswind on landing."},
]


def write_beir(root: Path, *, splits: tuple[str, ...] = ("train", "test")) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "corpus.jsonl").write_text(
        "".join(json.dumps(doc) + "\n" for doc in CORPUS), encoding="utf-8"
    )
    (root / "qrels").mkdir()
    for split in splits:
        queries = [
            {"_id": "q1", "text": "engine power"},
            {"_id": "q2", "text": "crosswind"},
            {"_id": "q3", "text": "unjudged"},
        ]
        (root / f"queries.{split}.jsonl").write_text(
            "".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8"
        )
        (root / "qrels" / f"{split}.tsv").write_text(
            "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t1\nq2\td4\t1\nq3\td1\t0\n",
            encoding="utf-8",
        )
    return root


def test_corpus_lines_become_beir_documents_with_the_line_as_original(tmp_path: Path) -> None:
    root = write_beir(tmp_path / "tiny")
    docs = list(load_corpus(root))
    assert [d.source_id for d in docs] == ["d1", "d2", "d4"]  # d3 has nothing to index
    first = docs[0]
    assert first.kind == "beir"
    assert first.title == "Fuel starvation"
    assert [(s.name, s.text) for s in first.sections] == [("body", "The engine lost power.")]
    assert json.loads(first.original) == CORPUS[0]
    assert first.archive_name == "d1.json"
    assert docs[1].sections[0].text == "Only a title"  # a title-only document is still findable


def test_load_dataset_keeps_judged_queries_and_graded_relevance(tmp_path: Path) -> None:
    dataset = load_dataset(write_beir(tmp_path / "tiny"), "train")
    assert dataset.name == "tiny"
    assert dataset.split == "train"
    assert dataset.queries == {"q1": "engine power", "q2": "crosswind"}  # q3 has no relevant doc
    assert dataset.qrels == {"q1": {"d1": 2, "d2": 1}, "q2": {"d4": 1}}
    assert dataset.corpus_size == 3
    assert [d.source_id for d in dataset.documents()] == ["d1", "d2", "d4"]


def test_splits_are_listed_and_the_default_prefers_test(tmp_path: Path) -> None:
    root = write_beir(tmp_path / "tiny", splits=("train", "test"))
    assert available_splits(root) == ["test", "train"]
    assert default_split(root) == "test"
    assert load_dataset(root).split == "test"
    only_train = write_beir(tmp_path / "other", splits=("train",))
    assert default_split(only_train) == "train"


def test_a_missing_split_is_refused_with_the_available_ones(tmp_path: Path) -> None:
    root = write_beir(tmp_path / "tiny", splits=("train", "dev"))
    with pytest.raises(DatasetError, match=r"no split 'test'; available: dev, train"):
        load_dataset(root, "test")


def test_a_folder_that_is_not_beir_layout_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="is not a folder"):
        load_dataset(tmp_path / "absent")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DatasetError, match="corpus.jsonl is missing"):
        load_dataset(empty)
    (empty / "corpus.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(DatasetError, match="no split has both"):
        load_dataset(empty)


def test_a_malformed_corpus_line_names_file_and_line(tmp_path: Path) -> None:
    root = write_beir(tmp_path / "tiny")
    with (root / "corpus.jsonl").open("a", encoding="utf-8") as handle:
        handle.write("{not json\n")
    with pytest.raises(DatasetError, match=r"corpus.jsonl:5"):
        load_dataset(root, "train")
