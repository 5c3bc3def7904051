"""A citation says where its passage sits: the file, the page, that OCR read it, and the message
an attachment came with — in the source list, the payload and the model's citation header."""

from __future__ import annotations

from answers.citations import citation_of, lineage, render_answer
from answers.layout import citation_header
from tests.fakes.clients import passage

SURVEY = passage(
    "a1b2c3d4e5f6",
    "Hatch cover No. 2 seals renewed.",
    kind="attachment",
    title="survey.pdf",
    page=5,
    ocr=True,
    parent_id="hatch-7@fleet.example",
    subject="RE: Hatch inspection",
    sender="captain@nordic-star.example",
    date="2024-01-15",
)


def test_an_attachment_names_its_page_and_message() -> None:
    assert lineage(SURVEY) == (
        'survey.pdf, p. 5 (OCR) — attached to "RE: Hatch inspection" from '
        "captain@nordic-star.example, 2024-01-15"
    )
    scanned = passage("b1b2c3d4e5f6", "…", kind="ntsb_report", title="CEN25LA067", page=2, ocr=True)
    assert lineage(scanned) == "CEN25LA067, p. 2 (OCR)"
    assert lineage(passage("c1b2c3d4e5f6", "…", kind="email", title="RE: x")) is None


def test_the_source_list_and_the_header_carry_it() -> None:
    citation = citation_of(SURVEY, 1)
    assert citation["parent_id"] == "hatch-7@fleet.example"
    shown = render_answer("Seals renewed. [C:a1b2c3d4e5f6]", [citation])
    assert '[1] survey.pdf, p. 5 (OCR) — attached to "RE: Hatch inspection"' in shown
    header = citation_header(SURVEY)
    assert 'attached to:"RE: Hatch inspection"' in header and "page:5 (OCR)" in header
    assert "subject:" not in header
