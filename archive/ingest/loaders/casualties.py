"""IMO GISIS marine casualties: one document per row of the casualty table (CSV)."""

from __future__ import annotations

import csv
import json
import logging
import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

from archive.ingest.enrich import SUMMARY_CHARS, clip
from archive.ingest.loaders.registry import Kind, Loader
from archive.ingest.model import EmbeddingMode, LoadError, Section, SourceDocument, Vessel

logger = logging.getLogger(__name__)

CASUALTY_COLUMNS = frozenset({"Reference", "ShipsInvolved"})
#: A casualty's fact line up to this long is the whole summary (``summary`` mode).
CASUALTY_SUMMARY_CHARS = 400
#: Casualty facts the head line of a casualty summary already states.
_HEAD_FACTS = (
    "Ships involved:",
    "Type of casualty:",
    "Date:",
    "Location:",
    "Initial event:",
    "Ship type:",
)

# "PAN HARVEST (IMO 6809965)", "ALESSANDRO PRIMO (-)", comma separated; a name may itself
# hold parentheses and commas: "Basilisk (Pleasure Craft, Port of Singapore) (-)".
_SHIP = re.compile(r"\s*(.*?)\s*\((?:IMO\s*(\d+)|-)\)\"?\s*(?:,|;|$)")
_NOT_GIVEN = re.compile(r"^\[.*not designated\]$|^unspecified$|^[\s.*-]*$", re.IGNORECASE)

# (column, label) in the order the casualty text reads.
_FACTS = (
    ("ShipsInvolved", "Ships involved"),
    ("FlagStates", "Flag state"),
    ("TypeOfCasualty", "Type of casualty"),
    ("IncidentDateTime", "Date"),
    ("Location", "Location"),
    ("Coordinates", "Coordinates"),
    ("InitialEvent", "Initial event"),
    ("ShipType1", "Ship type"),
    ("GrossTonnage1", "Gross tonnage"),
    ("Deadweight1", "Deadweight"),
    ("ClassificationSociety1", "Classification society"),
    ("Cargo1", "Cargo"),
    ("CrewOnboard1", "Crew on board"),
    ("PassengersOnboard1", "Passengers on board"),
    ("OthersOnboard1", "Others on board"),
    ("Consequences1", "Consequences"),
    ("DeadMissingCrew2", "Dead or missing crew"),
    ("DeadMissingPassengers2", "Dead or missing passengers"),
    ("DeadMissingOthers3", "Dead or missing others"),
    ("SeriouslyInjuredCrew2", "Seriously injured crew"),
    ("SeriouslyInjuredPassengers2", "Seriously injured passengers"),
    ("SeriouslyInjuredOthers2", "Seriously injured others"),
    ("InvestationReportDate", "Investigation report date"),
)
_COUNTS = frozenset(
    {
        "CrewOnboard1",
        "PassengersOnboard1",
        "OthersOnboard1",
        "DeadMissingCrew2",
        "DeadMissingPassengers2",
        "DeadMissingOthers3",
        "SeriouslyInjuredCrew2",
        "SeriouslyInjuredPassengers2",
        "SeriouslyInjuredOthers2",
    }
)  # "0": left out
_METADATA = (
    ("FlagStates", "flag"),
    ("TypeOfCasualty", "casualty_type"),
    ("ShipType1", "ship_type"),
    ("InitialEvent", "initial_event"),
    ("Location", "location"),
    ("Consequences1", "consequences"),
    ("ClassificationSociety1", "classification_society"),
    ("GrossTonnage1", "gross_tonnage"),
    ("NumberOfShipsInvolved", "ships"),
    ("IncidentDateTime", "incident_datetime"),
)


def load_casualties(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One ``casualty`` document per CSV row; a row without Reference yields LoadError."""
    try:
        handle = path.open(encoding="utf-8-sig", newline="")
    except OSError as err:
        yield LoadError(path, f"cannot read: {err}")
        return
    with handle:
        reader = csv.DictReader(handle)
        try:
            for row in reader:
                if not (row.get("Reference") or "").strip():
                    yield LoadError(f"{path}:{reader.line_num}", "row has no Reference")
                    continue
                yield casualty_document(row)
        except (csv.Error, UnicodeDecodeError) as err:
            yield LoadError(f"{path}:{reader.line_num}", f"unreadable CSV: {err}")


def casualty_document(row: dict[str, str]) -> SourceDocument:
    """The document of one casualty row."""
    values = {k: _value(v) for k, v in row.items() if k is not None}
    reference = values["Reference"]
    vessels = parse_ships(values.get("ShipsInvolved", ""))
    if vessels:
        first = vessels[0]
        vessels[0] = Vessel(
            first.name,
            first.imo,
            values.get("ShipType1") or None,
            values.get("ClassificationSociety1") or None,
        )
    when = _incident_date(values.get("IncidentDateTime", ""))
    casualty_type = values.get("TypeOfCasualty", "")
    title = " — ".join(
        p
        for p in (
            f"{reference} {', '.join(v.name for v in vessels)}".strip(),
            values.get("ShipType1", ""),
            f"{casualty_type} casualty" if casualty_type else "",
            when.isoformat() if when else "",
        )
        if p
    )
    facts = [
        f"{label}: {_sentence(_fact(col, values[col]))}"
        for col, label in _FACTS
        if values.get(col) and not (col in _COUNTS and values[col] == "0")
    ]
    text = "\n".join(facts)
    if values.get("SummaryOfEvents"):
        text += "\n\nSummary of events:\n" + values["SummaryOfEvents"]
    metadata = {key: values[col] for col, key in _METADATA if values.get(col)}
    return SourceDocument(
        kind="casualty",
        source_id=reference,
        title=title,
        sections=[Section("Casualty", text)],
        original=json.dumps(row, indent=2, ensure_ascii=False).encode("utf-8"),
        archive_name=f"{reference}.json",
        date=when,
        vessels=vessels,
        metadata=metadata,
    )


def parse_ships(value: str) -> list[Vessel]:
    """Vessels of a ShipsInvolved cell; a trailing "(ex name)" remark is dropped from names."""
    vessels = []
    for match in _SHIP.finditer(value):
        full = match[1].replace('"', "").strip(" ,;")
        name = re.sub(r"\s*\(.*\)$", "", full) or full
        if name:  # "(IMO 0)" and other placeholders are no IMO number
            imo = match[2] if match[2] and len(match[2]) == 7 else None
            vessels.append(Vessel(name=name, imo=imo))
    return vessels


def _fact(column: str, value: str) -> str:
    return value.removesuffix(" 00:00") if column == "IncidentDateTime" else value


def _value(raw: str | None) -> str:
    text = (raw or "").strip()
    return "" if _NOT_GIVEN.match(text) else text


def _sentence(value: str) -> str:
    return value if value[-1] in ".!?" else value + "."


def _incident_date(value: str) -> date | None:
    for fmt in ("%Y-%m-%d %H:%M", "%m/%d/%y %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    if value:
        logger.warning("unparseable casualty date %r", value)
    return None


# --- the registry's entries ---------------------------------------------------------------


def casualty_line(doc: SourceDocument) -> str:
    """Ship (type), casualty type, initial event, date, location; a record with no narrative
    also gets its other facts (flag, consequences, people on board, dead or injured)."""
    meta = doc.metadata
    ships = ", ".join(v.name for v in doc.vessels) or doc.source_id
    kind = meta.get("ship_type")
    head = f"{ships} ({kind})" if kind else ships
    casualty = meta.get("casualty_type")
    parts = [f"{head}: {casualty.lower()} casualty" if casualty else f"{head}: casualty"]
    if meta.get("initial_event"):
        parts.append(meta["initial_event"].rstrip(".").lower())
    if doc.date:
        parts.append(f"on {doc.date.isoformat()}")
    if meta.get("location"):
        parts.append(f"at {meta['location'].rstrip('.')}")
    line = ", ".join(parts) + "."
    if _has_narrative(doc):
        return clip(line, SUMMARY_CHARS)
    text = "\n".join(s.text for s in doc.sections)
    others = [
        fact for fact in text.splitlines() if fact.strip() and not fact.startswith(_HEAD_FACTS)
    ]
    return clip(" ".join([line, *others]), CASUALTY_SUMMARY_CHARS)


def casualty_mode(doc: SourceDocument, summary: str | None) -> EmbeddingMode:
    """``summary`` for a record with no narrative whose fact line fits the summary whole."""
    if _has_narrative(doc):
        return "full"
    line = summary if summary is not None else casualty_line(doc)
    return "summary" if line and not line.endswith("…") else "full"


def _has_narrative(doc: SourceDocument) -> bool:
    return any("Summary of events:" in s.text for s in doc.sections)


def count_rows(path: Path) -> int:
    """Rows of a CSV file below its header, for a progress bar."""
    with path.open(encoding="utf-8-sig", errors="replace", newline="") as handle:
        try:
            return max(0, sum(1 for _ in csv.reader(handle)) - 1)
        except csv.Error:
            return 1


KINDS = (Kind("casualty", summary=casualty_line, embedding_mode=casualty_mode),)
LOADERS = (
    Loader(
        "imo_casualties",
        load_casualties,
        kinds=("casualty",),
        suffixes=(".csv",),
        csv_columns=CASUALTY_COLUMNS,
        expects="an IMO casualty table (columns Reference, ShipsInvolved)",
        count=count_rows,
    ),
)
