"""The click memory's fit and its nested cross-validated check (adapt.memory_fit): a memory is
installed only when questions scored by a memory fitted without them gain; conflicting or
unrelated labels lift nothing."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from adapt.feedback import MIN_QUESTIONS, FeedbackLabel, enough
from adapt.memory_fit import (
    FIRST_MARGIN,
    LIFTS,
    MIN_MOVABLE,
    Fitted,
    Ranked,
    fit_memory,
    ndcg,
)
from tests.fakes.feedback_checks import nested_check
from tools.click_memory import ClickMemory

DIM = 32


def _questions(
    topics: int, per_topic: int, *, opened: str, seed: int = 0
) -> tuple[list[Ranked], np.ndarray]:
    """``per_topic`` paraphrases of each of ``topics`` questions (vectors near the topic's). The
    served order puts a distractor first and the topic's document third; ``opened``: "same" (its
    users opened the topic's document) or "own" (each paraphrase's user opened a different one,
    shown first: the labels conflict)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(topics, DIM))
    ranked, vectors = [], []
    for t in range(topics):
        for p in range(per_topic):
            own = f"other-{t}-{p}"
            served = (own, f"noise-{t}", f"doc-{t}", *(f"filler-{t}-{i}" for i in range(20)))
            relevant = f"doc-{t}" if opened == "same" else own
            ranked.append(Ranked(f"topic {t} way {p}", frozenset([relevant]), served, 15))
            vectors.append(centres[t] + 0.3 * rng.normal(size=DIM))
    return ranked, np.asarray(vectors)


def test_paraphrases_opening_the_same_document_make_a_memory_that_gains_held_out() -> None:
    ranked, vectors = _questions(12, 5, opened="same")
    fitted = fit_memory(ranked, vectors)
    assert fitted.memory is not None and fitted.memory.lift > 0
    assert fitted.installable
    assert fitted.gain > 0.2 and fitted.worse == 0
    report = fitted.report()
    assert report["after"] > report["before"] and report["lift"] == fitted.memory.lift


def test_labels_that_conflict_between_paraphrases_lift_nothing_and_are_not_installed() -> None:
    # Each user opened the document shown first for them, a different one for each paraphrase:
    # lifting a neighbour's document can only push the question's own down.
    ranked, vectors = _questions(12, 5, opened="own")
    fitted = fit_memory(ranked, vectors)
    assert not fitted.installable
    assert fitted.gain <= 0.0


def test_unrelated_questions_lift_nothing() -> None:
    ranked, _ = _questions(12, 5, opened="same")
    vectors = np.eye(len(ranked), DIM * 2)  # no two questions alike
    fitted = fit_memory(ranked, vectors)
    assert fitted.memory is None and not fitted.installable
    assert fitted.after == fitted.before


def test_a_check_that_loses_more_questions_than_it_gains_refuses() -> None:
    # A mean gain from one question rising a lot while two fall a little is not enough.
    fitted = Fitted(None, [0.5, 1.0, 1.0], [1.0, 0.9, 0.9])
    assert fitted.gain > 0 and not fitted.installable
    assert Fitted(None, [0.5], [1.0]).installable is False  # nothing fitted to install


def test_a_check_is_judged_on_the_questions_not_already_first() -> None:
    # 200 questions opened first, 4 of them pushed to second; 12 not first: 5 rise, 3 sink.
    # Over all questions 5 rise and 7 fall, yet what can move gains and the first ones keep
    # their places within the margin.
    lifts = nested_check(first=200, fell=4, rose=5, sank=3, still=4)
    assert lifts.worse > lifts.better
    assert lifts.passes() and lifts.first_change() > -FIRST_MARGIN
    assert replace(lifts, memory=_memory()).installable
    moved = lifts.report()["movable"]
    assert moved["questions"] == 12 and (moved["better"], moved["worse"]) == (5, 3)
    assert moved["after"] > moved["before"]
    assert lifts.report()["first"]["questions"] == 200


def test_a_check_that_drops_the_first_questions_beyond_the_margin_refuses() -> None:
    drops = nested_check(first=200, fell=30, rose=5, sank=3, still=4)
    assert drops.first_change() < -FIRST_MARGIN
    assert not drops.passes() and not replace(drops, memory=_memory()).installable
    assert "the 200 already first -0.0555" in drops.verdict()
    assert drops.passes(margin=0.06)  # what the margin decides


def test_a_mean_gain_of_the_movable_questions_passes_though_more_of_them_sink() -> None:
    # Three lifted by 0.3 outweigh five lowered by 0.1: a blend moves many one place down.
    mixed = nested_check(first=200, fell=0, rose=3, sank=5, still=4)
    assert mixed.passes() and not mixed.passes(majority=True)


def test_a_gain_on_too_few_questions_not_already_first_refuses() -> None:
    few = nested_check(first=100, fell=0, rose=MIN_MOVABLE - 1, sank=0, still=0)
    assert few.movable()["worse"] == 0 and few.first_change() == 0.0
    assert not few.passes() and not replace(few, memory=_memory()).installable
    assert f"fewer than {MIN_MOVABLE}" in few.verdict()
    assert nested_check(first=100, fell=0, rose=MIN_MOVABLE, sank=0, still=0).passes()


def _memory() -> ClickMemory:
    return ClickMemory(np.ones((1, DIM), np.float32), (("doc-0",),), 0.7, 3.0)


def test_ndcg_counts_each_document_once_at_its_best_passage() -> None:
    assert ndcg(["a", "a", "b"], frozenset(["b"])) == pytest.approx(1 / np.log2(3))
    assert ndcg(["x"], frozenset()) == 0.0


def test_too_few_feedback_questions_say_so() -> None:
    labels = [
        FeedbackLabel(f"q{i}", frozenset({f"c{i}"}), frozenset(), frozenset({f"d{i}"}))
        for i in range(MIN_QUESTIONS)
    ]
    assert enough(labels) is None
    reason = enough(labels[:-1])
    assert reason is not None and "not enough labels" in reason and "nothing was changed" in reason


def test_no_memory_is_a_choice_and_wins_ties() -> None:
    assert LIFTS[0] == 0.0


def test_the_report_says_what_the_check_measured_and_what_was_chosen() -> None:
    from adapt.command import format_report

    check = {
        "metric": "ndcg@10",
        "folds": 5,
        "before": 0.8376,
        "after": 0.85,
        "better": 3,
        "worse": 0,
        "threshold": 0.7,
        "lift": 3.0,
    }
    report = {"labels": {"questions": 40, "folds": 5}, "check": check, "installed": True}
    text = format_report({**report, "memory": {}})
    assert "40 questions with an opened citation" in text
    assert "0.8376 without a click memory, 0.8500 with one" in text
    assert "lift 3 places from cosine 0.7" in text and "click memory is now served" in text
    residual = {**check, "before": 0.8376, "after": 0.8412, "penalty": 0.3, "pairs": 900}
    both = {**report, "residual_check": residual, "parts": ["residual", "memory"], "memory": {}}
    text = format_report(both)
    assert "0.8376 without a click residual, 0.8412 with one" in text
    assert "penalty 0.3, 900 weighted pairs" in text
    assert "the click residual and memory are now served" in text
    words = {**check, "before": 0.8376, "after": 0.8455, "weight": 1.0, "pairs": 120}
    blended = {**report, "vocabulary_check": words, "parts": ["vocabulary"], "memory": {}}
    text = format_report(blended)
    assert "0.8376 without a click vocabulary, 0.8455 with one" in text
    assert "weight 1, 120 question-document pairs" in text
    assert "the click vocabulary is now served" in text
    moved = {"questions": 40, "before": 0.52, "after": 0.61, "better": 9, "worse": 4}
    first = {"questions": 160, "change": -0.004, "margin": 0.01}
    text = format_report(
        {**blended, "vocabulary_check": {**words, "movable": moved, "first": first}}
    )
    assert "not yet first  40 questions 0.5200 -> 0.6100 (9 higher, 4 lower)" in text
    assert "the 160 already first -0.0040 (at most -0.01)" in text
    refused = {**report, "check": {**check, "lift": 0.0, "threshold": None}, "installed": False}
    text = format_report({**refused, "reason": "… the current model stays"})
    assert "no lift chosen" in text and text.endswith("the current model stays")
