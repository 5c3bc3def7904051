"""Chunking: sizes, boundaries, overlap and stable ids."""

from __future__ import annotations

import re

import pytest

from archive.ingest.chunking import chunk_document, split_text
from archive.ingest.model import Section, SourceDocument


def _doc(*sections: Section, mode: str = "full") -> SourceDocument:
    return SourceDocument(
        kind="text",
        source_id="notes.txt",
        title="Notes",
        sections=list(sections),
        original=b"",
        archive_name="notes.txt",
        embedding_mode=mode,
    )  # type: ignore[arg-type]


SENTENCES = [
    f"Sentence number {i} describes the engine room watch in some detail." for i in range(40)
]
LONG = Section("Narrative", " ".join(SENTENCES[:20]) + "\n\n" + " ".join(SENTENCES[20:]), page=4)


def test_chunk_ids_are_12_hex_and_stable() -> None:
    first = chunk_document(_doc(LONG, Section("Findings", "The pilot ran out of fuel.")))
    second = chunk_document(_doc(LONG, Section("Findings", "The pilot ran out of fuel.")))
    assert first == second
    assert all(re.fullmatch(r"[0-9a-f]{12}", c.chunk_id) for c in first)
    assert len({c.chunk_id for c in first}) == len(first)
    assert [c.ordinal for c in first] == list(range(len(first)))


def test_chunks_respect_max_chars_and_overlap_by_whole_sentences() -> None:
    chunks = chunk_document(_doc(LONG), max_chars=300, overlap=100)
    assert len(chunks) > 5
    assert all(len(c.text) <= 300 for c in chunks)
    assert all(c.section == "Narrative" and c.page == 4 for c in chunks)
    for before, after in zip(chunks, chunks[1:], strict=False):
        first_sentence = re.split(r"(?<=\.)\s+", after.text)[0]
        assert first_sentence in SENTENCES
        assert before.text.endswith(first_sentence)  # the overlap repeats whole sentences
    text = " ".join(c.text for c in chunks)
    assert all(s in text for s in SENTENCES)


def test_section_boundary_is_a_chunk_boundary() -> None:
    chunks = chunk_document(
        _doc(
            Section("Analysis", "The engine stopped. " * 3),
            Section("Probable Cause", "Fuel exhaustion. " * 3),
        )
    )
    assert [(c.section, c.text) for c in chunks] == [
        ("Analysis", "The engine stopped. The engine stopped. The engine stopped."),
        ("Probable Cause", "Fuel exhaustion. Fuel exhaustion. Fuel exhaustion."),
    ]


def test_short_section_merges_into_the_next_and_empty_ones_vanish() -> None:
    chunks = chunk_document(
        _doc(
            Section("Factual Information", "History"),
            Section("Empty", "  \n "),
            Section("History of Flight", "The flight departed at 0900."),
        )
    )
    assert [(c.section, c.text) for c in chunks] == [
        ("History of Flight", "History\n\nThe flight departed at 0900.")
    ]


def test_paragraphs_are_kept_whole_when_they_fit() -> None:
    text = "First paragraph line one\nline two.\n\nSecond   paragraph.\n\n\nThird."
    assert split_text(text, max_chars=200) == [
        "First paragraph line one line two.\n\nSecond paragraph.\n\nThird."
    ]
    assert split_text(text, max_chars=40, overlap=0) == [
        "First paragraph line one line two.",
        "Second paragraph.\n\nThird.",
    ]


def test_overlong_sentence_and_word_are_hard_split() -> None:
    pieces = split_text("word " * 100 + "x" * 250, max_chars=100, overlap=0)
    assert all(len(p) <= 100 for p in pieces)
    assert "".join(pieces).replace(" ", "") == "word" * 100 + "x" * 250


def test_metadata_only_document_is_one_chunk() -> None:
    doc = _doc(Section("metadata", "File crack.png, type image/png, 8 bytes"), mode="metadata_only")
    (chunk,) = chunk_document(doc)
    assert chunk.text == "File crack.png, type image/png, 8 bytes"
    assert chunk.section == "metadata"


def test_invalid_sizes_are_rejected() -> None:
    with pytest.raises(ValueError):
        chunk_document(_doc(LONG), max_chars=100, overlap=100)
