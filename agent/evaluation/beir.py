"""BEIR-layout datasets: ``corpus.jsonl``, ``queries.<split>.jsonl``, ``qrels/<split>.tsv``."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from archive.ingest.model import Section, SourceDocument

logger = logging.getLogger(__name__)

#: The split used when none is asked for, in order of preference.
PREFERRED_SPLITS = ("test", "dev", "train")


class DatasetError(Exception):
    """The folder is not a usable BEIR dataset; the message says what is wrong."""


@dataclass(frozen=True)
class BeirDataset:
    """One split of a BEIR dataset: judged queries, their qrels, and where the corpus is."""

    name: str  # folder name, e.g. "scifact"
    path: Path
    split: str
    queries: dict[str, str]  # query id -> text, file order, only queries with a relevant document
    qrels: dict[str, dict[str, int]]  # query id -> {corpus id: graded relevance}
    corpus_size: int  # documents load_corpus yields

    def documents(self) -> Iterator[SourceDocument]:
        """The corpus as source documents (read lazily from disk)."""
        return load_corpus(self.path)


def check_layout(path: Path) -> None:
    """Raise DatasetError unless ``path`` holds ``corpus.jsonl`` and at least one split."""
    if not path.is_dir():
        raise DatasetError(f"{path} is not a folder")
    if not (path / "corpus.jsonl").is_file():
        raise DatasetError(
            f"{path} is not a BEIR dataset: corpus.jsonl is missing "
            "(expected corpus.jsonl, queries.<split>.jsonl and qrels/<split>.tsv)"
        )
    if not available_splits(path):
        raise DatasetError(
            f"{path} is not a BEIR dataset: no split has both qrels/<split>.tsv and "
            "queries.<split>.jsonl (or queries.jsonl)"
        )


def available_splits(path: Path) -> list[str]:
    """Splits with judgements and queries, sorted by name."""
    qrels = path / "qrels"
    if not qrels.is_dir():
        return []
    shared = (path / "queries.jsonl").is_file()
    return sorted(
        tsv.stem
        for tsv in qrels.glob("*.tsv")
        if shared or (path / f"queries.{tsv.stem}.jsonl").is_file()
    )


def default_split(path: Path) -> str:
    """``test``, else ``dev``, else ``train``, else the first available split."""
    splits = available_splits(path)
    for name in PREFERRED_SPLITS:
        if name in splits:
            return name
    if not splits:
        raise DatasetError(f"{path} has no split with qrels/<split>.tsv and queries")
    return splits[0]


def corpus_document(line: bytes) -> SourceDocument | None:
    """The document of one corpus line; None when it has neither text nor title."""
    record = json.loads(line)
    if not isinstance(record, dict) or "_id" not in record:
        raise ValueError("corpus line is not an object with an _id")
    doc_id = str(record["_id"])
    title = str(record.get("title") or "").strip()
    body = str(record.get("text") or "").strip() or title
    if not body:
        return None
    return SourceDocument(
        kind="beir",
        source_id=doc_id,
        title=title,
        sections=[Section("body", body)],
        original=line.rstrip(b"\r\n"),
        archive_name=f"{doc_id}.json",
    )


def load_corpus(path: Path) -> Iterator[SourceDocument]:
    """Every indexable document of ``corpus.jsonl``; a malformed line raises DatasetError."""
    corpus = path / "corpus.jsonl"
    with corpus.open("rb") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                doc = corpus_document(line)
            except (ValueError, UnicodeDecodeError) as err:
                raise DatasetError(f"{corpus}:{lineno}: {err}") from err
            if doc is None:
                logger.info("%s:%d has no text; not indexed", corpus, lineno)
                continue
            yield doc


def corpus_size(path: Path) -> int:
    """How many documents :func:`load_corpus` yields."""
    return sum(1 for _ in load_corpus(path))


def load_queries(path: Path, split: str) -> dict[str, str]:
    """Query id -> text of a split, in file order."""
    file = path / f"queries.{split}.jsonl"
    if not file.is_file():
        file = path / "queries.jsonl"
    queries: dict[str, str] = {}
    with file.open("rb") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                queries[str(record["_id"])] = str(record["text"])
            except (ValueError, KeyError, TypeError) as err:
                raise DatasetError(f"{file}:{lineno}: not a query line ({err})") from err
    return queries


def load_qrels(path: Path, split: str) -> dict[str, dict[str, int]]:
    """Query id -> {corpus id: relevance} of a split (the header line is optional)."""
    file = path / "qrels" / f"{split}.tsv"
    qrels: dict[str, dict[str, int]] = {}
    with file.open(encoding="utf-8") as handle:
        for lineno, line in enumerate(handle, start=1):
            fields = line.rstrip("\r\n").split("\t")
            if not line.strip() or (lineno == 1 and fields[0] == "query-id"):
                continue
            if len(fields) < 3:
                raise DatasetError(f"{file}:{lineno}: expected query-id, corpus-id, score")
            try:
                score = int(float(fields[2]))
            except ValueError as err:
                raise DatasetError(f"{file}:{lineno}: score {fields[2]!r} is not a number") from err
            qrels.setdefault(fields[0], {})[fields[1]] = score
    return qrels


def load_dataset(path: Path, split: str | None = None) -> BeirDataset:
    """Load a split (default: :func:`default_split`); DatasetError lists the available ones."""
    path = Path(path)
    check_layout(path)
    split = split or default_split(path)
    splits = available_splits(path)
    if split not in splits:
        raise DatasetError(f"{path.name} has no split {split!r}; available: {', '.join(splits)}")
    qrels = load_qrels(path, split)
    queries = {
        qid: text
        for qid, text in load_queries(path, split).items()
        if any(score > 0 for score in qrels.get(qid, {}).values())
    }
    if not queries:
        raise DatasetError(f"{path.name}/{split}: no query has a relevant document in the qrels")
    return BeirDataset(
        name=path.resolve().name,
        path=path,
        split=split,
        queries=queries,
        qrels={qid: qrels[qid] for qid in queries},
        corpus_size=corpus_size(path),
    )
