"""Words (text/words.py): tokens, PostgreSQL's English stop words, Snowball English stems."""

from __future__ import annotations

import pytest

from text.words import STOP_WORDS, content_stems, is_identifier, stem, tokens


def test_tokens_keep_identifiers_whole_and_split_apostrophes() -> None:
    assert tokens("The pilot's Cessna N3718F (ERA22LA175) hit ERR-4711 at 3.5 kts, v4.7.") == [
        "the",
        "pilot",
        "s",
        "cessna",
        "n3718f",
        "era22la175",
        "hit",
        "err-4711",
        "at",
        "3.5",
        "kts",
        "v4.7",
    ]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        # Snowball English (Porter2), as PostgreSQL's english_stem gives them
        ("maintained", "maintain"),
        ("maintenance", "mainten"),
        ("failure", "failur"),
        ("generalizations", "general"),
        ("flies", "fli"),
        ("dying", "die"),
        ("news", "news"),
        ("skies", "sky"),
        ("generously", "generous"),
        ("landing", "land"),
        ("landings", "land"),
        ("stalled", "stall"),
        ("inspections", "inspect"),
        ("carburetor", "carburetor"),
        # not alphabetic: kept as they are, like PostgreSQL's numword and hword tokens
        ("era22la175", "era22la175"),
        ("err-4711", "err-4711"),
        ("2019", "2019"),
    ],
)
def test_stem_is_snowball_english(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_stop_words_are_postgresql_english() -> None:
    """The 127 words of PostgreSQL's tsearch_data/english.stop (checked against the server in
    tests/integration/test_text_postgres.py); question words like "explain" are content."""
    assert len(STOP_WORDS) == 127
    assert {"the", "what", "which", "s", "t", "don", "should", "now"} <= STOP_WORDS
    assert not {"also", "however", "upon", "explain", "engine", "pilot"} & STOP_WORDS


def test_content_stems_drop_stop_words_and_single_letters() -> None:
    assert content_stems(tokens("What did the pilot's x failure to maintain control cause?")) == [
        "pilot",
        "failur",
        "maintain",
        "control",
        "caus",
    ]


def test_identifiers() -> None:
    assert is_identifier("era22la175") and is_identifier("9234567") and is_identifier("err-4711")
    assert not is_identifier("p53") and not is_identifier("2019") and not is_identifier("il-6")
