"""Ranking metrics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from agent.evaluation.metrics import (
    aggregate_documents,
    dcg,
    mrr_at_k,
    ndcg_at_k,
    percentile,
    recall_at_k,
    score_query,
)


def test_dcg_discounts_by_log2_of_rank_plus_one() -> None:
    assert dcg([3, 2, 1]) == pytest.approx(3 / 1 + 2 / math.log2(3) + 1 / 2)


def test_ndcg_uses_graded_linear_gain_against_the_ideal_order() -> None:
    qrels = {"a": 1, "c": 2, "d": 1}
    # DCG = 1/log2(2) + 0 + 2/log2(4) = 2; ideal [2, 1, 1] = 2 + 1/log2(3) + 1/2
    expected = 2 / (2 + 1 / math.log2(3) + 0.5)
    assert ndcg_at_k(["a", "b", "c"], qrels, 10) == pytest.approx(expected)


def test_ndcg_cuts_the_ranking_and_the_ideal_at_k() -> None:
    assert ndcg_at_k(["x", "a"], {"a": 1}, 1) == 0.0
    assert ndcg_at_k(["x", "a"], {"a": 1}, 2) == pytest.approx(1 / math.log2(3))
    # ideal at k=1 holds only the best judged document: gain 2
    assert ndcg_at_k(["b", "a"], {"a": 2, "b": 1}, 1) == pytest.approx(0.5)


def test_ndcg_is_one_for_the_ideal_ranking_and_zero_without_relevant_documents() -> None:
    assert ndcg_at_k(["c", "a", "d"], {"a": 1, "c": 2, "d": 1}) == pytest.approx(1.0)
    assert ndcg_at_k(["a"], {"a": 0}) == 0.0
    assert ndcg_at_k([], {"a": 1}) == 0.0


def test_recall_counts_only_positive_judgements() -> None:
    qrels = {"a": 1, "b": 1, "c": 0}
    assert recall_at_k(["c", "a", "x"], qrels, 2) == 0.5
    assert recall_at_k(["c", "a", "x", "b"], qrels, 100) == 1.0
    assert recall_at_k(["a"], {"c": 0}, 10) == 0.0


def test_mrr_is_the_reciprocal_rank_of_the_first_relevant_document_within_k() -> None:
    qrels = {"a": 1, "c": 0}
    assert mrr_at_k(["x", "c", "a"], qrels, 10) == pytest.approx(1 / 3)
    assert mrr_at_k(["x", "c", "a"], qrels, 2) == 0.0
    assert mrr_at_k(["a", "b"], qrels, 10) == 1.0


def test_score_query_reports_the_whole_metric_set() -> None:
    scores = score_query(["x", "a"], {"a": 1})
    assert scores == pytest.approx(
        {"ndcg@10": 1 / math.log2(3), "recall@10": 1.0, "recall@100": 1.0, "mrr@10": 0.5}
    )


def test_percentile_interpolates_linearly_between_ranks() -> None:
    assert percentile([4, 1, 3, 2], 50) == pytest.approx(2.5)
    assert percentile([1, 2, 3, 4], 95) == pytest.approx(3.85)  # position 2.85
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) == 0.0


def test_documents_rank_by_their_best_chunk_and_ties_keep_first_appearance() -> None:
    ranked = aggregate_documents([("d1", 0.9), ("d2", 0.8), ("d1", 0.7), ("d3", 0.8), ("d4", 0.95)])
    assert ranked == ["d4", "d1", "d2", "d3"]
