"""`bosun adapt`, after the embedder: fit the offline feature reranker on the adapted collection's
own cosines and map the relevance cutoff's cosine thresholds to the adapted model.

The reranker also reads the collection's vocabulary, a translation model fitted on the same
training pairs as the head (:mod:`providers.rerankers.translation`), stored inside its weights.
Both were calibrated on the stock MiniLM (the shipped ``providers/data/feature_reranker.json``
and :data:`tools.relevance.COSINE_RESCUE` / ``COSINE_FLOOR``). The reranker is fitted on the
training queries of :mod:`agent.adapt_queries` (each embedded by a head that never saw it),
plus the bundled train split of the off-topic questions; it is stored next to the adapted model
and recorded, with its sha256, in the collection's meta. The thresholds are mapped by matching
the stock and adapted best cosines of the same probes (:mod:`tools.calibration`). No test query
is used.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from agent.adapt_head import current_head
from agent.adapt_queries import LabelledQuery
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
from providers.rerankers.translation import TranslationModel
from tools.calibration import best_cosines, map_thresholds, sample_rows
from tools.hybrid import RetrievalOptions, retrieve
from tools.pair_mining import MinedChunk
from tools.relevance import STOCK_COSINES

logger = logging.getLogger(__name__)

POOL = 40  # candidates per query, as the pipeline reranks
#: Boosted trees of the fitted ranker: none. With ~250 training queries (half of a pc2narr
#: fold) trees overfit: held out on the other half of fold 1, the linear ranker gained +0.004
#: and +0.011 nDCG@10 over the fused order, 100 trees -0.012 and +0.002.
TREES = 0
MIN_QUERIES = 30  # fewer with a relevant candidate: the shipped reranker stays
MAX_PROBES = 400  # in-domain probes of the threshold mapping at most
#: Off-topic questions weigh this many times the in-domain queries in total, as in the shipped
#: model (88 off-topic runs x 300 against 4,000 weighted in-domain queries).
OFF_TOPIC_MASS = 6.6


@dataclass
class Collected:
    """One half of the training queries as the head fitted without it sees them."""

    queries: list[TrainingQuery]  # in-domain, with their candidates' features and labels
    off_topic: list[TrainingQuery]  # the bundled off-topic questions (weights set at fitting)
    stock_best: np.ndarray  # best cosine over the collection of each probe: stock model
    adapted_best: np.ndarray  # ... and this head (empty: no head to map through)
    in_domain: np.ndarray  # which probes are in-domain queries


@dataclass(frozen=True)
class Calibrated:
    """What was fitted on the cross-fitted heads, to record for the final one."""

    cutoff: dict[str, Any] | None  # the mapped thresholds (None: the stock ones)
    reranker: tuple[dict[str, Any], dict[str, Any]] | None  # (weights file, report); None: shipped


async def collect(
    services: Services,
    chunks: list[MinedChunk],
    half: list[LabelledQuery],
    off: list[str],
    vocabulary: TranslationModel,
) -> Collected:
    """Each query's candidates on the collection as it now is (its own passage left out for a
    mined anchor) with their features (``vocabulary``'s too: fitted, like the current head,
    without this half), and the probes' best cosines under the stock model and the head."""
    probe = FeatureReranker(translation=vocabulary)
    queries = []
    for query in half:
        candidates = [
            c
            for c in await _candidates(services, query.text)
            if not (query.own and query.own in c["text"])
        ]
        if candidates:
            queries.append(_training_query(probe, query.text, candidates, query.relevant, 1.0))
    off_topic = [
        _training_query(probe, text, cands, frozenset(), 1.0, off_topic=True)
        for text in off
        if (cands := await _candidates(services, text))
    ]
    probes = [q for q in half if q.relevant][:MAX_PROBES]
    stock_best, adapted_best = await _probe_cosines(services, chunks, probes, off)
    in_domain = np.array([True] * len(probes) + [False] * len(off))
    return Collected(queries, off_topic, stock_best, adapted_best, in_domain)


def fit_calibration(
    collected: list[Collected],
    described: str,
    vocabulary: TranslationModel,
    *,
    min_queries: int = MIN_QUERIES,
) -> Calibrated:
    """The cutoff thresholds mapped over every half's probes and the reranker fitted on every
    half's queries, holding ``vocabulary`` (fitted on every training query) for its translation
    features (the shipped reranker stays, logged, when fewer than ``min_queries`` find a
    relevant passage)."""
    reranker = _fit_reranker(collected, described, vocabulary, min_queries=min_queries)
    return Calibrated(_mapped_cosines(collected), reranker)


async def record_calibration(services: Services, calibrated: Calibrated) -> dict[str, Any]:
    """Store the reranker next to the collection's model and write both to its meta
    (dropping what no longer applies); returns what was done."""
    meta: dict[str, str] = {}
    if calibrated.cutoff is not None:
        meta[CUTOFF_KEY] = json.dumps(calibrated.cutoff, sort_keys=True)
    if calibrated.reranker is not None:
        payload, report = calibrated.reranker
        report = {**report, "embedding_model": services.store.identity.model}
        payload = {**payload, "info": {**payload["info"], **report}}
        meta.update(await _install_reranker(services, payload, report))
    await _write_meta(services, meta, drop=CALIBRATION_KEYS)
    _remove_old_rerankers(services, keep=meta.get(RERANKER_FILE_KEY))
    return {
        "cutoff_cosines": calibrated.cutoff,
        "reranker": calibrated.reranker[1] if calibrated.reranker else None,
    }


async def _probe_cosines(
    services: Services, chunks: list[MinedChunk], probes: list[LabelledQuery], off: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    """The probes' best cosines (a mined anchor's own passage left out) under the stock model
    and the collection's head; both empty for a collection without a head (stock, or re-embedded
    by a full fine-tune, whose stock vectors are gone: logged)."""
    empty = np.zeros(0)
    try:
        head = await current_head(services)
    except StoreError as err:
        logger.warning("cutoff thresholds not recalibrated: %s", err)
        return empty, empty
    if head is None:
        return empty, empty
    stored = await stored_vectors(services.store)
    ids = list(stored)
    matrix = np.stack([stored[i] for i in ids])
    rows = sample_rows(matrix)
    position = np.full(len(matrix), -1)
    position[rows] = np.arange(len(rows))
    row_of = {chunk_id: i for i, chunk_id in enumerate(ids)}
    own_rows = [_own_row(q, chunks, row_of) for q in probes]
    exclude = np.array([position[r] if r >= 0 else -1 for r in own_rows] + [-1] * len(off))
    stock = await asyncio.to_thread(default_minilm().embed_array, [q.text for q in probes] + off)
    adapted_passages = matrix[rows]
    return (
        best_cosines(stock, stock_vectors(head, adapted_passages), exclude=exclude),
        best_cosines(apply_head(head, stock), adapted_passages, exclude=exclude),
    )


def _mapped_cosines(collected: list[Collected]) -> dict[str, Any] | None:
    if any(len(c.adapted_best) == 0 for c in collected):
        return None
    in_domain = np.concatenate([c.in_domain for c in collected])
    if in_domain.all() or not in_domain.any():
        logger.warning("cutoff thresholds not recalibrated: no in-domain or off-topic probes")
        return None
    mapped = map_thresholds(
        np.concatenate([c.stock_best for c in collected]),
        np.concatenate([c.adapted_best for c in collected]),
        in_domain,
    )
    logger.info("cutoff cosines mapped: %s -> %s", STOCK_COSINES, mapped)
    return {
        "rescue": mapped.rescue,
        "floor": mapped.floor,
        "stock": {"rescue": STOCK_COSINES.rescue, "floor": STOCK_COSINES.floor},
        "probes": {"in_domain": int(in_domain.sum()), "off_topic": int((~in_domain).sum())},
    }


def _own_row(query: LabelledQuery, chunks: list[MinedChunk], row_of: dict[str, int]) -> int:
    """The stored row of a mined anchor's own passage (-1 for a real query)."""
    if not query.own:
        return -1
    for chunk in chunks:
        if query.own in chunk.content:
            return row_of.get(chunk.chunk_id, -1)
    return -1


def _fit_reranker(
    collected: list[Collected], described: str, vocabulary: TranslationModel, *, min_queries: int
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    in_domain = [q for c in collected for q in c.queries]
    useful = sum(1 for q in in_domain if q.y.sum() > 0)
    if useful < min_queries:
        logger.warning(
            "the shipped reranker stays: %d training queries find a relevant passage (< %d)",
            useful,
            min_queries,
        )
        return None
    off = [q for c in collected for q in c.off_topic]
    weight = OFF_TOPIC_MASS * len(in_domain) / max(len(off), 1)
    options = TrainOptions(trees=TREES)
    trained = fit_reranker(
        in_domain + [replace(q, weight=weight) for q in off], options, vocabulary
    )
    cutoff = trained.cutoff(options.max_stop)
    floor = trained.floor(cutoff, options.max_drop)
    report = {
        "queries": described,
        "in_domain": len(in_domain),
        "with_relevant": useful,
        "off_topic": len(off),
        "trees": options.trees,
        "vocabulary": {
            "pairs": vocabulary.pairs,
            "translations": sum(len(row) for row in vocabulary.table.values()),
        },
        "cutoff": round(cutoff, 4),
        "floor": round(floor, 6),
        "stopped_in_training": round(float(np.mean([b < cutoff for b in trained.train_best])), 4),
        "off_topic_stopped_in_training": round(
            float(np.mean([b < cutoff for b in trained.off_best])) if trained.off_best else 0.0, 4
        ),
    }
    info = {"script": "bosun adapt", "candidates_per_query": POOL, "off_topic_mass": OFF_TOPIC_MASS}
    return weights_payload(trained.weights, cutoff, floor, {**info, **report}), report


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


__all__ = ["Calibrated", "Collected", "collect", "fit_calibration", "record_calibration"]
