"""`bosun adapt`, after the embedder: fit the offline feature reranker on the adapted collection's
own cosines (the shipped ``providers/data/feature_reranker.json`` was fitted on the stock MiniLM's).

The reranker also reads the collection's vocabulary, a translation model fitted on the same
training pairs as the head (:mod:`providers.rerankers.translation`), stored inside its weights.
It is fitted on the training queries of :mod:`adapt.queries` (each embedded by a head that
never saw it), plus the bundled train split of the off-topic questions; it is stored next to the
adapted model and recorded, with its sha256, in the collection's meta. It orders the passages and
chooses those the answer reads; whether the archive holds an answer stays the stock model's call
(:mod:`tools.stock_relevance`). No test query is used.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from adapt.queries import LabelledQuery
from adapt.reranker_training import (
    TrainingQuery,
    TrainOptions,
    dump_weights,
    fit_reranker,
    weights_payload,
)
from adapt.services import AdaptServices
from archive.store.embedder import (
    CALIBRATION_KEYS,
    RERANKER_FILE_KEY,
    RERANKER_SHA_KEY,
    RERANKER_TRAINING_KEY,
)
from archive.store.passages import Passage
from archive.store.search_filters import SearchFilters
from providers.rerankers import rerank_text
from providers.rerankers.base import document_of
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.translation import TranslationModel
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig

logger = logging.getLogger(__name__)

#: Candidates per query the fitted reranker is fitted on and then orders in every search of the
#: collection (``FeatureWeights.pool``). Narratives retrieval ranks 41st-100th are still found:
#: pc2narr, held out, 100 instead of the shipped 40 gave 0.4871 / 0.5181 nDCG@10 on folds 1 / 2
#: (0.4808 / 0.5133 over every 40-candidate run) for a rerank of 19-20 ms p50 instead of 11.
POOL = 100
#: Boosted trees of the fitted ranker: none. With ~250 training queries (half of a pc2narr
#: fold) trees overfit: held out on the other half of fold 1, the linear ranker gained +0.004
#: and +0.011 nDCG@10 over the fused order, 100 trees -0.012 and +0.002.
TREES = 0
MIN_QUERIES = 30  # fewer with a relevant candidate: the shipped reranker stays
#: Off-topic questions weigh this many times the in-domain queries in total, as in the shipped
#: model (88 off-topic runs x 300 against 4,000 weighted in-domain queries).
OFF_TOPIC_MASS = 6.6


@dataclass
class Collected:
    """One half of the training queries as the head fitted without it sees them."""

    queries: list[TrainingQuery]  # in-domain, with their candidates' features and labels
    off_topic: list[TrainingQuery]  # the bundled off-topic questions (weights set at fitting)


@dataclass(frozen=True)
class Calibrated:
    """What was fitted on the cross-fitted heads, to record for the final one."""

    reranker: tuple[dict[str, Any], dict[str, Any]] | None  # (weights file, report); None: shipped


async def collect(
    services: AdaptServices,
    half: list[LabelledQuery],
    off: list[str],
    vocabulary: TranslationModel,
) -> Collected:
    """Each query's candidates on the collection as it now is (its own passage left out for a
    mined anchor) with their features (``vocabulary``'s too: fitted, like the current head,
    without this half)."""
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
    return Collected(queries, off_topic)


def fit_calibration(
    collected: list[Collected],
    described: str,
    vocabulary: TranslationModel,
    *,
    min_queries: int = MIN_QUERIES,
) -> Calibrated:
    """The reranker fitted on every half's queries, holding ``vocabulary`` (fitted on every
    training query) for its translation features (the shipped reranker stays, logged, when
    fewer than ``min_queries`` find a relevant passage)."""
    return Calibrated(_fit_reranker(collected, described, vocabulary, min_queries=min_queries))


async def record_calibration(services: AdaptServices, calibrated: Calibrated) -> dict[str, Any]:
    """Store the reranker next to the collection's model and record it in its meta
    (dropping what no longer applies); returns what was done."""
    meta: dict[str, str] = {}
    if calibrated.reranker is not None:
        payload, report = calibrated.reranker
        report = {**report, "embedding_model": services.store.identity.model}
        payload = {**payload, "info": {**payload["info"], **report}}
        meta.update(await _install_reranker(services, payload, report))
    await _write_meta(services, meta, drop=CALIBRATION_KEYS)
    _remove_old_rerankers(services, keep=meta.get(RERANKER_FILE_KEY))
    return {"reranker": calibrated.reranker[1] if calibrated.reranker else None}


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
    info = {"script": "bosun adapt", "off_topic_mass": OFF_TOPIC_MASS}
    fitted = replace(trained.weights, pool=POOL)
    return weights_payload(fitted, cutoff, floor, {**info, **report}), report


async def _candidates(services: AdaptServices, text: str) -> list[Passage]:
    options = RetrievalConfig(k=POOL, cosines=True)
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
    services: AdaptServices, payload: dict[str, Any], report: dict[str, Any]
) -> dict[str, str]:
    """Write the weights next to the adapted model; the meta that records them."""
    home = services.home
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


def _remove_old_rerankers(services: AdaptServices, *, keep: str | None) -> None:
    home = services.home
    for old in (home / "models" / services.store.schema).glob("feature-reranker-*.json"):
        if str(old.relative_to(home)) != keep:
            old.unlink()
            logger.info("removed the previous fitted reranker %s", old)


async def _write_meta(
    services: AdaptServices, meta: dict[str, str], *, drop: tuple[str, ...]
) -> None:
    async with services.store.pool.connection() as conn, conn.transaction():
        await conn.execute("DELETE FROM meta WHERE key = ANY(%s)", (list(drop),))
        for key, value in meta.items():
            await conn.execute("INSERT INTO meta (key, value) VALUES (%s, %s)", (key, value))


__all__ = ["Calibrated", "Collected", "collect", "fit_calibration", "record_calibration"]
