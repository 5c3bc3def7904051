"""TAIC (New Zealand Transport Accident Investigation Commission) investigation reports: title,
mode, date, numbered sections and, for marine reports, the vessel."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

from archive.ingest.enrich import SUMMARY_CHARS, clip
from archive.ingest.loaders.registry import Kind, Loader
from archive.ingest.loaders.text import read_text
from archive.ingest.model import LoadError, Section, SourceDocument, Vessel
from text.words import STOP_WORDS

TAIC_NAME = "Transport Accident Investigation Commission"

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
    """A TAIC report: under a "taic" folder, or named YYYY_NNN.txt and naming the Commission
    (in ``text``: the registry passes the first 64 KiB)."""
    if any("taic" in part.lower() for part in path.parent.parts):
        return True
    return bool(re.fullmatch(r"\d{4}_\d{3}", path.stem)) and TAIC_NAME in text


def load_taic_report(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One ``investigation_report`` for a TAIC report file (``YYYY_NNN.txt``)."""
    try:
        data, text = read_text(path)
    except LoadError as err:
        yield err
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


KINDS = (Kind("investigation_report", summary=lambda doc: clip(doc.title, SUMMARY_CHARS)),)
LOADERS = (
    Loader(
        "taic_report",
        load_taic_report,
        kinds=("investigation_report",),
        suffixes=(".txt",),
        accepts=lambda probe: is_taic_report(probe.path, probe.text),
        expects='a TAIC report (under a "taic" folder, or YYYY_NNN.txt naming the Commission)',
    ),
)
