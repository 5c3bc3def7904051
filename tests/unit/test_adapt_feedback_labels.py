"""The click model that turns what a turn showed, and what its user did, into labels."""

from __future__ import annotations

from adapt.command import feedback_outside
from adapt.feedback import MIN_HELD, MIN_TRAIN, Shown, enough, split_labels, turn_labels


def shown(turn: str, position: int, **done: object) -> Shown:
    return Shown(
        turn, f"question of {turn}", f"c{turn}{position}", f"d{position}", position, **done
    )  # type: ignore[arg-type]


def test_skipped_above_an_opened_passage_are_negatives_and_below_it_say_nothing() -> None:
    rows = [shown("t", 1), shown("t", 2), shown("t", 3, opened=True), shown("t", 4)]
    (label,) = turn_labels(rows)
    assert label.positives == {"ct3"} and label.relevant_sources == {"d3"}
    assert label.negatives == {"ct1", "ct2"}


def test_a_download_is_a_positive_and_an_untouched_turn_gives_no_label() -> None:
    rows = [shown("a", 1, downloaded=True), shown("a", 2), shown("b", 1), shown("b", 2)]
    (label,) = turn_labels(rows)
    assert label.query == "question of a" and label.positives == {"ca1"} and not label.negatives


def test_a_thumbs_up_vouches_only_for_what_was_opened_and_a_thumbs_down_gives_negatives() -> None:
    up = [shown("u", 1, thumbs=1), shown("u", 2, thumbs=1, opened=True), shown("u", 3, thumbs=1)]
    bare = [shown("b", 1, thumbs=1), shown("b", 2, thumbs=1)]
    down = [shown("d", 1, thumbs=-1, opened=True), shown("d", 2, thumbs=-1)]
    labels = {label.query: label for label in turn_labels(up + bare + down)}
    # The opened passage is the positive; the one skipped above it a negative; the one below it
    # and a thumbs-up without an open (which passage did the user like?) say nothing.
    assert labels["question of u"].positives == {"cu2"} and labels["question of u"].negatives == {
        "cu1"
    }
    assert labels["question of u"].relevant_sources == {"d2"}
    assert "question of b" not in labels
    assert labels["question of d"].negatives == {"cd2"} and not labels["question of d"].positives


def test_a_passage_positive_in_one_turn_is_no_negative_of_the_same_question() -> None:
    first = [Shown("1", "q", "x", "dx", 1), Shown("1", "q", "y", "dy", 2, opened=True)]
    second = [Shown("2", "q", "x", "dx", 1, opened=True)]
    (label,) = turn_labels(first + second)
    assert label.positives == {"x", "y"} and not label.negatives


def test_the_held_back_slice_is_fixed_by_the_question_and_too_few_labels_say_so() -> None:
    rows = [Shown(str(i), f"question {i}", f"c{i}", f"d{i}", 1, opened=True) for i in range(200)]
    train, held = split_labels(turn_labels(rows))
    again_train, again_held = split_labels(turn_labels(list(reversed(rows))))
    assert {h.query for h in held} == {h.query for h in again_held}
    assert 20 <= len(held) <= 60 and len(train) + len(held) == 200
    assert enough(train, held) is None
    reason = enough(train[: MIN_TRAIN - 1], held)
    assert reason is not None and "not enough labels" in reason
    assert enough(train, held[: MIN_HELD - 1]) is not None


def test_a_cross_fit_half_is_embedded_by_a_head_that_never_saw_its_feedback() -> None:
    from adapt.checked import with_feedback
    from adapt.queries import cross_fit_plan

    rows = [Shown(str(i), f"question {i}", f"c{i}", f"d{i}", 1, opened=True) for i in range(40)]
    labels = turn_labels(rows)
    plan = cross_fit_plan([], with_feedback(({}, {}, ""), labels))
    for half, source in zip(plan.halves, plan.head_sources, strict=True):
        kept = feedback_outside(tuple(labels), source)
        assert half and kept
        assert not {label.query for label in kept} & {query.text for query in half}
        assert len(kept) + len(half) == len(labels)
