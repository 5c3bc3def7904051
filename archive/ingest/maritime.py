"""Marine sources: IMO GISIS casualty rows (CSV) and TAIC investigation reports (text)."""

from __future__ import annotations

import csv
import json
import logging
import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

from archive.ingest.model import LoadError, Section, SourceDocument, Vessel
from text.words import STOP_WORDS

logger = logging.getLogger(__name__)

CASUALTY_COLUMNS = frozenset({"Reference", "ShipsInvolved"})
TAIC_NAME = "Transport Accident Investigation Commission"

# --- IMO casualties -----------------------------------------------------------------------

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


def is_casualty_header(columns: list[str]) -> bool:
    """Whether a CSV header is that of the IMO casualty table."""
    return {c.strip().lstrip("\ufeff") for c in columns} >= CASUALTY_COLUMNS


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


# --- TAIC reports -------------------------------------------------------------------------

_MODES = {"0": "aviation", "1": "rail", "2": "marine"}
_NUMBER = r"(?:[A-Z]{2}\s*-\s*)?\d{2,4}\s*-\s*\d{3}"  # "10 -201", "MO -2019 -203", "AO-2013-003"
_TITLE_LINE = re.compile(
    rf"^(?:final\s+report|report|inquiry)\s+{_NUMBER}[^:|]{{0,30}}:\s*(.*)$", re.IGNORECASE
)
_INQUIRY_LINE = re.compile(
    rf"^(?:aviation|rail|marine)\s+(?:inquiry|report)\s+{_NUMBER}\s*:?$", re.IGNORECASE
)
_DATE = re.compile(
    r"\b(\d{1,2})\s+(January|February|March|April|May|June|July|August|"
    r"September|October|November|December)\s+(\d{4})\b"
)
_PAGE_HEADER = (  # running headers: "Report 10 -201 | Page i", "Page ii | Final report AO -..."
    re.compile(
        rf"^(?:final\s+report|report)\s+{_NUMBER}\s*(?:\|\s*page\s+[ivxlc\d]+)?(?:\s+|$)"
        r"(?!:)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"^page\s+[ivxlc\d]+\s*\|\s*(?:final\s+report|report)\s+{_NUMBER}\s*", re.IGNORECASE
    ),
)
_TOC_LINE = re.compile(r"(?:\.\s?){4,}|(?:\s\.){4,}")  # dot leaders of a contents page
_NUMBERED_PARAGRAPH = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?\s+\S")
_HEADING = re.compile(r"^(\d{1,2})((?:\.\d{1,2})*)\.?\s+([A-Z][^\s].{1,58})$")
_VESSEL = re.compile(
    r"\b((?i:carrier|container\s?ship|ship|vessel|ferry|trawler|tanker|tug|barge|boat|yacht|"
    r"launch|taxi|catamaran)|M\.V\.|MV)\s*,?\s+(?:the\s+)?(?:MV\s+|MT\s+|FV\s+)?"
    r"([A-Z][\w'’.-]*(?:\s+(?:of\s+|the\s+)?[A-Z0-9][\w'’.-]*){0,3})"
)
_NOT_QUALIFIERS = STOP_WORDS | {"board"}  # words before a vessel type that do not qualify it


def is_taic_report(path: Path, text: str) -> bool:
    """A TAIC report: under a "taic" folder, or named YYYY_NNN.txt and naming the Commission."""
    if any("taic" in part.lower() for part in path.parent.parts):
        return True
    return bool(re.fullmatch(r"\d{4}_\d{3}", path.stem)) and TAIC_NAME in text


def load_taic_report(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One ``investigation_report`` for a TAIC report file (``YYYY_NNN.txt``)."""
    try:
        data = path.read_bytes()
        text = data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        yield LoadError(path, f"cannot read as UTF-8 text: {err}")
        return
    yield taic_document(path.stem, text, original=data, archive_name=path.name)


def taic_document(stem: str, text: str, *, original: bytes, archive_name: str) -> SourceDocument:
    """Title, mode, date, numbered sections and (for marine reports) the vessel of a report."""
    text = re.sub(r"(?<=\w) -(?=\w)", "-", text.replace("\r", ""))  # "ZK -MCP" -> "ZK-MCP"
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    title = _taic_title(lines) or stem
    number = stem.rsplit("_", 1)[-1]
    mode = _MODES.get(number[:1], "other")
    found = list(_DATE.finditer(title))
    when = _long_date(found[-1]) if found else None
    vessels: list[Vessel] = []
    for match in _VESSEL.finditer(title) if mode == "marine" else ():
        name = match[2].strip(" .,")
        if name not in {v.name for v in vessels}:
            vessels.append(Vessel(name=name, vessel_type=_vessel_type(title, match)))
    metadata = {"mode": mode, "agency": "TAIC" if TAIC_NAME in text else "other"}
    return SourceDocument(
        kind="investigation_report",
        source_id=stem,
        report_no=stem,
        title=title,
        sections=_taic_sections(lines),
        original=original,
        archive_name=archive_name,
        date=when,
        vessels=vessels,
        metadata=metadata,
    )


def _taic_title(lines: list[str]) -> str | None:
    head = lines[:80]
    for i, line in enumerate(head):
        if _TITLE_LINE.match(line) or _INQUIRY_LINE.match(line):
            label, _, rest = line.partition(":")
            parts = [rest.strip()] if rest.strip() else []
            for follow in head[i + 1 : i + 6]:
                if (
                    _DATE.search(" ".join(parts))
                    or not any(c.isalpha() for c in follow)
                    or follow.startswith(("The Transport", "Transport Accident"))
                ):
                    break
                parts.append(follow.strip(" ,"))
            return f"{label.strip()}: {', '.join(p.strip(' ,') for p in parts)}".strip(" :,")
    return next((line for line in head if len(line) >= 20 and len(line.split()) >= 3), None)


def _taic_sections(lines: list[str]) -> list[Section]:
    """Split at numbered headings whose numbers run in order ("1 ...", "2.1 ...", "3. ...")."""
    sections: list[Section] = []
    name, major = "Front matter", 0
    body: list[str] = []
    for raw in lines:
        line = _strip_page_header(raw)
        if not line or _TOC_LINE.search(line):
            continue
        match = _HEADING.match(line)
        if match and _is_heading(match, major):
            if body:
                sections.append(Section(name, "\n".join(body)))
            major = int(match[1])
            name, body = f"{match[1]}{match[2]} {match[3].strip()}", []
        else:
            if body and _NUMBERED_PARAGRAPH.match(line):
                body.append("")  # "3.2.1 ..." starts a paragraph: a blank line for the chunker
            body.append(line)
    if body:
        sections.append(Section(name, "\n".join(body)))
    if len(sections) < 3:
        return [Section("Report", "\n".join(s.text for s in sections))]
    return sections


def _is_heading(match: re.Match[str], major: int) -> bool:
    words = match[3].split()
    if len(words) > 9 or match[3].rstrip()[-1] in ".,:;" or _DATE.search(match[3]):
        return False
    number = int(match[1])
    return (
        number == major + 1
        or (number == major + 2 and not match[2])
        or (number == major and bool(match[2]))
    )


def _strip_page_header(line: str) -> str:
    for pattern in _PAGE_HEADER:
        line = pattern.sub("", line, count=1)
    return line.strip()


def _vessel_type(title: str, match: re.Match[str]) -> str:
    """The type word of a vessel match with up to two qualifiers before it: "Bulk log carrier"."""
    if match[1] in ("MV", "M.V."):
        return "Motor vessel"
    kind = match[1]
    for word in reversed(title[: match.start(1)].replace(",", " ").split()[-2:]):
        if word.lower() in _NOT_QUALIFIERS or not word.replace("-", "").isalpha():
            break
        kind = f"{word}{kind}" if word.endswith("-") else f"{word} {kind}"
    return kind[:1].upper() + kind[1:]


def _long_date(match: re.Match[str]) -> date | None:
    try:
        return datetime.strptime(" ".join(match.groups()), "%d %B %Y").date()
    except ValueError:
        return None
