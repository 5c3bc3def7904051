"""A toy document kind, ``deck_log``, declared the way every kind is: this one module, once
registered, is all ingest needs to find, load, summarise, store and vessel-tag it.

A deck log is a text file whose first line is ``DECK LOG <ship>`` and whose other lines are its
entries; it is claimed by the ``.log`` suffix, or by that first line under any other name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from archive.ingest.enrich import SUMMARY_CHARS, clip
from archive.ingest.loaders import Kind, Loader
from archive.ingest.model import LoadError, Section, SourceDocument

FIRST_LINE = re.compile(rb"^DECK LOG\b")


def load_deck_log(path: Path) -> Iterator[SourceDocument | LoadError]:
    """One ``deck_log`` document per file."""
    try:
        data = path.read_bytes()
    except OSError as err:
        yield LoadError(path, f"cannot read: {err.strerror}")
        return
    first, *rest = data.decode("utf-8", "replace").splitlines() or [""]
    ship = first.removeprefix("DECK LOG").strip(" :-")
    entries = [line.strip() for line in rest if line.strip()]
    if not ship or not entries:
        yield LoadError(path, "a deck log needs a ship on its first line and an entry")
        return
    yield SourceDocument(
        kind="deck_log",
        source_id=path.name,
        title=f"Deck log of {ship}",
        sections=[Section("Entries", "\n".join(entries))],
        original=data,
        archive_name=path.name,
        metadata={"ship": ship, "entries": str(len(entries)), "first_entry": entries[0]},
    )


def deck_log_summary(doc: SourceDocument) -> str:
    meta = doc.metadata
    return clip(
        f"Deck log of {meta['ship']}, {meta['entries']} entries, opening: {meta['first_entry']}",
        SUMMARY_CHARS,
    )


KINDS = (Kind("deck_log", summary=deck_log_summary, vessel_mentions=True),)
LOADERS = (
    Loader(
        "deck_log",
        load_deck_log,
        kinds=("deck_log",),
        suffixes=(".log",),
        first_bytes=FIRST_LINE,
        accepts=lambda probe: FIRST_LINE.match(probe.first_line) is not None,
        expects='a deck log ("DECK LOG <ship>" on its first line)',
    ),
)
