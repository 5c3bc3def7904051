"""Pair mining (`bosun adapt`): which pairs each rule finds in small stored collections, the
training-pair budget, and the query folds that keep evaluation held out."""

from __future__ import annotations

import argparse
import random

import pytest

from adapt.command import choose_pairs
from adapt.pair_mining import (
    MinedChunk,
    Pair,
    cloze_pair,
    count_sources,
    mine_chunks,
    section_pairs,
    thread_pairs,
    title_pairs,
)
from adapt.queries import query_pairs
from agent.evaluation.folds import Fold, parse_fold, split_queries

NARRATIVE = (
    "The pilot reported that he entered instrument meteorological conditions shortly after "
    "takeoff. He became disoriented in the clouds and the airplane entered a descending turn. "
    "The airplane impacted terrain about two miles from the airport."
)


def chunk(doc: str, ordinal: int, content: str, **fields: object) -> MinedChunk:
    values: dict[str, object] = {
        "chunk_id": f"{doc}{ordinal:02d}",
        "doc_id": doc,
        "source_id": doc.upper(),
        "ordinal": ordinal,
        "kind": "ntsb_report",
        "section": "Narrative",
        "content": content,
        "title": "ERA14FA058 2013-12-02 Dawsonville, Georgia PIPER PA-46-310P",
    }
    values.update(fields)
    return MinedChunk(**values)  # type: ignore[arg-type]


def test_probable_cause_pairs_with_every_narrative_passage() -> None:
    cause = "The pilot's spatial disorientation in clouds, which led to a loss of control."
    doc = [
        chunk("a", 0, NARRATIVE),
        chunk("a", 1, "Examination of the wreckage revealed no anomalies with the engine."),
        chunk("a", 2, cause, section="Probable Cause"),
    ]
    pairs = section_pairs(doc)
    assert [p.positive for p in pairs] == [doc[0].content, doc[1].content]
    assert all(p.anchor == cause and p.source == "sections" for p in pairs)
    # The metadata-line title is not embedded, so the positive is the passage alone.
    assert not pairs[0].positive.startswith("ERA14FA058")


def test_sections_without_a_stating_one_pair_each_with_the_next() -> None:
    doc = [
        chunk(
            "r",
            0,
            "The vessel departed the port in ballast with a crew of twelve.",
            section="1 Factual",
        ),
        chunk(
            "r",
            1,
            "The master did not reduce speed when the visibility fell.",
            section="2 Analysis",
        ),
        chunk(
            "r",
            2,
            "Bridge resource management on board was not effective at all.",
            section="3 Safety",
        ),
    ]
    pairs = section_pairs(doc)
    assert [(p.anchor, p.positive) for p in pairs] == [
        (doc[0].content, doc[1].content),
        (doc[1].content, doc[2].content),
    ]


def test_one_section_gives_no_section_pair() -> None:
    assert section_pairs([chunk("a", 0, NARRATIVE)]) == []


def test_a_headline_title_pairs_with_the_first_passage_but_a_metadata_line_does_not() -> None:
    headline = chunk(
        "s", 0, "We measured X in 40 patients.", title="Vitamin D lowers fracture risk"
    )
    assert title_pairs([headline]) == [
        Pair("Vitamin D lowers fracture risk", "We measured X in 40 patients.", source="title")
    ]
    assert title_pairs([chunk("a", 0, NARRATIVE)]) == []
    reply = chunk("m", 0, NARRATIVE, title="x", subject="Re: Main engine fuel pump leaking")
    assert title_pairs([reply])[0].anchor == "Main engine fuel pump leaking"


def test_a_thread_pairs_its_first_message_with_its_last_reply() -> None:
    question = "The port main engine fuel pump is leaking again after the overhaul, please advise."
    fix = "Replace the O-ring on the fuel pump cover with the new part number and retorque it."
    messages = [
        chunk(
            "m2",
            0,
            "Noted, we will check the spares on board and come back to you.",
            date="2024-03-02",
        ),
        chunk("m3", 0, fix, date="2024-03-05", title="Re: fuel pump"),
        chunk("m1", 0, question, date="2024-03-01"),
    ]
    (pair,) = thread_pairs(messages)
    assert pair.anchor == question
    assert pair.positive == "Re: fuel pump\n" + fix  # the embedded text carries a subject
    assert thread_pairs(messages[:1]) == []


def test_cloze_takes_one_sentence_out_of_its_passage() -> None:
    pair = cloze_pair(chunk("a", 0, NARRATIVE), random.Random(1))
    assert pair is not None and pair.source == "cloze"
    assert pair.anchor in NARRATIVE and pair.anchor not in pair.positive
    assert len(pair.anchor) + len(pair.positive) + 1 == len(NARRATIVE)
    assert cloze_pair(chunk("b", 0, "Too short. Two sentences."), random.Random(1)) is None


def test_mining_uses_cloze_only_where_no_other_rule_applies() -> None:
    chunks = [
        chunk("a", 0, NARRATIVE),
        chunk(
            "a",
            1,
            "The pilot's loss of control due to spatial disorientation.",
            section="Probable Cause",
        ),
        chunk("b", 0, NARRATIVE),
        chunk("m1", 0, NARRATIVE, kind="email", thread_id="t1", date="2024-01-01", title="x"),
        chunk(
            "m2",
            0,
            NARRATIVE + " Thanks.",
            kind="email",
            thread_id="t1",
            date="2024-01-02",
            title="x",
        ),
    ]
    pairs = mine_chunks(chunks, seed=3)
    assert count_sources(pairs) == {"cloze": 3, "sections": 1, "thread": 1}
    assert mine_chunks(chunks, seed=3) == pairs  # deterministic


def test_query_pairs_reach_the_relevant_documents_passages_only() -> None:
    chunks = [
        chunk("a", 0, "one"),
        chunk("a", 1, "two"),
        chunk("a", 2, "three"),
        chunk("b", 0, "b"),
    ]
    pairs = query_pairs(chunks, {"q1": "why"}, {"q1": ["A"], "q2": ["B"]})
    assert [(p.anchor, p.positive, p.source) for p in pairs] == [
        ("why", "one", "query"),
        ("why", "two", "query"),
    ]


def test_the_budget_keeps_labelled_like_pairs_before_cloze() -> None:
    pairs = [Pair(f"c{i}", f"p{i}", source="cloze") for i in range(10)]
    pairs += [Pair(f"s{i}", f"q{i}", source="sections") for i in range(3)]
    chosen = choose_pairs(pairs, 5)
    assert count_sources(chosen) == {"cloze": 2, "sections": 3}
    assert len(choose_pairs(pairs, 100)) == 13


def test_folds_partition_the_queries_the_same_way_every_time() -> None:
    queries = {f"pc_Q{i}": f"text {i}" for i in range(200)}
    first_out, first_in = split_queries(queries, Fold(1, 2))
    second_out, second_in = split_queries(queries, Fold(2, 2))
    assert first_in == second_out and first_out == second_in
    assert first_in.keys().isdisjoint(second_in.keys())
    assert 70 < len(first_in) < 130  # a hash split, roughly even
    assert split_queries(queries, Fold(1, 2)) == (first_out, first_in)


@pytest.mark.parametrize("text", ["0/2", "3/2", "1/1", "a/b", "1"])
def test_a_bad_fold_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        parse_fold(text)
