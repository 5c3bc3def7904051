"""NTSB aviation accidents: JSONL records and section-aware final reports (PDF text or TXT)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

from archive.ingest.enrich import SUMMARY_CHARS, body_sentences, clip, fill
from archive.ingest.loaders.registry import Kind, Loader, PageReader, Probe
from archive.ingest.loaders.text import read_text
from archive.ingest.model import LoadError, Section, SourceDocument
from text.sentences import unglue

logger = logging.getLogger(__name__)

FINAL_REPORT_MARK = "Aviation Investigation Final Report"
REPORT_NO = re.compile(r"\b[A-Z]{3}\d{2}[A-Z]{2}\d{3}[A-Z]?\b")  # ERA25LA084, DCA25LA091

# Headings of an NTSB final report (any "<crew member> Information" line is one as well).
HEADINGS = frozenset(
    {
        "Analysis",
        "Probable Cause and Findings",
        "Findings",
        "Factual Information",
        "History of Flight",
        "Pilot Information",
        "Aircraft and Owner/Operator Information",
        "Meteorological Information and Flight Plan",
        "Airport Information",
        "Wreckage and Impact Information",
        "Medical and Pathological Information",
        "Preventing Similar Accidents",
        "Administrative Information",
        "Flight Recorders",
        "Tests and Research",
        "Organizational and Management Information",
        "Survival Aspects",
        "Additional Information",
        "Fire",
        "Communications",
        "Damage to Aircraft",
        "Other Damage",
        "Injuries to Persons",
        "Aids to Navigation",
        "Aircraft Information",
        "Personnel Information",
        "Flight Recorder",
        "Aerodrome Information",
    }
)
_INFO_HEADING = re.compile(r"[A-Z][A-Za-z-]*(?: [A-Za-z-]+){0,3} Information")
_PAGE_LINE = re.compile(r"^\s*Page (\d+) of (\d+)\b")
_FIELDS = re.compile(
    r"\b(Location|Accident Number|Incident Number|Date & Time|Registration|Aircraft Damage|"
    r"Aircraft|Defining Event|Injuries|Flight Conducted Under):"
)
_BOILERPLATE = "The National Transportation Safety Board (NTSB) is an independent federal agency"
_PC_LEAD = re.compile(
    r"^.*?determines the probable cause\(?s?\)? of this (?:accident|incident)"
    r" (?:to be|was)\s*:?\s*",
    re.IGNORECASE | re.DOTALL,
)


# --- JSONL records ------------------------------------------------------------------------


def is_record_line(line: str) -> bool:
    """Whether a JSONL line looks like an NTSB record (has ``ntsb_no``)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return False
    return isinstance(record, dict) and "ntsb_no" in record


def load_records(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One ``ntsb_report`` per JSONL line; a bad line yields LoadError("path:line", ...)."""
    try:
        handle = path.open("rb")
    except OSError as err:
        yield LoadError(path, f"cannot read: {err}")
        return
    with handle:
        for lineno, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
                yield record_document(record)
            except UnicodeDecodeError:
                yield LoadError(f"{path}:{lineno}", "line is not UTF-8")
            except json.JSONDecodeError as err:
                yield LoadError(f"{path}:{lineno}", f"invalid JSON: {err.msg}")
            except ValueError as err:
                yield LoadError(f"{path}:{lineno}", str(err))


def record_document(record: Any) -> SourceDocument:
    """The document of one NTSB record; ValueError when a required field is missing."""
    if not isinstance(record, dict):
        raise ValueError("record is not a JSON object")
    number = _text(record.get("ntsb_no"))
    narrative = unglue(_text(record.get("narrative")))
    cause = _text(record.get("probable_cause"))
    if not number:
        raise ValueError("record has no ntsb_no")
    if not (narrative or cause):
        raise ValueError(f"{number} has neither narrative nor probable_cause")
    sections = [Section("Narrative", narrative)] if narrative else []
    if cause:
        sections.append(Section("Probable Cause", cause))
    place = ", ".join(p for p in (_text(record.get("city")), _text(record.get("state"))) if p)
    aircraft = " ".join(p for p in (_text(record.get("make")), _text(record.get("model"))) if p)
    event_date = _iso_date(_text(record.get("event_date")))
    # The title is the record's metadata line: BM25 indexes it with every chunk (so a registration
    # such as N3424Y or a make and model finds the report), the embedder leaves it out.
    registration = _text(record.get("registration")).upper()
    title = " ".join(
        p for p in (number, _text(record.get("event_date")), place, aircraft, registration) if p
    )
    metadata = {
        key: _text(record.get(key))
        for key in (
            "registration",
            "make",
            "model",
            "aircraft_category",
            "damage",
            "weather",
            "far_part",
            "purpose",
            "report_type",
            "highest_injury",
            "city",
            "state",
            "country",
            "event_id",
        )
        if _text(record.get(key))
    }
    counts = [f"{k} {record[k]}" for k in ("fatal", "serious", "minor") if k in record]
    if counts:
        metadata["injuries"] = ", ".join(counts)
    metadata["source"] = "record"
    return SourceDocument(
        kind="ntsb_report",
        source_id=number,
        report_no=number,
        title=title,
        sections=sections,
        original=json.dumps(record, indent=2, ensure_ascii=False).encode("utf-8"),
        archive_name=f"{number}.json",
        date=event_date,
        metadata=metadata,
    )


# --- final reports ------------------------------------------------------------------------


def is_final_report(first_page: str) -> bool:
    """Whether a text's first page is that of an NTSB "Aviation Investigation Final Report"."""
    return FINAL_REPORT_MARK in first_page[:3000]


def load_final_report_txt(path: Path) -> Iterator[SourceDocument | LoadError]:
    """A final report saved as text ("Page N of M" lines mark its pages)."""
    try:
        data, text = read_text(path)
    except LoadError as err:
        yield err
        return
    yield final_report_from_pages(
        split_pages(text), original=data, archive_name=path.name, fallback_id=path.stem
    )


def _load_unless_pdf_loaded(path: Path) -> Iterator[SourceDocument | LoadError]:
    """A final report's text, unless its PDF is there to be loaded instead."""
    twin = _pdf_twin(path)
    if twin is not None:
        logger.info("skipping %s: its PDF %s is loaded instead", path, twin)
        return
    yield from load_final_report_txt(path)


def _pdf_twin(path: Path) -> Path | None:
    """The PDF of the same report: beside the text, or in a sibling ``pdf/`` folder."""
    for candidate in (path.with_suffix(".pdf"), path.parent.parent / "pdf" / f"{path.stem}.pdf"):
        if candidate.is_file():
            return candidate
    return None


def split_pages(text: str) -> list[str]:
    """Cut a report's text at its "Page N of M" lines (text before the first is page 1)."""
    pages: list[list[str]] = [[]]
    for line in text.splitlines():
        match = _PAGE_LINE.match(line)
        if match and int(match[1]) == len(pages) + 1:
            pages.append([])
        pages[-1].append(line)
    return ["\n".join(p) for p in pages]


def final_report_from_pages(
    pages: list[str], *, original: bytes, archive_name: str, fallback_id: str
) -> SourceDocument:
    """Split a final report's pages by its headings; each Section keeps its starting page."""
    sections = _sections(pages)
    overview = next((s.text for s in sections if s.name == "Overview"), "")
    fields = _header_fields(overview)
    number = (
        fields.get("accident_number")
        or fields.get("incident_number")
        or _first_report_no("\n".join(pages))
        or fallback_id
    )
    registration = fields.get("registration", "").split(" ")[0].upper()
    title = " ".join(
        p for p in (number, fields.get("location"), fields.get("aircraft"), registration) if p
    )
    when = re.search(r"[A-Z][a-z]+ \d{1,2}, \d{4}", fields.get("date_time", ""))
    fields.update(source="final_report", pages=str(len(pages)))
    return SourceDocument(
        kind="ntsb_report",
        source_id=number,
        report_no=number,
        title=title,
        sections=sections,
        original=original,
        archive_name=archive_name,
        date=_long_date(when[0]) if when else None,
        metadata=fields,
    )


def _sections(pages: list[str]) -> list[Section]:
    sections: list[Section] = []
    name, start = "Overview", 1  # start: page of the section's first line of text
    lines: list[str] = []

    def flush() -> None:
        body = re.sub(r"(?<=\w)-\n(?=\w)", "-", "\n".join(lines)).strip()
        if name == "Administrative Information" and _BOILERPLATE in body:
            body = body[: body.index(_BOILERPLATE)].strip()
        if body:
            sections.append(Section(name=name, text=body, page=start))

    for page_no, page in enumerate(pages, start=1):
        for raw in page.splitlines():
            line = " ".join(raw.split())
            if not line or _PAGE_LINE.match(line) or line == FINAL_REPORT_MARK:
                continue
            if line in HEADINGS or _INFO_HEADING.fullmatch(line):
                flush()
                name = line
                lines = []
            else:
                if not lines:
                    start = page_no
                lines.append(line)
    flush()
    return sections


def _header_fields(overview: str) -> dict[str, str]:
    parts = _FIELDS.split(" ".join(overview.split()))
    return {
        label.lower().replace(" & ", "_").replace(" ", "_"): value.strip()
        for label, value in zip(parts[1::2], parts[2::2], strict=True)
        if value.strip()
    }


def _first_report_no(text: str) -> str | None:
    match = REPORT_NO.search(text)
    return match[0] if match else None


def _long_date(value: str) -> date | None:
    try:
        return datetime.strptime(value, "%B %d, %Y").date()
    except ValueError:
        return None


def _iso_date(value: str) -> date | None:
    try:
        return date.fromisoformat(value[:10]) if value else None
    except ValueError:
        logger.warning("unparseable NTSB event date %r", value)
        return None


def _text(value: object) -> str:
    return "" if value is None else " ".join(str(value).split())


# --- the registry's entries ---------------------------------------------------------------


def ntsb_summary(doc: SourceDocument) -> str:
    """The title line and the probable cause, else the first informative sentences."""
    title = doc.title.rstrip(".") + "."
    cause = _probable_cause(doc)
    if cause:
        return clip(f"{title} Probable cause: {cause}", SUMMARY_CHARS)
    return fill(title, body_sentences(doc))


def _probable_cause(doc: SourceDocument) -> str:
    for section in doc.sections:
        if section.name == "Probable Cause":
            return " ".join(section.text.split())
        if section.name == "Probable Cause and Findings":
            text = " ".join(section.text.split())
            statement = _PC_LEAD.sub("", text, count=1)
            return re.split(r"\bFindings\b", statement, maxsplit=1)[0].strip()
    return ""


def count_records(path: Path) -> int:
    """Records (non-blank lines) in a JSONL file, for a progress bar."""
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def _is_records(probe: Probe) -> bool:
    return is_record_line(probe.first_line.decode("utf-8", "replace"))


def _from_pages(pages: list[str], original: bytes, name: str, fallback: str) -> SourceDocument:
    return final_report_from_pages(
        pages, original=original, archive_name=name, fallback_id=fallback
    )


KINDS = (Kind("ntsb_report", summary=ntsb_summary),)
PAGE_READERS = (
    PageReader("ntsb_final_report", lambda pages: is_final_report(pages[0]), _from_pages),
)
LOADERS = (
    Loader(
        "ntsb_records",
        load_records,
        kinds=("ntsb_report",),
        suffixes=(".jsonl",),
        accepts=_is_records,
        expects="NTSB records (an ntsb_no field in the first record)",
        count=count_records,
    ),
    Loader(
        "ntsb_final_report_text",
        _load_unless_pdf_loaded,
        kinds=("ntsb_report",),
        suffixes=(".txt",),
        accepts=lambda probe: is_final_report(probe.text),
        expects=f'an NTSB final report ("{FINAL_REPORT_MARK}" on its first page)',
    ),
)
