"""The rerank floor and the relevance cutoff: which ranked passages an answer may use, and whether
the archive holds an answer at all (decided before any model is called)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NotRequired

from typing_extensions import TypedDict

from archive.store.passages import Passage
from providers.rerankers import Reranker
from text.names import names_record

#: For rerankers that do not state their own ``default_cutoff``.
DEFAULT_CUTOFF = 0.1

# A passage this close in meaning to the question is relevant whatever the reranker says: the
# offline reranker is calibrated on large archives and underrates short mail threads. Off-topic
# questions stay below it: the highest best cosine of the train split of
# benchmarks/questions/off_topic.jsonl is 0.369 on the example archive, 0.456 on eval_scifact and
# eval_ntsb_pc2narr ("flat tire on my bicycle" against 6,140 narratives embedded without their
# metadata-line titles); 0.48 adds a margin.
COSINE_RESCUE = 0.48

# With the calibrated cutoff, a question whose closest passage is below this cosine is off-topic
# unless the reranker is sure (best >= max(CONFIDENT, its cutoff)): the offline reranker's scores
# for general-knowledge questions overlap those of hard in-domain ones, the embedding distance
# does not as much. Chosen on the train split of benchmarks/questions/off_topic.jsonl: on
# eval_ntsb_pc2narr the one train question the reranker lets through ("cold brew coffee") has
# its closest kept passage at 0.350; 0.38 adds a margin. Measured, not tuned, with
# `bosun eval-answers` (without the floor -> with it; off-topic stopped, in-domain wrongly
# stopped): ntsb_pc2narr 82 -> 84 of 84 (heldout 39 -> 40 of 40), dev queries 0 of 1000 both;
# scifact 77 -> 81 of 84, train queries 14 -> 24 of 809 (short claims full of gene names
# sit far from everything in MiniLM).
COSINE_FLOOR = 0.38
CONFIDENT = 0.1


class Relevance(TypedDict):
    """The cutoff's decision, as the state and the trace hold it."""

    best: float | None  # best reranker score (None: not reranked)
    threshold: float  # the cutoff applied to it
    applied: bool  # reranker scores were available
    stopped: bool  # nothing relevant: answer "no relevant documents" without a model
    best_cosine: float  # the closest kept passage's cosine
    rescued_by_cosine: bool  # below the cutoff, but a passage is within the rescue cosine
    below_cosine_floor: bool  # the closest passage is far and the reranker is not sure
    kept_for_followup: NotRequired[bool]  # the graph let a grounded follow-up through
    kept_for_record_set: NotRequired[bool]  # the graph let a set selected by fields through
    judge: NotRequired[str]  # "stock": decided on the stock model's view (tools.stock_relevance)
    rescued_by_names: NotRequired[bool]  # stopped, but the best record holds every name asked


def rerank_floor(override: float | None, reranker: Reranker) -> float:
    """The run's rerank floor, else the reranker's own: passages below it are dropped (the best
    one always stays)."""
    return override if override is not None else reranker.default_floor


def reranked(passages: Sequence[Passage], scores: Sequence[float]) -> list[Passage]:
    """Copies of ``passages`` carrying their rerank ``scores``, best first."""
    return sorted(
        (Passage(**{**p, "rerank": float(s)}) for p, s in zip(passages, scores, strict=True)),
        key=lambda p: -(p["rerank"] or 0.0),
    )


def above_floor(scored: Sequence[Passage], floor: float) -> list[Passage]:
    """The reranked passages (best first) at or above ``floor``; the best one always stays."""
    return [p for p in scored if (p["rerank"] or 0.0) >= floor] or list(scored[:1])


def cutoff_threshold(override: float | None, reranker: Reranker) -> float:
    """The run's cutoff, else the reranker's own calibrated one, else :data:`DEFAULT_CUTOFF`."""
    if override is not None:
        return override
    return float(getattr(reranker, "default_cutoff", DEFAULT_CUTOFF))


def decide(
    best: float | None,
    closest: float,
    limit: float,
    *,
    empty: bool,
    calibrated: bool = True,
) -> Relevance:
    """Stop when nothing was retrieved, or when the best reranker score (``None``: not reranked)
    is below ``limit`` and no passage is within :data:`COSINE_RESCUE`; with the ``calibrated``
    cutoff (not a run's override) also when the closest passage is below :data:`COSINE_FLOOR`
    and the reranker is not sure. Without reranker scores only an empty result stops: fused
    scores have no absolute scale."""
    rescued = best is not None and best < limit and closest >= COSINE_RESCUE
    distant = (
        calibrated and best is not None and closest < COSINE_FLOOR and best < max(CONFIDENT, limit)
    )
    stop = empty or (best is not None and best < limit and not rescued) or distant
    return Relevance(
        best=best,
        threshold=limit,
        applied=best is not None,
        stopped=stop,
        best_cosine=round(closest, 4),
        rescued_by_cosine=rescued,
        below_cosine_floor=distant,
    )


def rerank_decision(
    passages: Sequence[Passage],
    scores: Sequence[float],
    reranker: Reranker,
    *,
    floor: float | None,
    cutoff: float | None,
) -> tuple[list[Passage], list[Passage], Relevance]:
    """``passages`` with their rerank ``scores`` best first, those the floor keeps and the
    cutoff's decision on them (the run's ``floor`` and ``cutoff``, else the reranker's own)."""
    scored = reranked(passages, scores)
    kept = above_floor(scored, rerank_floor(floor, reranker))
    limit = cutoff_threshold(cutoff, reranker)
    return scored, kept, relevance_of(kept, limit, reranked=True, calibrated=cutoff is None)


def relevance_of(
    kept: Sequence[Passage],
    limit: float,
    *,
    reranked: bool,
    calibrated: bool,
) -> Relevance:
    """:func:`decide` for passages the floor kept, best first. Cosines all 0 mean none was
    measured (the query embedding failed: BM25 only), so no cosine rule applies."""
    best = kept[0]["rerank"] if kept and reranked else None
    closest = max((p["cosine"] for p in kept), default=0.0)
    measured = any(p["cosine"] for p in kept)
    return decide(best, closest, limit, empty=not kept, calibrated=calibrated and measured)


def rescued_by_names(relevance: Relevance, question: str, kept: Sequence[Passage]) -> Relevance:
    """``relevance``, not stopped when the best kept passage's record holds every name the
    question gives, at least two ("Why did the U-206F crash near Kokhanok?": the reranker may
    score a terse record low, but the question names it: :func:`text.names.names_record`)."""
    if not relevance["stopped"] or not kept:
        return relevance
    best = kept[0]
    if not names_record(question, f"{best['title']} {best.get('subject') or ''} {best['text']}"):
        return relevance
    return Relevance(**{**relevance, "stopped": False, "rescued_by_names": True})
