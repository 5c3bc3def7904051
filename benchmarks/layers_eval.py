"""What each retrieval quality layer adds on the BEIR dev splits (nDCG@10, recall@100, latency).

    python benchmarks/layers_eval.py ../shared/data/beir/scifact:train \\
        ../shared/data/beir/ntsb_pc2narr:dev [--layers enrich,titles,expand,topics] [--limit N] \
        [--lexical-only]

Every run goes through agent.evaluation.harness.evaluate (hybrid retrieval, default options) on
the eval collection `bosun eval` builds (ingested here when missing: minutes), with a search hook
per layer:

- enrich: the corpus ingested again with the ingest-time context summary prepended to each
  passage's embedding text (collection ``<eval collection>_enriched``), compared with the plain
  collection, hybrid and dense-only;
- titles: the corpus ingested again with every passage embedded under its title, metadata-line
  titles included (collection ``<eval collection>_titled``), hybrid and dense-only;
- expand: pseudo-relevance feedback (tools.expansion.PseudoRelevanceExpander) with a few settings,
  and the nearest-topics expander when topics exist;
- topics: the topic filter (tools.topics.retrieve_with_topics) on a copy of the eval collection
  (``layers_<name>``, made inside the same database, its topics built there) so the eval
  collection itself is only read.

``--lexical-only`` runs every configuration on the BM25 arm alone (no embedding per query: a
quicker signal). Prints one markdown table per split: configuration, nDCG@10, its change against
the baseline, recall@100, p50 latency.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from pathlib import Path

from psycopg import sql
from tqdm import tqdm

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.collections import (
    DEFAULT_CHUNK_CHARS,
    DEFAULT_OVERLAP,
    collection_name,
    open_eval_services,
)
from agent.evaluation.harness import EvalResult, evaluate
from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.chunking import chunk_document
from archive.ingest.enrich import enrich
from archive.ingest.model import Chunk, SourceDocument
from archive.ingest.topics import build_topics
from archive.ingest.writer import embedding_text, write_documents
from archive.store.search_filters import SearchFilters
from tools.expansion import PRFConfig, PseudoRelevanceExpander, TopicExpander
from tools.hybrid import Retrieval, retrieve
from tools.retrieval_config import RetrievalConfig
from tools.topics import TopicFilterConfig, retrieve_with_topics

logger = logging.getLogger("layers_eval")

Hook = Callable[[str], Awaitable[Retrieval]]
Row = tuple[str, EvalResult]

PRF_SETTINGS = {
    "prf: 10 passages, 3 terms": PRFConfig(feedback=10, terms=3),
    "prf: 10 passages, 5 terms": PRFConfig(feedback=10, terms=5),
}
_CHUNK_COLUMNS = (
    "chunk_id, content, embedding, doc_id, ordinal, kind, source_id, title, thread_id, date, "
    "sender, vessel_name, imo, vessel_type, vessel_class, report_no, section, page, "
    "langchain_metadata"
)


# --- collections --------------------------------------------------------------------------


async def ingest_variant(
    services: Services,
    dataset: BeirDataset,
    text_of: Callable[[SourceDocument, Chunk], str],
    *,
    prepare: Callable[[SourceDocument], SourceDocument] = lambda doc: doc,
    batch: int = 64,
) -> int:
    """The corpus through ``prepare``, each passage embedded as ``text_of`` says (resumable);
    documents written."""
    bar = tqdm(total=dataset.corpus_size, desc=f"{services.store.schema}", file=sys.stderr)
    report = await write_documents(
        (prepare(raw) for raw in dataset.documents()),
        services.store,
        services.embeddings,
        services.archive,
        text_of=text_of,
        chunker=partial(chunk_document, max_chars=DEFAULT_CHUNK_CHARS, overlap=DEFAULT_OVERLAP),
        batch_chunks=batch,
        on_batch=bar.update,
    )
    bar.close()
    return report.added + report.updated


def summary_prefixed(doc: SourceDocument, chunk: Chunk) -> str:
    """The passage's embedding text under the document's context summary and ``---``."""
    return f"{doc.summary}\n---\n{embedding_text(doc, chunk)}"


@contextlib.asynccontextmanager
async def copied_collection(
    settings: Settings, source: str, target: str
) -> AsyncIterator[Services]:
    """Services on ``target`` (same database), filled from ``source`` when empty (BM25 rebuilt by
    the chunk triggers)."""
    async with open_services(settings, collection=target) as services:
        async with services.store.pool.connection() as conn:
            cur = await conn.execute("SELECT count(*) AS n FROM documents")
            row = await cur.fetchone()
            if row and row["n"] == 0:
                started = time.perf_counter()
                src, dst = sql.Identifier(source), sql.Identifier(target)
                await conn.execute(
                    sql.SQL("INSERT INTO {}.documents SELECT * FROM {}.documents").format(dst, src)
                )
                columns = sql.SQL(_CHUNK_COLUMNS)
                await conn.execute(
                    sql.SQL("INSERT INTO {}.chunks ({}) SELECT {} FROM {}.chunks").format(
                        dst, columns, columns, src
                    )
                )
                logger.info(
                    "copied %s to %s in %.0f s", source, target, time.perf_counter() - started
                )
        yield services


# --- hooks --------------------------------------------------------------------------------


def expanded(
    services: Services,
    expander: PseudoRelevanceExpander | TopicExpander,
    options: RetrievalConfig,
) -> Hook:
    async def search(query: str) -> Retrieval:
        started = time.perf_counter()
        text = (await expander.expand(query)).text
        took = (time.perf_counter() - started) * 1000.0
        retrieval = await retrieve(
            services.store, services.embeddings, text, SearchFilters(), options
        )
        retrieval.timings_ms["expand"] = took
        return retrieval

    return search


def topic_filtered(
    services: Services, config: TopicFilterConfig, decisions: Counter, options: RetrievalConfig
) -> Hook:
    async def search(query: str) -> Retrieval:
        result = await retrieve_with_topics(
            services.store,
            services.embeddings,
            query,
            SearchFilters(),
            options,
            config,
        )
        decisions[result.decision] += 1
        return result.retrieval

    return search


# --- runs ---------------------------------------------------------------------------------


async def run_split(
    settings: Settings,
    dataset: BeirDataset,
    layers: set[str],
    limit: int | None,
    lexical_only: bool = False,
) -> list[Row]:
    rows: list[Row] = []
    dense = RetrievalConfig(lexical=False)
    arms = RetrievalConfig(dense=False, k=100) if lexical_only else RetrievalConfig(k=100)
    name = "BM25 only" if lexical_only else "hybrid"
    async with open_eval_services(settings, dataset, progress=True) as base:
        baseline = await evaluate(base, dataset, options=arms, limit=limit)
        rows.append((f"baseline ({name})", baseline))
        if "enrich" in layers:
            rows.append(("dense only", await evaluate(base, dataset, options=dense, limit=limit)))
            name = f"{collection_name(dataset.name)}_enriched"
            async with open_services(settings, collection=name) as enriched:
                await ingest_variant(enriched, dataset, summary_prefixed, prepare=enrich)
                hybrid = await evaluate(enriched, dataset, limit=limit)
                rows.append(("enrich: summary-prefixed (hybrid)", hybrid))
                alone = await evaluate(enriched, dataset, options=dense, limit=limit)
                rows.append(("enrich: summary-prefixed (dense only)", alone))
        if "titles" in layers:
            if "enrich" not in layers:
                rows.append(
                    ("dense only", await evaluate(base, dataset, options=dense, limit=limit))
                )
            name = f"{collection_name(dataset.name)}_titled"
            async with open_services(settings, collection=name) as titled:
                await ingest_variant(titled, dataset, lambda d, c: f"{d.title}\n{c.text}")
                for label, options in (("hybrid", None), ("dense only", dense)):
                    result = await evaluate(titled, dataset, options=options, limit=limit)
                    rows.append((f"every title embedded ({label})", result))
        if "expand" in layers:
            for label, config in PRF_SETTINGS.items():
                expander = PseudoRelevanceExpander(base.store, config)
                hook = expanded(base, expander, arms)
                rows.append((label, await evaluate(base, dataset, limit=limit, search=hook)))
    if "topics" in layers:
        async with copied_collection(
            settings, collection_name(dataset.name), f"layers_{dataset.name}"
        ) as copy:
            stats = await build_topics(copy.store, copy.embeddings)
            logger.info("topics of %s: %s", dataset.name, stats)
            for label, config in {
                "topics: filter (default)": TopicFilterConfig(),
                "topics: filter, min_results 20": TopicFilterConfig(min_results=20),
                "topics: filter, document scope, min_results 20": TopicFilterConfig(
                    scope="document", min_results=20
                ),
            }.items():
                decisions: Counter = Counter()
                hook = topic_filtered(copy, config, decisions, arms)
                result = await evaluate(copy, dataset, limit=limit, search=hook)
                shares = ", ".join(f"{k} {v}" for k, v in sorted(decisions.items()))
                rows.append((f"{label} [{shares}]", result))
            expander = TopicExpander(copy.store, copy.embeddings)
            hook = expanded(copy, expander, arms)
            rows.append(
                ("expand: nearest topics", await evaluate(copy, dataset, limit=limit, search=hook))
            )
    return rows


def table(dataset: BeirDataset, rows: list[Row]) -> str:
    base = rows[0][1].metrics["ndcg@10"]
    lines = [
        f"\n{dataset.name} ({dataset.split}, {rows[0][1].queries} queries)\n",
        "| configuration | nDCG@10 | Δ | recall@100 | p50 ms |",
        "|---|---|---|---|---|",
    ]
    for label, result in rows:
        ndcg = result.metrics["ndcg@10"]
        recall = result.metrics.get("recall@100", float("nan"))
        p50 = result.latency_ms.get("total", {}).get("p50", float("nan"))
        lines.append(f"| {label} | {ndcg:.4f} | {ndcg - base:+.4f} | {recall:.4f} | {p50:.0f} |")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("splits", nargs="+", help="path:split, e.g. ../shared/data/beir/ntsb:dev")
    parser.add_argument("--layers", default="enrich,titles,expand,topics")
    parser.add_argument("--limit", type=int, default=None, help="first N queries only")
    parser.add_argument("--lexical-only", action="store_true", help="BM25 arm only (no dense)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = Settings.from_env()
    layers = {layer.strip() for layer in args.layers.split(",") if layer.strip()}
    for spec in args.splits:
        path, _, split = spec.partition(":")
        dataset = load_dataset(Path(path), split or None)
        rows = await run_split(settings, dataset, layers, args.limit, args.lexical_only)
        print(table(dataset, rows), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
