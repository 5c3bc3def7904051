"""Bosun's BM25 arm beside a plain BM25 library (``bm25s``) on the shared BEIR dev splits.

    python benchmarks/bm25_parity.py [--limit N] [--json]

For each split (SciFact ``train``, ntsb_pc2narr ``dev``; ``--data`` for the folder holding them):

- ``bm25s``: one document = title + " " + text, bm25s's tokenizer with its English stop words
  and PyStemmer's English Snowball stemmer, its defaults otherwise (Lucene BM25, k1 1.5,
  b 0.75); the top 100 documents.
- Bosun, through ``bosun eval``'s own machinery (the dataset's collection under
  ``$BOSUN_HOME``, ingested once, then the product's pipeline): the BM25 arm alone, the hybrid
  without rerank, and the default (hybrid + rerank). Documents are ranked in the order of the
  100 passages the pipeline returns, as ``bosun eval`` ranks them (the BM25 arm returns one
  passage per document, ranked by document-level BM25: ``archive/store/document_bm25.py``).
  Beside them the BM25 arm asked the question as written (``tools.hybrid.retrieve``, lexical
  only), without what the pipeline does to a query first (the other written forms it appends of
  a model name the collection does not hold as written: ``text.models.with_model_forms``).

Prints nDCG@10 and Recall@100 side by side; bm25s comes with ``pip install -e ".[dev]"``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import bm25s
import Stemmer
from render import ROOT, Table, emit

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.collections import DEFAULT_CHUNK_CHARS, collection_name
from agent.evaluation.command import prepare_collection
from agent.evaluation.harness import EVAL_CHUNKS, evaluate
from agent.evaluation.layers import Layers, layered_search
from agent.evaluation.metrics import ndcg_at_k, recall_at_k
from agent.settings import Settings
from agent.wiring import open_services
from archive.store.search_filters import SearchFilters
from tools.hybrid import Retrieval, retrieve
from tools.retrieval_config import RetrievalConfig

#: The shared dev splits: (folder under --data, split).
SPLITS = (("scifact", "train"), ("ntsb_pc2narr", "dev"))

#: Bosun's configurations, by the label printed.
CONFIGURATIONS = (
    ("Bosun BM25", Layers(dense=False, rerank=False)),
    ("Bosun hybrid", Layers(rerank=False)),
    ("Bosun default (hybrid + rerank)", Layers()),
)


#: The BM25 arm alone, the question as written.
ARM_LABEL = "Bosun BM25 arm, question as written"
ARM = RetrievalConfig(dense=False, k=EVAL_CHUNKS)
NONE = SearchFilters()


def bm25s_scores(dataset: BeirDataset, limit: int | None) -> tuple[float, float]:
    """Mean nDCG@10 and Recall@100 of plain bm25s over the split's first ``limit`` queries."""
    ids, texts = [], []
    for doc in dataset.documents():
        ids.append(doc.source_id)
        texts.append(doc.title + " " + " ".join(s.text for s in doc.sections))
    stemmer = Stemmer.Stemmer("english")
    model = bm25s.BM25()
    corpus = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    model.index(corpus, show_progress=False)
    queries = list(dataset.queries.items())[:limit]
    tokens = bm25s.tokenize(
        [text for _, text in queries], stopwords="en", stemmer=stemmer, show_progress=False
    )
    found, scores = model.retrieve(tokens, k=min(EVAL_CHUNKS, len(ids)), show_progress=False)
    ndcg = recall = 0.0
    for (qid, _), row, row_scores in zip(queries, found, scores, strict=True):
        ranked = [ids[i] for i, s in zip(row, row_scores, strict=True) if s > 0]
        ndcg += ndcg_at_k(ranked, dataset.qrels[qid], 10)
        recall += recall_at_k(ranked, dataset.qrels[qid], 100)
    return ndcg / len(queries), recall / len(queries)


async def bosun_scores(
    settings: Settings, dataset: BeirDataset, limit: int | None
) -> list[tuple[str, float, float]]:
    """(label, nDCG@10, Recall@100) of each of :data:`CONFIGURATIONS` on the split."""
    collection = collection_name(dataset.name, DEFAULT_CHUNK_CHARS)
    out = []
    async with open_services(settings, collection=collection) as services:
        await prepare_collection(services, dataset, DEFAULT_CHUNK_CHARS, collection)
        for label, layers in CONFIGURATIONS:
            search = await layered_search(services, layers, EVAL_CHUNKS)
            result = await evaluate(services, dataset, limit=limit, search=search)
            out.append((label, result.metrics["ndcg@10"], result.metrics["recall@100"]))

        async def arm(text: str) -> Retrieval:
            return await retrieve(services.store, services.embeddings, text, NONE, ARM)

        result = await evaluate(services, dataset, limit=limit, search=arm)
        out.insert(1, (ARM_LABEL, result.metrics["ndcg@10"], result.metrics["recall@100"]))
    return out


def split_arguments(description: str) -> argparse.Namespace:
    """The command line of the BM25 benchmark: ``--data``, ``--only``, ``--limit``, ``--json``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT.parent / "shared" / "data" / "beir",
        help="folder holding scifact/ and ntsb_pc2narr/ (default: ../shared/data/beir)",
    )
    parser.add_argument(
        "--only", choices=[folder for folder, _ in SPLITS], help="run one dataset's split only"
    )
    parser.add_argument("--limit", type=int, help="only the first N queries of each split")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    return parser.parse_args()


def splits(args: argparse.Namespace) -> list[tuple[str, BeirDataset]]:
    """Each chosen split's table label ("scifact/train (809 q)") and dataset; SystemExit 2
    when the shared data folder is missing."""
    out = []
    for folder, split in SPLITS:
        if args.only and folder != args.only:
            continue
        path = args.data / folder
        if not path.is_dir():
            print(f"{path} is missing: the shared data folder is needed", file=sys.stderr)  # noqa: T201
            raise SystemExit(2)
        dataset = load_dataset(path, split)
        out.append(
            (f"{dataset.name}/{split} ({len(list(dataset.queries)[: args.limit])} q)", dataset)
        )
    return out


def command_of(script: str, args: argparse.Namespace) -> str:
    """The command line that reproduces this run, as the docs' tables name it."""
    only = f" --only {args.only}" if args.only else ""
    limit = only + (f" --limit {args.limit}" if args.limit else "")
    return f"python benchmarks/{script}{limit} --json"


async def main() -> int:
    args = split_arguments(__doc__.splitlines()[0])
    settings = Settings.from_env()
    rows: list[list[object]] = []
    for name, dataset in splits(args):
        ndcg, recall = bm25s_scores(dataset, args.limit)
        rows.append([name, "bm25s (k1 1.5, b 0.75)", round(ndcg, 4), round(recall, 4)])
        for label, ndcg, recall in await bosun_scores(settings, dataset, args.limit):
            rows.append([name, label, round(ndcg, 4), round(recall, 4)])
    columns = ["split", "ranker", "nDCG@10", "Recall@100"]
    emit(command_of("bm25_parity.py", args), [Table("parity", columns, rows)], as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
