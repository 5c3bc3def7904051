"""Walk files and folders and hand each file to the loader that understands it."""

from __future__ import annotations

import csv
import logging
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from archive.ingest import email, fleet, maritime, ntsb, pdf, text
from archive.ingest.model import LoadError, SourceDocument

logger = logging.getLogger(__name__)

Loaded = SourceDocument | LoadError
_MBOX_FROM = re.compile(rb"^From \S+ +\S.*\d\d:\d\d")  # "From sender Fri Jul  8 12:08:34 2011"


def load_paths(paths: Iterable[Path]) -> Iterator[Loaded]:
    """Every document under ``paths`` (files, or folders walked recursively in sorted order);
    a file that cannot be loaded yields a LoadError and the walk goes on."""
    for path in paths:
        path = Path(path)
        if path.is_dir():
            yield from _walk(path)
        elif path.is_file():
            yield from load_file(path)
        else:
            yield LoadError(path, "no such file or directory")


def _walk(folder: Path) -> Iterator[Loaded]:
    if email.is_maildir(folder):
        yield from email.load_maildir(folder)
        return
    try:
        entries = sorted(folder.iterdir())
    except OSError as err:
        yield LoadError(folder, f"cannot list folder: {err}")
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            yield from _walk(entry)
        elif entry.is_file():
            yield from load_file(entry)


def load_file(path: Path) -> Iterator[Loaded]:
    """One file, dispatched by its name and, where that is ambiguous, its content."""
    suffix = path.suffix.lower()
    if suffix == ".eml":
        yield from email.load_eml(path)
    elif suffix == ".mbox" or path.name == "mbox":
        yield from email.load_mbox(path)
    elif suffix == ".jsonl":
        if ntsb.is_record_line(_first_line(path).decode("utf-8", "replace")):
            yield from ntsb.load_records(path)
        else:
            yield LoadError(path, "unsupported JSONL: its first record has no ntsb_no field")
    elif suffix == ".csv":
        header = _csv_header(path)
        if maritime.is_casualty_header(header):
            yield from maritime.load_casualties(path)
        elif fleet.is_fleet_list(header):
            yield fleet.load_fleet_list(path)
        else:
            yield LoadError(
                path,
                "unsupported CSV: neither a casualty table (Reference, ShipsInvolved)"
                " nor a fleet list (vessel_name, imo)",
            )
    elif suffix == ".pdf":
        yield from pdf.load_pdf_file(path)
    elif suffix in (".txt", ".md"):
        yield from _load_text(path)
    elif _MBOX_FROM.match(_first_line(path)):
        yield from email.load_mbox(path)
    elif not path.name.startswith("."):
        yield LoadError(path, f"unsupported file type {suffix or '(no extension)'!r}")


def _load_text(path: Path) -> Iterator[Loaded]:
    try:
        data, content = text.read_text(path)
    except LoadError as err:
        yield err
        return
    if path.suffix.lower() == ".txt" and ntsb.is_final_report(content):
        twin = _pdf_twin(path)
        if twin is not None:
            logger.info("skipping %s: its PDF %s is loaded instead", path, twin)
            return
        yield ntsb.final_report_from_pages(
            ntsb.split_pages(content), original=data, archive_name=path.name, fallback_id=path.stem
        )
    elif path.suffix.lower() == ".txt" and maritime.is_taic_report(path, content):
        yield maritime.taic_document(path.stem, content, original=data, archive_name=path.name)
    else:
        yield text.text_document(path.name, content, original=data)


def _pdf_twin(path: Path) -> Path | None:
    """The PDF of the same report: beside the text, or in a sibling ``pdf/`` folder."""
    for candidate in (path.with_suffix(".pdf"), path.parent.parent / "pdf" / f"{path.stem}.pdf"):
        if candidate.is_file():
            return candidate
    return None


def _first_line(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.readline(65536).lstrip(b"\xef\xbb\xbf")
    except OSError:
        return b""


def _csv_header(path: Path) -> list[str]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            return next(csv.reader(handle), [])
    except (OSError, UnicodeDecodeError, csv.Error):
        return []
