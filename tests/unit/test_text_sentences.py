"""Sentence splitting (text/sentences.py): one splitter for ingest, answers, citations."""

from __future__ import annotations

import pytest

from text.sentences import sentence_pieces, sentence_spans, sentences, unglue


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # number words before a number
        (
            "The No. 3 cylinder cracked. Nos. 4 and 5 held.",
            ["The No. 3 cylinder cracked.", "Nos. 4 and 5 held."],
        ),
        ("See Fig. 2 and Jan. 5. Then stop.", ["See Fig. 2 and Jan. 5.", "Then stop."]),
        ("He said no. Then he left.", ["He said no.", "Then he left."]),
        # titles and abbreviations that run on
        (
            "Mr. Smith met Capt. Olsen and Dr. Jones. They talked.",
            ["Mr. Smith met Capt. Olsen and Dr. Jones.", "They talked."],
        ),
        ("It weighed approx. 3 tons. Next.", ["It weighed approx. 3 tons.", "Next."]),
        ("Use a filter, e.g. The one in the kit.", ["Use a filter, e.g. The one in the kit."]),
        ("As Smith et al. (2005) showed. Next.", ["As Smith et al. (2005) showed.", "Next."]),
        # initials and dotted initialisms
        ("The U.S. Navy tested it. It held.", ["The U.S. Navy tested it.", "It held."]),
        ("J. R. Smith agreed. So did I.", ["J. R. Smith agreed.", "So did I."]),
        # times: a.m./p.m. end a sentence only before a capitalised word
        (
            "At 10 a.m. on Monday the pilot left. He returned at 3 p.m. The engine was cold.",
            [
                "At 10 a.m. on Monday the pilot left.",
                "He returned at 3 p.m.",
                "The engine was cold.",
            ],
        ),
        # decimals and dotted identifiers are never cut
        (
            "Flight time was 3.5 hours. UHD 4.7.1 fixed it. The rate was 61.44 MS/s.",
            ["Flight time was 3.5 hours.", "UHD 4.7.1 fixed it.", "The rate was 61.44 MS/s."],
        ),
        ("The gauge read 3.5. The pilot agreed.", ["The gauge read 3.5.", "The pilot agreed."]),
        # enumerators stay with their item
        (
            "Findings: 1. The pilot's failure. 2. The mechanic's error.",
            ["Findings: 1. The pilot's failure.", "2. The mechanic's error."],
        ),
        # a full stop before a lower-case word is no end; ? and ! always are
        ("It is approx. five miles. ok.", ["It is approx. five miles. ok."]),
        ("Why? because it broke! then it rained", ["Why?", "because it broke!", "then it rained"]),
        # closing quotes and brackets belong to the sentence they close
        (
            'He said "stop." Then he left (as told.) [Done.] Next.',
            ['He said "stop."', "Then he left (as told.)", "[Done.]", "Next."],
        ),
        # blank lines and list items end a sentence even without a mark
        (
            "Heading\n\nFirst line\nwraps here. Second!\n- item a\n* item b\n2. item c",
            ["Heading", "First line wraps here.", "Second!", "- item a", "* item b", "2. item c"],
        ),
        # a list item whose line break was folded into a space still starts its own sentence
        # (a mail reflowed into one line); a dash after an abbreviation or before lower case
        # does not
        (
            "This would autoconnect. - On an FPGA, logic is limited. Full, so it fails. - Try it.",
            [
                "This would autoconnect.",
                "- On an FPGA, logic is limited.",
                "Full, so it fails.",
                "- Try it.",
            ],
        ),
        (
            "About approx. - 3 nm. Also x. - lower case stays.",
            ["About approx. - 3 nm.", "Also x. - lower case stays."],
        ),
        ("", []),
        ("  \n\n ", []),
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_spans_point_into_the_text_without_surrounding_space() -> None:
    text = "  First one.  Second one?\n\nThird "
    assert [text[s:e] for s, e in sentence_spans(text)] == ["First one.", "Second one?", "Third"]


def test_pieces_join_back_to_the_text() -> None:
    text = "  No. 3 failed.  Then it rained.\n\n- item\ntail"
    pieces = sentence_pieces(text)
    assert "".join(pieces) == text
    assert pieces == ["  No. 3 failed.  ", "Then it rained.\n\n", "- item\ntail"]
    assert sentence_pieces("") == []


def test_glued_sentences_get_their_space() -> None:
    assert unglue("the report.The pilot saw v4.7 and example.com") == (
        "the report. The pilot saw v4.7 and example.com"
    )


def test_splitting_again_gives_the_same_sentences() -> None:
    """Chunks are packed from sentences and digests split them again to drop the overlap."""
    text = "The No. 2 engine quit at 10 a.m. on Monday. Dr. Lee checked it. It ran 3.5 hours."
    first = sentences(text)
    assert sentences(" ".join(first)) == first
    assert [s for part in first for s in sentences(part)] == first
