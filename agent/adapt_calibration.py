"""`bosun adapt`, after the embedder: fit the offline feature reranker on the adapted collection's
own cosines and map the relevance cutoff's cosine thresholds to the adapted model.

Both were calibrated on the stock MiniLM (the shipped ``providers/data/feature_reranker.json``
and :data:`tools.relevance.COSINE_RESCUE` / ``COSINE_FLOOR``). The reranker is fitted on the
training queries (``--queries``, without the ``--hold-out`` fold) or, without them, on the
question-like anchors mined from the collection (a report's probable cause, a thread's first
message) with their own document as the relevant one, plus the bundled train split of the
off-topic questions; it is stored next to the adapted model and recorded, with its sha256, in
the collection's meta. The thresholds are mapped by matching the stock and adapted best-cosine
distributions of the same probes (:mod:`tools.calibration`). No test query is used.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import time
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from agent.adapt_head import current_head
from agent.wiring import Services
from archive.ingest.reembed import stored_vectors
from archive.store.embedder import (
    CALIBRATION_KEYS,
    CUTOFF_KEY,
    RERANKER_FILE_KEY,
    RERANKER_SHA_KEY,
    RERANKER_TRAINING_KEY,
)
from archive.store.passages import Passage
from archive.store.schema import StoreError
from archive.store.search_filters import SearchFilters
from providers.linear_head import apply_head, stock_vectors
from providers.minilm import default_minilm
from providers.rerankers import rerank_text
from providers.rerankers.base import document_of
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.training import (
    TrainingQuery,
    TrainOptions,
    dump_weights,
    fit_reranker,
    weights_payload,
)
from tools.calibration import best_cosines, map_thresholds, sample_rows
from tools.hybrid import RetrievalOptions, retrieve
from tools.pair_mining import MinedChunk, mine_chunks
from tools.relevance import STOCK_COSINES

logger = logging.getLogger(__name__)

POOL = 40  # candidates per query, as the pipeline reranks
MAX_QUERIES = 1000  # in-domain queries the reranker is fitted on at most
MIN_QUERIES = 30  # fewer with a relevant candidate: the shipped reranker stays
MAX_PROBES = 400  # in-domain probes of the threshold mapping at most
#: Off-topic questions weigh this many times the in-domain queries in total, as in the shipped
#: model (88 off-topic runs x 300 against 4,000 weighted in-domain queries).
OFF_TOPIC_MASS = 6.6
QUESTION_RULES = ("sections", "thread")  # mined pairs whose anchor reads like a question
EXCLUDE_CHARS = 200  # a candidate holding this much of a mined anchor is the anchor's own passage


@dataclass(frozen=True)
class LabelledQuery:
    """A training query: its text, its relevant documents (source ids) and, for a mined
    anchor, the text that marks its own passage (left out: it would teach exact copies)."""

    text: str
    relevant: frozenset[str]
    own: str = ""


def training_queries(
    chunks: list[MinedChunk],
    query_source: tuple[dict[str, str], dict[str, list[str]], str],
    *,
    limit: int = MAX_QUERIES,
    seed: int = 13,
) -> tuple[list[LabelledQuery], str]:
    """The training queries (``--queries`` without the held-out fold, else the mined
    question-like anchors) and what they are."""
    queries, relevant, described = query_source
    if queries:
        found = [LabelledQuery(t, frozenset(relevant.get(q, ()))) for q, t in queries.items()]
    else:
        source_of = {c.embedded: c.source_id for c in chunks}
        seen: set[str] = set()
        found = []
        for pair in mine_chunks(chunks):
            if pair.source in QUESTION_RULES and pair.anchor not in seen:
                seen.add(pair.anchor)
                own = pair.anchor[:EXCLUDE_CHARS]
                found.append(LabelledQuery(pair.anchor, frozenset({source_of[pair.positive]}), own))
        described = f"mined anchors ({', '.join(QUESTION_RULES)})"
    rng = random.Random(seed)
    if len(found) > limit:
        found = rng.sample(found, limit)
    return found, described


def off_topic_questions() -> list[str]:
    """The bundled off-topic questions (the train split of
    ``benchmarks/questions/off_topic.jsonl``; its held-out split is never fitted on)."""
    text = resources.files("providers").joinpath("data/off_topic_train.jsonl").read_text("utf-8")
    return [json.loads(line)["question"] for line in text.splitlines() if line.strip()]


async def calibrate_collection(
    services: Services,
    chunks: list[MinedChunk],
    query_source: tuple[dict[str, str], dict[str, list[str]], str],
) -> dict[str, Any]:
    """Fit the reranker and map the cutoff thresholds for the collection's current embedder,
    write both to its meta (dropping what no longer applies); returns what was done."""
    started = time.perf_counter()
    labelled, described = training_queries(chunks, query_source)
    off_topic = off_topic_questions()
    meta: dict[str, str] = {}
    cutoff = await _cutoff_cosines(services, chunks, labelled, off_topic)
    if cutoff is not None:
        meta[CUTOFF_KEY] = json.dumps(cutoff, sort_keys=True)
    reranker = await _fit_reranker(services, labelled, off_topic, described)
    if reranker is not None:
        payload, report = reranker
        meta.update(await _install_reranker(services, payload, report))
    await _write_meta(services, meta, drop=CALIBRATION_KEYS)
    _remove_old_rerankers(services, keep=meta.get(RERANKER_FILE_KEY))
    return {
        "cutoff_cosines": cutoff,
        "reranker": reranker[1] if reranker else None,
        "seconds": round(time.perf_counter() - started, 1),
    }


async def _cutoff_cosines(
    services: Services, chunks: list[MinedChunk], labelled: list[LabelledQuery], off: list[str]
) -> dict[str, Any] | None:
    """The mapped thresholds (and the probes behind them); ``None`` for a stock collection or
    one re-embedded by a full fine-tune, whose stock vectors are gone (the stock thresholds
    apply, logged)."""
    try:
        head = await current_head(services)
    except StoreError as err:
        logger.warning("cutoff thresholds not recalibrated: %s", err)
        return None
    if head is None:
        return None
    probes = [q for q in labelled if q.relevant][:MAX_PROBES]
    stored = await stored_vectors(services.store)
    ids = list(stored)
    matrix = np.stack([stored[i] for i in ids])
    rows = sample_rows(matrix)
    adapted_passages = matrix[rows]
    stock_passages = stock_vectors(head, adapted_passages)
    position = np.full(len(matrix), -1)
    position[rows] = np.arange(len(rows))
    row_of = {chunk_id: i for i, chunk_id in enumerate(ids)}
    own_rows = [_own_row(q, chunks, row_of) for q in probes]
    exclude = np.array([position[r] if r >= 0 else -1 for r in own_rows] + [-1] * len(off))
    texts = [q.text for q in probes] + off
    stock_probes = await asyncio.to_thread(default_minilm().embed_array, texts)
    adapted_probes = apply_head(head, stock_probes)
    stock_best = best_cosines(stock_probes, stock_passages, exclude=exclude)
    adapted_best = best_cosines(adapted_probes, adapted_passages, exclude=exclude)
    in_domain = np.array([True] * len(probes) + [False] * len(off))
    mapped = map_thresholds(stock_best, adapted_best, in_domain)
    logger.info("cutoff cosines mapped: %s -> %s", STOCK_COSINES, mapped)
    return {
        "rescue": mapped.rescue,
        "floor": mapped.floor,
        "stock": {"rescue": STOCK_COSINES.rescue, "floor": STOCK_COSINES.floor},
        "probes": {"in_domain": len(probes), "off_topic": len(off)},
        "passages": len(rows),
    }


def _own_row(query: LabelledQuery, chunks: list[MinedChunk], row_of: dict[str, int]) -> int:
    """The stored row of a mined anchor's own passage (-1 for a real query)."""
    if not query.own:
        return -1
    for chunk in chunks:
        if query.own in chunk.content:
            return row_of.get(chunk.chunk_id, -1)
    return -1


async def _fit_reranker(
    services: Services, labelled: list[LabelledQuery], off: list[str], described: str
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Retrieve each training query's candidates on the collection as it now is, fit, choose
    the cutoff and the floor; ``None`` (the shipped reranker stays, logged) with too few
    queries that find a relevant candidate."""
    probe = FeatureReranker()
    in_domain: list[TrainingQuery] = []
    for query in labelled:
        candidates = [
            c
            for c in await _candidates(services, query.text)
            if not (query.own and query.own in c["text"])
        ]
        if candidates:
            in_domain.append(_training_query(probe, query.text, candidates, query.relevant, 1.0))
    useful = sum(1 for q in in_domain if q.y.sum() > 0)
    if useful < MIN_QUERIES:
        logger.warning(
            "the shipped reranker stays: %d training queries find a relevant passage (< %d)",
            useful,
            MIN_QUERIES,
        )
        return None
    weight = OFF_TOPIC_MASS * len(in_domain) / max(len(off), 1)
    off_topic = [
        _training_query(probe, text, cands, frozenset(), weight, off_topic=True)
        for text in off
        if (cands := await _candidates(services, text))
    ]
    options = TrainOptions()
    trained = await asyncio.to_thread(fit_reranker, in_domain + off_topic, options)
    cutoff = trained.cutoff(options.max_stop)
    floor = trained.floor(cutoff, options.max_drop)
    report = {
        "queries": described,
        "in_domain": len(in_domain),
        "with_relevant": useful,
        "off_topic": len(off_topic),
        "cutoff": round(cutoff, 4),
        "floor": round(floor, 6),
        "stopped_in_training": round(float(np.mean([b < cutoff for b in trained.train_best])), 4),
        "off_topic_stopped_in_training": round(
            float(np.mean([b < cutoff for b in trained.off_best])) if trained.off_best else 0.0, 4
        ),
    }
    info = {
        "script": "bosun adapt",
        "collection": services.store.schema,
        "embedding_model": services.store.identity.model,
        "candidates_per_query": POOL,
        "off_topic_mass": OFF_TOPIC_MASS,
        **report,
    }
    return weights_payload(trained.weights, cutoff, floor, info), report


async def _candidates(services: Services, text: str) -> list[Passage]:
    options = RetrievalOptions(k=POOL, cosines=True)
    found = await retrieve(services.store, services.embeddings, text, SearchFilters(), options)
    return found.candidates


def _training_query(
    probe: FeatureReranker,
    text: str,
    candidates: list[Passage],
    relevant: frozenset[str],
    weight: float,
    *,
    off_topic: bool = False,
) -> TrainingQuery:
    x = probe.features(text, [rerank_text(c) for c in candidates], candidates=candidates)
    y = np.array([1.0 if c["source_id"] in relevant else 0.0 for c in candidates])
    sources = [document_of(c, i) for i, c in enumerate(candidates)]
    return TrainingQuery(x, y, sources, weight, off_topic)


async def _install_reranker(
    services: Services, payload: dict[str, Any], report: dict[str, Any]
) -> dict[str, str]:
    """Write the weights next to the adapted model; the meta that records them."""
    home = services.settings.home
    folder = home / "models" / services.store.schema
    folder.mkdir(parents=True, exist_ok=True)
    data = dump_weights(payload).encode("utf-8")
    sha = hashlib.sha256(data).hexdigest()
    target = folder / f"feature-reranker-{sha[:12]}.json"
    staging = folder / "fitting-reranker.json"
    staging.write_bytes(data)
    staging.replace(target)
    return {
        RERANKER_FILE_KEY: str(target.relative_to(home)),
        RERANKER_SHA_KEY: sha,
        RERANKER_TRAINING_KEY: json.dumps(report, sort_keys=True),
    }


def _remove_old_rerankers(services: Services, *, keep: str | None) -> None:
    home = services.settings.home
    for old in (home / "models" / services.store.schema).glob("feature-reranker-*.json"):
        if str(old.relative_to(home)) != keep:
            old.unlink()
            logger.info("removed the previous fitted reranker %s", old)


async def _write_meta(services: Services, meta: dict[str, str], *, drop: tuple[str, ...]) -> None:
    async with services.store.pool.connection() as conn, conn.transaction():
        await conn.execute("DELETE FROM meta WHERE key = ANY(%s)", (list(drop),))
        for key, value in meta.items():
            await conn.execute("INSERT INTO meta (key, value) VALUES (%s, %s)", (key, value))


__all__ = ["LabelledQuery", "calibrate_collection", "off_topic_questions", "training_queries"]
