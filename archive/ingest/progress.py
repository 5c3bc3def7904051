"""Progress bars for the long stages of ingest (parse and embed, thread digests, topics): each
with a total, so people see how far it is and an ETA; silent when disabled (``--json``, stderr
not a terminal, tests)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from tqdm import tqdm

from archive.ingest.discover import load_units
from archive.ingest.loaders import REGISTRY
from archive.ingest.model import LoadError, SourceDocument


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
    not counted), as each loader counts its file (a ``.jsonl`` line, a CSV row, an mbox
    message; any other file, and each thing not read, one). An estimate where a loader later
    skips a file; cheap next to parsing."""
    return sum(
        1 if isinstance(unit, LoadError) else REGISTRY.count(unit) for unit in load_units(paths)
    )


def counted(
    items: Iterable[SourceDocument | LoadError], bar: tqdm
) -> Iterator[SourceDocument | LoadError]:
    """``items`` unchanged, advancing ``bar`` by one per message, record or file read (a load
    error counts, a document inside another, an attachment, does not); the bar's total is
    corrected at the end."""
    for item in items:
        if isinstance(item, LoadError) or item.parent_id is None:
            bar.update(1)
        yield item
    if bar.total != bar.n:
        bar.total = bar.n
        bar.refresh()
