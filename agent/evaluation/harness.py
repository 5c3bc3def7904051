"""Run a BEIR split through retrieval on its own collection (:mod:`agent.evaluation.collections`):
metrics, latency, a run log.

Later layers (query expansion, topics, rerank) reuse :func:`evaluate` by passing their own
``search`` hook: any ``async (query) -> Retrieval``; the harness only needs ranked candidates
(each passage's ``source_id`` is the BEIR corpus id) and the per-stage ``timings_ms``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.metrics import METRICS, aggregate_documents, percentile, score_query
from agent.settings import Settings
from agent.wiring import Services
from archive.store.search_filters import SearchFilters
from tools.hybrid import Retrieval, retrieve
from tools.retrieval_config import RetrievalConfig

logger = logging.getLogger(__name__)

#: Chunks retrieved per query; documents are ranked by their best chunk among these.
EVAL_CHUNKS = 100

SearchHook = Callable[[str], Awaitable[Retrieval]]


@dataclass
class QueryOutcome:
    """What one query returned and how it scored."""

    query_id: str
    ranked: list[str]  # corpus ids, best first
    scores: dict[str, float]  # metric name -> value
    timings_ms: dict[str, float]  # stage -> milliseconds, plus "total"


@dataclass
class EvalResult:
    """Mean metrics over a split's queries and the latency of each retrieval stage."""

    dataset: str
    split: str
    metrics: dict[str, float]  # metric name -> mean over queries
    latency_ms: dict[str, dict[str, float]]  # stage -> {"p50": ms, "p95": ms}
    per_query: list[QueryOutcome] = field(default_factory=list)

    @property
    def queries(self) -> int:
        return len(self.per_query)

    def summary(self) -> dict[str, Any]:
        """The figures ``bosun eval --json`` prints."""
        return {
            **{name: round(value, 4) for name, value in self.metrics.items()},
            "queries": self.queries,
            "latency_ms": {
                stage: {p: round(v, 2) for p, v in values.items()}
                for stage, values in self.latency_ms.items()
            },
        }


# --- running the queries ------------------------------------------------------------------


async def evaluate(
    services: Services,
    dataset: BeirDataset | Path,
    split: str | None = None,
    options: RetrievalConfig | None = None,
    limit: int | None = None,
    *,
    search: SearchHook | None = None,
    filters: SearchFilters | None = None,
) -> EvalResult:
    """Run every query of the split (the first ``limit`` ones) and score the document rankings.

    Without ``search`` each query goes through :func:`tools.hybrid.retrieve` with ``options``
    (``k`` is raised to :data:`EVAL_CHUNKS`). Chunks are turned into a document ranking by each
    document's best chunk score. Queries run one at a time so latencies are not contended.
    """
    if not isinstance(dataset, BeirDataset):
        dataset = load_dataset(Path(dataset), split)
    elif split is not None and split != dataset.split:
        raise ValueError(f"dataset is loaded for split {dataset.split!r}, not {split!r}")
    base = options or RetrievalConfig()
    options = replace(base, k=max(EVAL_CHUNKS, base.results()))
    where = filters or SearchFilters()

    async def default_search(query: str) -> Retrieval:
        return await retrieve(services.store, services.embeddings, query, where, options)

    hook = search or default_search
    outcomes: list[QueryOutcome] = []
    for qid, text in list(dataset.queries.items())[:limit]:
        start = time.perf_counter()
        retrieval = await hook(text)
        timings = {**retrieval.timings_ms, "total": (time.perf_counter() - start) * 1000.0}
        ranked = aggregate_documents([(c["source_id"], c["score"]) for c in retrieval.candidates])[
            :EVAL_CHUNKS
        ]
        outcomes.append(QueryOutcome(qid, ranked, score_query(ranked, dataset.qrels[qid]), timings))
    return summarize(dataset.name, dataset.split, outcomes)


def summarize(dataset: str, split: str, outcomes: list[QueryOutcome]) -> EvalResult:
    """Mean metrics and per-stage p50/p95 over ``outcomes``."""
    n = max(len(outcomes), 1)
    metrics = {name: sum(o.scores[name] for o in outcomes) / n for name in METRICS}
    stages: dict[str, list[float]] = {}
    for outcome in outcomes:
        for stage, ms in outcome.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
    latency = {
        stage: {"p50": percentile(values, 50), "p95": percentile(values, 95)}
        for stage, values in stages.items()
    }
    return EvalResult(dataset, split, metrics, latency, outcomes)


# --- the run log --------------------------------------------------------------------------


def runs_file(settings: Settings, dataset: str) -> Path:
    """``<BOSUN_HOME>/eval/<dataset>/runs.jsonl``."""
    return settings.home / "eval" / dataset / "runs.jsonl"


def record_run(
    settings: Settings,
    result: EvalResult,
    switches: Mapping[str, Any],
    config: Mapping[str, Any] | None = None,
) -> Path:
    """Append one run (dataset, split, switches, metrics, latency, timestamp) to the run log.

    ``switches`` identify the run configuration (runs with equal switches replace each other in the
    chart); ``config`` holds anything else worth keeping (fusion parameters, chunk size).
    """
    path = runs_file(settings, result.dataset)
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "dataset": result.dataset,
        "split": result.split,
        "switches": dict(switches),
        "config": dict(config or {}),
        "metrics": {k: round(v, 6) for k, v in result.metrics.items()},
        "queries": result.queries,
        "latency_ms": result.summary()["latency_ms"],
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")
    return path


def read_runs(path: Path) -> list[dict[str, Any]]:
    """Every run of a run log, oldest first (unreadable lines are skipped)."""
    if not path.is_file():
        return []
    runs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            runs.append(json.loads(line))
        except json.JSONDecodeError:
            logger.warning("skipped an unreadable line of %s", path)
    return runs
