"""NTSB JSONL records and section-aware final reports."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from archive.ingest.discover import load_paths
from archive.ingest.loaders.ntsb import load_final_report_txt, load_records
from archive.ingest.loaders.pdf import load_pdf_file
from archive.ingest.model import LoadError, SourceDocument

RECORD = {
    "ntsb_no": "ERA22LA175",
    "event_date": "2022-05-01",
    "city": "Morristown",
    "state": "New Jersey",
    "registration": "N123AB",
    "make": "CESSNA",
    "model": "172",
    "fatal": 0,
    "serious": 1,
    "minor": 0,
    "damage": "Substantial",
    "weather": "VMC",
    "far_part": "091",
    "highest_injury": None,
    "narrative": "NTSB investigators did not travel to prepare this aircraft accident "
    "report.The pilot reported a partial loss of engine power.",
    "probable_cause": "A partial loss of engine power for reasons that could not be determined.",
}

FINAL_REPORT = """\
Page 1 of 3
Aviation Investigation Final Report
Location: Springfield, Ohio Accident Number: CEN24LA001
Date & Time: March 5, 2024, 10:15 Local Registration: N555ZZ
Aircraft: Piper PA-28 Aircraft Damage: Substantial
Defining Event: Fuel starvation Injuries: 1 None
Flight Conducted Under: Part 91: General aviation - Personal
Analysis
The pilot switched to the empty tank. The engine lost power and the pilot landed in a
cross-
country field.
Probable Cause and Findings
Page 2 of 3 CEN24LA001
The National Transportation Safety Board determines the probable cause(s) of this accident to be:
The pilot's fuel mismanagement, which resulted in fuel starvation.
Findings
Personnel issues Fuel planning - Pilot
Page 3 of 3 CEN24LA001
Factual Information
History of Flight
Enroute Fuel starvation (Defining event)
Pilot Information
Certificate: Private Age: 54,Male
"""


def test_jsonl_records_and_a_malformed_line(tmp_path: Path) -> None:
    path = tmp_path / "reports.jsonl"
    second = {**RECORD, "ntsb_no": "ERA22LA176", "probable_cause": ""}
    path.write_text(f"{json.dumps(RECORD)}\n{{not json\n\n{json.dumps(second)}\n[1, 2]\n")

    results = list(load_paths([path]))
    docs = [r for r in results if isinstance(r, SourceDocument)]
    errors = [r for r in results if isinstance(r, LoadError)]
    assert [d.source_id for d in docs] == ["ERA22LA175", "ERA22LA176"]
    assert [(e.path, e.reason.split(":")[0]) for e in errors] == [
        (f"{path}:2", "invalid JSON"),
        (f"{path}:5", "record is not a JSON object"),
    ]

    doc = docs[0]
    assert doc.kind == "ntsb_report"
    assert doc.report_no == "ERA22LA175"
    assert doc.title == "ERA22LA175 2022-05-01 Morristown, New Jersey CESSNA 172 N123AB"
    assert doc.date == date(2022, 5, 1)
    assert [s.name for s in doc.sections] == ["Narrative", "Probable Cause"]
    assert "accident report. The pilot reported" in doc.sections[0].text  # glued sentence fixed
    assert doc.archive_name == "ERA22LA175.json"
    assert json.loads(doc.original) == RECORD
    assert doc.metadata["registration"] == "N123AB"
    assert doc.metadata["injuries"] == "fatal 0, serious 1, minor 0"
    assert "highest_injury" not in doc.metadata
    assert [s.name for s in docs[1].sections] == ["Narrative"]


def test_final_report_text_is_split_by_heading_with_pages(tmp_path: Path) -> None:
    path = tmp_path / "CEN24LA001.txt"
    path.write_text(FINAL_REPORT)
    (doc,) = list(load_final_report_txt(path))
    assert isinstance(doc, SourceDocument)

    assert (doc.kind, doc.source_id, doc.report_no) == ("ntsb_report", "CEN24LA001", "CEN24LA001")
    assert doc.title == "CEN24LA001 Springfield, Ohio Piper PA-28 N555ZZ"
    assert doc.date == date(2024, 3, 5)
    assert [(s.name, s.page) for s in doc.sections] == [
        ("Overview", 1),
        ("Analysis", 1),
        ("Probable Cause and Findings", 2),
        ("Findings", 2),
        ("History of Flight", 3),
        ("Pilot Information", 3),
    ]
    analysis = doc.sections[1].text
    assert "cross-country field" in analysis
    assert not any("Page 2 of 3" in s.text for s in doc.sections)
    assert doc.metadata["defining_event"] == "Fuel starvation"
    assert doc.metadata["registration"] == "N555ZZ"


def test_txt_report_is_skipped_when_its_pdf_is_loaded(tmp_path: Path) -> None:
    (tmp_path / "pdf").mkdir()
    (tmp_path / "txt").mkdir()
    (tmp_path / "txt" / "CEN24LA001.txt").write_text(FINAL_REPORT)
    (tmp_path / "txt" / "CEN24LA002.txt").write_text(FINAL_REPORT.replace("001", "002"))
    (tmp_path / "pdf" / "CEN24LA001.pdf").write_bytes(b"%PDF-1.4 broken")

    results = list(load_paths([tmp_path]))
    assert [type(r).__name__ for r in results] == ["LoadError", "SourceDocument"]
    assert isinstance(results[1], SourceDocument) and results[1].source_id == "CEN24LA002"


@pytest.mark.shared_data
def test_real_final_report_pdf_and_txt_agree(shared_data: Path) -> None:
    folder = shared_data / "ntsb" / "final_reports"
    (from_pdf,) = list(load_pdf_file(folder / "pdf" / "ERA25LA084.pdf"))
    (from_txt,) = list(load_final_report_txt(folder / "txt" / "ERA25LA084.txt"))
    assert isinstance(from_pdf, SourceDocument) and isinstance(from_txt, SourceDocument)

    for doc in (from_pdf, from_txt):
        names = [s.name for s in doc.sections]
        assert {"Analysis", "Probable Cause and Findings", "Findings"} <= set(names)
        assert doc.report_no == doc.source_id == "ERA25LA084"
        assert doc.kind == "ntsb_report"
        assert doc.title == "ERA25LA084 Melbourne, Florida Beech BE-76 N76NN"
        assert doc.date == date(2024, 12, 26)
        cause = next(s for s in doc.sections if s.name == "Probable Cause and Findings")
        assert "inadequate preflight fuel planning" in cause.text
        assert cause.page == 2
    assert from_pdf.sections == from_txt.sections


@pytest.mark.shared_data
def test_real_final_report_folder_loads_each_report_once(shared_data: Path) -> None:
    results = list(load_paths([shared_data / "ntsb" / "final_reports"]))
    docs = [r for r in results if isinstance(r, SourceDocument)]
    assert len(docs) == len(results) == 15
    assert all(d.archive_name.endswith(".pdf") for d in docs)


@pytest.mark.shared_data
def test_real_jsonl_head(shared_data: Path) -> None:
    docs = []
    for doc in load_records(shared_data / "ntsb" / "reports_2010_2016.jsonl"):
        assert isinstance(doc, SourceDocument)
        docs.append(doc)
        if len(docs) == 200:
            break
    assert docs[0].source_id == "ANC10CA015"
    assert all(d.date and d.sections[0].name == "Narrative" for d in docs)
    assert all(any(s.name == "Probable Cause" for s in d.sections) for d in docs)
