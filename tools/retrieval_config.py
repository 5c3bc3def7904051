"""The retrieval configuration, declared once: every switch and threshold of the pipeline, with
its default and its validation.

The graph's run context (:class:`graph.context.Context`) is one, the pipeline
(:func:`tools.pipeline.run_pipeline`) and hybrid retrieval (:func:`tools.hybrid.retrieve`) take
one, and `bosun ask/chat/search/eval` build one from their switches. A bad value is refused when the
configuration is made, with the field named, never deep inside a search.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tools.fusion import FusionConfig

#: Candidates a bare retrieval returns when ``k`` is not set and nothing is reranked.
RESULTS = 10


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the field."""


@dataclass(frozen=True)
class RetrievalConfig:
    """Switches and thresholds of one retrieval; every layer can be turned off to A/B test it."""

    lexical: bool = True  # BM25 arm (False: vector only)
    dense: bool = True  # vector arm (False: BM25 only)
    # Off by default: measured harmful (benchmarks/layers_eval.py; `bosun eval --ablation`).
    expand: bool = False  # query expansion, when the pipeline has an expander
    topics: bool = False  # topic filter (strict -> loosened -> dropped; structural filters kept)
    rerank: bool = True  # cross-encoder / feature reranker over the fused candidates
    # Candidates reranked; None: the reranker's own (``Reranker.pool``: 40, or what `bosun adapt`
    # fitted the collection's reranker on).
    pool: int | None = None
    k: int | None = None  # candidates retrieved; None: the pool (a bare retrieval: RESULTS)
    arm_rows: int = 100  # rows each arm contributes before fusion
    similarity_floor: float = 0.3  # dense-only hits below this cosine are dropped
    rerank_floor: float | None = None  # drop reranked passages below; None: the reranker's own
    score_cutoff: float | None = None  # best relevance below this: no answer; None: reranker's
    cosines: bool = False  # score cosines even with the dense arm off (the reranker reads them)
    fusion: FusionConfig = field(default_factory=FusionConfig)  # how the two arms are combined

    def __post_init__(self) -> None:
        name = type(self).__name__
        for f in dataclasses.fields(RetrievalConfig):
            value = getattr(self, f.name)
            if f.name == "fusion":
                if isinstance(value, Mapping):  # from JSON (a tool call, an HTTP context)
                    object.__setattr__(self, "fusion", _fusion(name, value))
                elif not isinstance(value, FusionConfig):
                    raise ConfigError(f"{name}.fusion must be a FusionConfig, got {value!r}")
            elif f.default is True or f.default is False:
                _check_bool(name, f.name, value)
        for count in ("pool", "k"):
            _check_count(name, count, getattr(self, count), optional=True)
        _check_count(name, "arm_rows", self.arm_rows, optional=False)
        _check_number(name, "similarity_floor", self.similarity_floor, optional=False)
        if not -1.0 <= self.similarity_floor <= 1.0:
            raise ConfigError(
                f"{name}.similarity_floor is a cosine, between -1 and 1; "
                f"got {self.similarity_floor!r}"
            )
        _check_number(name, "rerank_floor", self.rerank_floor, optional=True)
        _check_number(name, "score_cutoff", self.score_cutoff, optional=True)
        if not (self.lexical or self.dense):
            raise ConfigError(f"{name}: at least one retrieval arm (lexical, dense) must be on")

    def as_dict(self) -> dict[str, Any]:
        """The retrieval fields as plain data (what the search tool's ``options`` carry)."""
        data = {f.name: getattr(self, f.name) for f in _FIELDS}
        data["fusion"] = dataclasses.asdict(self.fusion)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RetrievalConfig:
        """A configuration from plain data; an unknown key is refused by name."""
        data = dict(data or {})
        known = {f.name for f in _FIELDS}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"RetrievalConfig has no field {', '.join(map(repr, unknown))} "
                f"(known: {', '.join(sorted(known))})"
            )
        return RetrievalConfig(**data)

    def results(self, pool: int | None = None) -> int:
        """Candidates retrieved: ``k``, else the ``pool`` reranked, else :data:`RESULTS`."""
        if self.k is not None:
            return self.k
        return pool if pool is not None else RESULTS


_FIELDS = dataclasses.fields(RetrievalConfig)


def _check_bool(owner: str, name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ConfigError(f"{owner}.{name} must be true or false, got {value!r}")


def _check_count(owner: str, name: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        allowed = "a whole number of at least 1" + (" or None" if optional else "")
        raise ConfigError(f"{owner}.{name} must be {allowed}, got {value!r}")


def _check_number(owner: str, name: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(float(value))
    ):
        allowed = "a finite number" + (" or None" if optional else "")
        raise ConfigError(f"{owner}.{name} must be {allowed}, got {value!r}")


def _fusion(owner: str, data: Mapping[str, Any]) -> FusionConfig:
    try:
        return FusionConfig(**data)
    except TypeError as err:
        raise ConfigError(f"{owner}.fusion: {err}") from None
