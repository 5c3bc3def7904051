"""Topic extraction (deterministic, multi-word first) and the chunk restriction of the filter."""

from __future__ import annotations

import math

from archive.ingest.topics import candidate_phrases, extract_topics, idf_table
from archive.store.search_filters import SearchFilters
from tools.topics import ChunkRestrictedFilters, restrict_to_chunks

TEXT = (
    "During the inspection we found a crack on the No. 3 cylinder liner of the main engine. "
    "Cooling water was found in the scavenge space. The cylinder liner crack runs 40 mm; "
    "thermal fatigue from cold starts is suspected."
)
DF = {
    "inspection": 30,
    "crack": 12,
    "cylinder": 8,
    "liner": 6,
    "main": 60,
    "engine": 50,
    "cooling": 20,
    "water": 40,
    "scavenge": 4,
    "space": 25,
    "runs": 35,
    "thermal": 5,
    "fatigue": 5,
    "cold": 15,
    "starts": 18,
    "suspected": 45,
    "found": 80,
}
N = 500


def _idf(word: str) -> float | None:
    df = DF.get(word)
    return math.log(1 + (N - df + 0.5) / (df + 0.5)) if df else None


def test_candidates_are_runs_of_content_words_between_stop_words_and_punctuation() -> None:
    phrases = candidate_phrases("The cylinder liner of the main engine, thermal fatigue.")
    assert phrases == [("cylinder", "liner"), ("main", "engine"), ("thermal", "fatigue")]
    # digits break a run; long runs give their word pairs
    assert candidate_phrases("ERA22LA175 crack") == [("crack",)]
    assert candidate_phrases("jacket water preheater control valve") == [
        ("jacket", "water"),
        ("water", "preheater"),
        ("preheater", "control"),
        ("control", "valve"),
    ]


def test_extraction_is_deterministic_and_prefers_salient_multi_word_terms() -> None:
    first = extract_topics(TEXT, _idf, limit=4)
    assert first == extract_topics(TEXT, _idf, limit=4)
    names = [name for name, _ in first]
    # "cylinder liner" occurs twice ("No. 3 cylinder liner", "The cylinder liner crack runs")
    assert names == ["cylinder liner", "thermal fatigue", "liner crack", "scavenge space"]
    assert "liner" not in names and "cylinder" not in names  # inside a phrase already chosen
    scores = [score for _, score in first]
    assert scores == sorted(scores, reverse=True)


def test_words_without_an_idf_never_make_a_topic() -> None:
    names = [n for n, _ in extract_topics(TEXT, lambda w: None if w == "thermal" else _idf(w))]
    assert not any("thermal" in n for n in names)


def test_idf_table_skips_stop_words_one_off_and_too_common_terms() -> None:
    idf = idf_table(
        {"liner": "liner", "the": None, "typo": "typo", "ship": "ship"},
        {"liner": 5, "typo": 1, "ship": 400},
        1000,
    )
    liner = idf("liner")
    assert liner is not None and liner > 0
    assert idf("the") is None  # a stop word of the text-search configuration
    assert idf("typo") is None  # in one chunk only
    assert idf("ship") is None  # in 40% of the chunks
    assert idf("unknown") is None


def test_chunk_restriction_keeps_structural_filters() -> None:
    base = SearchFilters(kinds=("email",), thread_id="t1")
    restricted = restrict_to_chunks(base, ["aaaaaaaaaaaa", "bbbbbbbbbbbb"])
    assert isinstance(restricted, ChunkRestrictedFilters)
    assert restricted.kinds == ("email",) and restricted.thread_id == "t1"
    assert not restricted.is_empty()
    _, params = restricted.where("c")
    assert params["f_chunk_ids"] == ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]
    assert params["f_kinds"] == ["email"]
    assert restricted.pgvector_filter() == {
        "$and": [
            {"kind": {"$in": ["email"]}},
            {"thread_id": {"$eq": "t1"}},
            {"chunk_id": {"$in": ["aaaaaaaaaaaa", "bbbbbbbbbbbb"]}},
        ]
    }
    assert restrict_to_chunks(SearchFilters(), []).pgvector_filter() == {"chunk_id": {"$in": [""]}}
