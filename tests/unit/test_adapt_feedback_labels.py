"""The click model that turns what a turn showed, and what its user did, into labels."""

from __future__ import annotations

from adapt.feedback import Shown, turn_labels, usable


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


def test_only_questions_with_an_opened_citation_are_usable() -> None:
    rows = [
        Shown("1", "opened", "c1", "d1", 2, opened=True),
        Shown("1", "opened", "c0", "d0", 1),
        Shown("2", "rejected", "c2", "d2", 1, thumbs=-1),
    ]
    kept = usable(turn_labels(rows))
    assert [label.query for label in kept] == ["opened"]
    assert kept[0].relevant_sources == {"d1"} and kept[0].negatives == {"c0"}
