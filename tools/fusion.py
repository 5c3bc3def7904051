"""Fusing the lexical and dense rankings into one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

FusionMethod = Literal["convex", "rrf"]


@dataclass(frozen=True)
class FusionConfig:
    """How the two arms are combined (tuned on the dev splits, see benchmarks/)."""

    method: FusionMethod = "convex"
    lexical_weight: float = 0.6  # convex: share of the normalised BM25 score
    rrf_k: int = 60  # rrf: rank constant
    rrf_lexical_weight: float = 1.0  # rrf: weight of the BM25 ranking (dense is 1)


def rrf(
    lexical: Mapping[str, float], dense: Mapping[str, float], *, k: int, lexical_weight: float
) -> dict[str, float]:
    """Weighted Reciprocal Rank Fusion over the two rankings (missing = not ranked)."""
    fused: dict[str, float] = {}
    for weight, ranking in ((lexical_weight, lexical), (1.0, dense)):
        ordered = sorted(ranking, key=lambda cid: -ranking[cid])
        for rank, cid in enumerate(ordered, start=1):
            fused[cid] = fused.get(cid, 0.0) + weight / (k + rank)
    return fused


def convex(
    lexical: Mapping[str, float], dense: Mapping[str, float], *, lexical_weight: float
) -> dict[str, float]:
    """Score-aware fusion: ``w * bm25/max_bm25 + (1 - w) * min-max(cosine)`` over the candidates.

    Both arms must score the same candidate set (BM25 0 where no term matches).
    """
    ids = set(lexical) | set(dense)
    top = max(lexical.values(), default=0.0)
    lo = min(dense.values(), default=0.0)
    hi = max(dense.values(), default=0.0)
    span = hi - lo
    fused = {}
    for cid in ids:
        lex = lexical.get(cid, 0.0) / top if top > 0 else 0.0
        den = (dense.get(cid, lo) - lo) / span if span > 0 else 0.0
        fused[cid] = lexical_weight * lex + (1.0 - lexical_weight) * den
    return fused


def fuse(
    lexical: Mapping[str, float], dense: Mapping[str, float], config: FusionConfig
) -> dict[str, float]:
    """Fused score per candidate, higher is better."""
    if config.method == "rrf":
        return rrf(lexical, dense, k=config.rrf_k, lexical_weight=config.rrf_lexical_weight)
    return convex(lexical, dense, lexical_weight=config.lexical_weight)
