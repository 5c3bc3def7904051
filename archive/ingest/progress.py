"""Progress bars for the long stages of ingest (parse and embed, thread digests, topics): each
with a total, so people see how far it is and an ETA; silent when disabled (``--json``, stderr
not a terminal, tests)."""

from __future__ import annotations

import csv
import re
import shutil
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from tqdm import tqdm

from archive.ingest.model import LoadError, SourceDocument

_MBOX_FROM = re.compile(rb"^From \S+ +\S.*\d\d:\d\d", re.MULTILINE)


def wanted(requested: bool, *, json_output: bool = False, stream: IO[str] | None = None) -> bool:
    """Whether to draw bars: asked for, no machine-readable output, and stderr is a terminal."""
    stream = stream if stream is not None else sys.stderr
    return requested and not json_output and stream.isatty()


def stage_bar(desc: str, total: int | None, *, unit: str, enabled: bool) -> tqdm:
    """A bar on stderr for one stage; left on screen when done, so the stages read as a log."""
    return tqdm(
        desc=desc,
        total=total,
        unit=unit,
        disable=not enabled,
        file=sys.stderr,
        leave=True,
        ncols=min(120, shutil.get_terminal_size().columns),  # a pty of size 0 gets 80
        smoothing=0.05,
    )


def count_sources(paths: Iterable[Path]) -> int:
    """How many messages, records and files the loaders will read under ``paths`` (attachments
    not counted): a ``.jsonl`` line, a CSV row, an mbox message and any other file count one.
    An estimate where a loader later skips a file; cheap next to parsing."""
    total = 0
    for path in paths:
        path = Path(path)
        if path.is_dir():
            files = (p for p in sorted(path.rglob("*")) if p.is_file())
            total += sum(_units(p) for p in files if not _hidden(p.relative_to(path)))
        elif path.is_file():
            total += _units(path)
    return total


def _hidden(relative: Path) -> bool:
    return any(part.startswith(".") for part in relative.parts) or "tmp" in relative.parts[:-1]


def _units(path: Path) -> int:
    suffix = path.suffix.lower()
    try:
        if suffix == ".jsonl":
            with path.open("rb") as handle:
                return sum(1 for line in handle if line.strip())
        if suffix == ".csv":
            with path.open(encoding="utf-8-sig", errors="replace", newline="") as handle:
                return max(0, sum(1 for _ in csv.reader(handle)) - 1)
        if suffix == ".mbox" or path.name == "mbox":
            return max(1, len(_MBOX_FROM.findall(path.read_bytes())))
    except (OSError, csv.Error):
        return 1
    return 1


def counted(
    items: Iterable[SourceDocument | LoadError], bar: tqdm
) -> Iterator[SourceDocument | LoadError]:
    """``items`` unchanged, advancing ``bar`` by one per message, record or file read (a load
    error counts, an attachment does not); the bar's total is corrected at the end."""
    for item in items:
        if isinstance(item, LoadError) or item.kind != "attachment":
            bar.update(1)
        yield item
    if bar.total != bar.n:
        bar.total = bar.n
        bar.refresh()
