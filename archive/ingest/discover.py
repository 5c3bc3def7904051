"""Walk files and folders and hand each file to the loader that understands it."""

from __future__ import annotations

import csv
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from archive.ingest import email, fleet, maritime, ntsb, pdf, text
from archive.ingest.model import LoadError, SourceDocument

logger = logging.getLogger(__name__)

Loaded = SourceDocument | LoadError
_MBOX_FROM = re.compile(rb"^From \S+ +\S.*\d\d:\d\d")  # "From sender Fri Jul  8 12:08:34 2011"


def load_paths(paths: Iterable[Path]) -> Iterator[Loaded]:
    """Every document under ``paths`` (files, or folders walked recursively in sorted order);
    a file or folder that cannot be read yields a LoadError and the walk goes on. A folder
    reached twice (a symbolic link loop, or a link to a folder already walked) is walked once."""
    for unit in load_units(paths):
        if isinstance(unit, LoadError):
            yield unit
        else:
            yield from load_unit(unit)


def load_units(paths: Iterable[Path]) -> Iterator[Path | LoadError]:
    """What :func:`load_paths` reads, in its order, as units a worker process can load on its
    own (:func:`load_unit`): files and maildir folders; or the LoadError of what cannot be read."""
    visited: set[str] = set()
    for path in paths:
        path = Path(path)
        try:
            is_dir, is_file = path.is_dir(), path.is_file()
        except OSError as err:
            yield LoadError(path, f"cannot read: {_reason(err)}")
            continue
        if is_dir:
            yield from _walk(path, visited)
        elif is_file:
            yield path
        else:
            yield LoadError(path, "no such file or directory")


def load_unit(unit: Path) -> Iterator[Loaded]:
    """The documents of one unit of :func:`load_units`: a maildir folder or a file, each naming
    the file it came from. A loader that fails in a way it did not foresee (a bug, a structure
    nested past the interpreter's stack) ends that unit with one LoadError, logged with its
    traceback; the run goes on with the next unit."""
    try:
        for item in email.load_maildir(unit) if unit.is_dir() else load_file(unit):
            if isinstance(item, SourceDocument) and not item.origin:
                item.origin = str(unit)
            yield item
    except Exception as err:  # the per-file boundary: one line in the report, never the run's end
        logger.warning("%s could not be read", unit, exc_info=True)
        yield LoadError(unit, f"could not be read: {type(err).__name__}: {str(err)[:200]}")


def _walk(folder: Path, visited: set[str]) -> Iterator[Path | LoadError]:
    real = os.path.realpath(folder)
    if real in visited:
        yield LoadError(folder, f"skipped: a symbolic link to a folder already read ({real})")
        return
    visited.add(real)
    try:
        maildir = email.is_maildir(folder)
        entries = [] if maildir else sorted(folder.iterdir())
    except OSError as err:
        yield LoadError(folder, f"cannot read folder: {_reason(err)}")
        return
    if maildir:
        yield folder
        return
    for entry in entries:
        if entry.name.startswith("."):
            continue
        try:
            is_dir, is_file = entry.is_dir(), entry.is_file()
        except OSError as err:
            yield LoadError(entry, f"cannot read: {_reason(err)}")
            continue
        if is_dir:
            yield from _walk(entry, visited)
        elif is_file:
            yield entry
        elif entry.is_symlink():
            yield LoadError(entry, "a symbolic link to nothing (or a link loop)")


def _reason(err: OSError) -> str:
    """The OS's words for ``err`` without the file name (reports name the file themselves)."""
    return err.strerror or type(err).__name__


def load_file(path: Path) -> Iterator[Loaded]:
    """One file, dispatched by its name and, where that is ambiguous, its content."""
    try:
        with path.open("rb"):
            pass
    except OSError as err:
        yield LoadError(path, f"cannot read: {_reason(err)}")
        return
    suffix = path.suffix.lower()
    loader = _LOADERS.get(suffix)
    if loader is None and (path.name == "mbox" or _MBOX_FROM.match(_first_line(path))):
        loader = email.load_mbox
    if loader is not None:
        yield from loader(path)
    elif not path.name.startswith("."):
        yield LoadError(path, f"unsupported file type {suffix or '(no extension)'!r}")


def _load_jsonl(path: Path) -> Iterator[Loaded]:
    if ntsb.is_record_line(_first_line(path).decode("utf-8", "replace")):
        yield from ntsb.load_records(path)
    else:
        yield LoadError(path, "unsupported JSONL: its first record has no ntsb_no field")


def _load_csv(path: Path) -> Iterator[Loaded]:
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


#: The loader of each file suffix; files with no known suffix are sniffed (mbox) or reported.
_LOADERS: dict[str, Callable[[Path], Iterable[Loaded]]] = {
    ".eml": email.load_eml,
    ".mbox": email.load_mbox,
    ".jsonl": _load_jsonl,
    ".csv": _load_csv,
    ".pdf": pdf.load_pdf_file,
    ".txt": _load_text,
    ".md": _load_text,
}
