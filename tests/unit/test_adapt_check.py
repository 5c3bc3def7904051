"""The click memory's fit and its nested cross-validated check (adapt.memory_fit): a memory is
installed only when questions scored by a memory fitted without them gain; conflicting or
unrelated labels lift nothing."""

from __future__ import annotations

import numpy as np
import pytest

from adapt.feedback import MIN_QUESTIONS, FeedbackLabel, enough
from adapt.memory_fit import LIFTS, Fitted, Ranked, fit_memory, ndcg

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
    scored = {"before": 0.80, "after": 0.83, "higher": 9.0, "lower": 4.0}
    text = format_report({**blended, "vocabulary_check": {**words, "weighted": scored}})
    assert "0.8000 without a click vocabulary, 0.8300 with one fitted without the question " in text
    assert "weighted by the places opened at" in text
    refused = {**report, "check": {**check, "lift": 0.0, "threshold": None}, "installed": False}
    text = format_report({**refused, "reason": "… the current model stays"})
    assert "no lift chosen" in text and text.endswith("the current model stays")
