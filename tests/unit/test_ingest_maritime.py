"""IMO casualty rows and TAIC investigation reports."""

from __future__ import annotations

import csv
import json
import re
from datetime import date
from itertools import islice
from pathlib import Path

import pytest

from archive.ingest.discover import load_paths
from archive.ingest.loaders.casualties import load_casualties, parse_ships
from archive.ingest.loaders.taic import load_taic_report
from archive.ingest.model import LoadError, SourceDocument, Vessel

NOT_DESIGNATED = "[Primary Annex 2 not designated]"
COLUMNS = [
    "Reference",
    "NumberOfShipsInvolved",
    "ShipsInvolved",
    "FlagStates",
    "IncidentDateTime",
    "TypeOfCasualty",
    "Location",
    "InitialEvent",
    "SummaryOfEvents",
    "ShipType1",
    "Consequences1",
    "GrossTonnage1",
    "ClassificationSociety1",
    "DeadMissingCrew2",
]
ROWS = [
    [
        "C0000801",
        "1",
        "PAN HARVEST (IMO 6809965)",
        "PAN",
        "1993-09-18 00:00",
        "Very serious",
        "Off Cape Town",
        "Fire or explosion",
        "Fire in the engine room.",
        "Refrigerated Cargo Ship",
        "Total loss of the ship",
        "3504",
        "Bureau Veritas (BV)",
        "2",
    ],
    [
        "C0000802",
        "2",
        "NORDIC STAR (IMO 9123456), ALESSANDRO PRIMO (-)",
        "LBR",
        "9/3/97 14:30",
        "Serious",
        "",
        "Collision",
        "",
        "Oil Tanker",
        "",
        "",
        "",
        NOT_DESIGNATED,
    ],
    [
        "C0000803",
        "1",
        "SEA (PACIFIC, ex ORION) (IMO 7654321)",
        "MLT",
        "2001-01-02 00:00",
        "Unspecified",
        "",
        "",
        ".",
        "",
        "",
        "",
        "",
        "",
    ],
]

TAIC = """\ufeff

Report 10 -201: Bulk carrier TPC Wellington, double fatality resulting from enclosed space entry,
Port Marsden, Northland, 3 May 2010

The Transport Accident Investigation Commission is an independent Crown entity.

Contents
1. Executive summary ....................................... 1
2. Factual information ...................................... 2

Report 10 -201 | Page 1
1. Executive summary
1.1. Two crew members entered the cargo hold of the bulk carrier.

2. Factual information
2.1 Narrative
2.1.1. The ship berthed at Port Marsden.
12 A footnote that is not a heading
3. Analysis
The hold atmosphere was depleted of oxygen by the log cargo.
"""


def _write_csv(path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        writer.writerows(ROWS)


def test_casualty_rows(tmp_path: Path) -> None:
    path = tmp_path / "casualties.csv"
    _write_csv(path)
    first, second, third = list(load_paths([path]))
    assert isinstance(first, SourceDocument)
    assert isinstance(second, SourceDocument) and isinstance(third, SourceDocument)

    assert (first.kind, first.source_id, first.archive_name) == (
        "casualty",
        "C0000801",
        "C0000801.json",
    )
    assert first.title == (
        "C0000801 PAN HARVEST — Refrigerated Cargo Ship — Very serious casualty — 1993-09-18"
    )
    assert first.date == date(1993, 9, 18)
    assert first.vessels == [
        Vessel("PAN HARVEST", "6809965", "Refrigerated Cargo Ship", "Bureau Veritas (BV)")
    ]
    assert [s.name for s in first.sections] == ["Casualty"]
    text = first.sections[0].text
    assert "Ships involved: PAN HARVEST (IMO 6809965)." in text
    assert "Classification society: Bureau Veritas (BV)." in text
    assert "Dead or missing crew: 2." in text
    assert text.endswith("Summary of events:\nFire in the engine room.")
    assert json.loads(first.original)["Reference"] == "C0000801"
    assert first.metadata["flag"] == "PAN"
    assert first.metadata["casualty_type"] == "Very serious"

    assert second.vessels == [
        Vessel("NORDIC STAR", "9123456", "Oil Tanker", None),
        Vessel("ALESSANDRO PRIMO", None),
    ]
    assert second.date == date(1997, 9, 3)
    assert "not designated" not in second.sections[0].text
    assert "Location" not in second.sections[0].text

    assert third.vessels == [Vessel("SEA", "7654321", None, None)]
    assert "casualty" not in third.title  # "Unspecified" is left out
    assert "Summary of events" not in third.sections[0].text  # "." is no summary


def test_parse_ships_handles_the_odd_cells() -> None:
    ships = parse_ships(
        "Basilisk (Pleasure Craft, Port of Singapore) (-), CREST TITAN 2 (IMO 9558830)"
    )
    assert ships == [Vessel("Basilisk"), Vessel("CREST TITAN 2", "9558830")]
    assert parse_ships("ARAD (IMO 0), STOLT SPRAY (IMO 7383243)") == [
        Vessel("ARAD"),
        Vessel("STOLT SPRAY", "7383243"),
    ]
    assert parse_ships(" (-), TREASURE (IMO 8011251)") == [Vessel("TREASURE", "8011251")]
    assert parse_ships('MV PRINCESS OF THE STARS" (IMO 8323161)"') == [
        Vessel("MV PRINCESS OF THE STARS", "8323161")
    ]
    assert parse_ships("") == []


def test_csv_row_without_reference_is_a_load_error(tmp_path: Path) -> None:
    path = tmp_path / "casualties.csv"
    path.write_text("Reference,ShipsInvolved\n,X (-)\nC1,Y (-)\n")
    error, doc = list(load_casualties(path))
    assert isinstance(error, LoadError) and error.path == f"{path}:2"
    assert isinstance(doc, SourceDocument) and doc.source_id == "C1"


def test_other_csv_is_unsupported(tmp_path: Path) -> None:
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    (error,) = list(load_paths([tmp_path]))
    assert isinstance(error, LoadError) and "unsupported CSV" in error.reason


def test_taic_report(tmp_path: Path) -> None:
    path = tmp_path / "taic_reports" / "2010_201.txt"
    path.parent.mkdir()
    path.write_text(TAIC, encoding="utf-8")
    (doc,) = list(load_paths([path]))
    assert isinstance(doc, SourceDocument)

    assert (doc.kind, doc.source_id, doc.report_no) == (
        "investigation_report",
        "2010_201",
        "2010_201",
    )
    assert doc.title == (
        "Report 10-201: Bulk carrier TPC Wellington, double fatality resulting "
        "from enclosed space entry, Port Marsden, Northland, 3 May 2010"
    )
    assert doc.date == date(2010, 5, 3)
    assert doc.metadata["mode"] == "marine"
    assert doc.vessels == [Vessel("TPC Wellington", vessel_type="Bulk carrier")]
    assert [s.name for s in doc.sections] == [  # "2 Factual information" has no text
        "Front matter",
        "1 Executive summary",
        "2.1 Narrative",
        "3 Analysis",
    ]
    assert "12 A footnote" in doc.sections[2].text
    assert not any("Page 1" in s.text or "....." in s.text for s in doc.sections)


@pytest.mark.shared_data
def test_real_casualties_head(shared_data: Path) -> None:
    path = shared_data / "maritime" / "imo_casualties.csv"
    head = [d for d in islice(load_casualties(path), 200) if isinstance(d, SourceDocument)]
    assert len({d.source_id for d in head}) == 200
    assert all(d.vessels and d.date for d in head)
    assert not any(v.imo for d in head for v in d.vessels)  # 1990-91 rows give no IMO numbers

    docs = [d for d in islice(load_casualties(path), 2000) if isinstance(d, SourceDocument)]
    with_imo = [
        d for d in docs if re.search(r"\(IMO \d{7}\)", json.loads(d.original)["ShipsInvolved"])
    ][:200]
    assert len(with_imo) == 200
    for doc in with_imo:
        imos = [v.imo for v in doc.vessels if v.imo]
        assert imos and all(len(imo) == 7 and imo.isdigit() for imo in imos)
        assert all(f"(IMO {imo})" in doc.sections[0].text for imo in imos)


@pytest.mark.shared_data
def test_real_taic_reports(shared_data: Path) -> None:
    folder = shared_data / "maritime" / "taic_reports"
    docs = [
        d
        for name in ("2010_201", "2015_101", "2019_203")
        for d in load_taic_report(folder / f"{name}.txt")
    ]
    assert all(isinstance(d, SourceDocument) for d in docs)
    marine, rail, logs = (d for d in docs if isinstance(d, SourceDocument))
    assert [d.metadata["mode"] for d in (marine, rail, logs)] == ["marine", "rail", "marine"]
    assert marine.title.startswith("Report 10-201: Bulk carrier TPC Wellington")
    assert marine.vessels[0].name == "TPC Wellington"
    assert logs.vessels[0].name == "Coresky OL"
    assert rail.date == date(2015, 1, 29) and not rail.vessels
    assert all(len(d.sections) > 5 for d in (marine, rail, logs))
    assert "3 Analysis" in [s.name for s in logs.sections]
