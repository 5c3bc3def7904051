"""Maildir folders: every message file under cur/, new/ and nested folders."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from archive.ingest.loaders.email import load_eml
from archive.ingest.model import LoadError, SourceDocument


def load_maildir(path: Path) -> Iterator[SourceDocument | LoadError]:
    """Every message file under a maildir: cur/, new/, nested folders (not tmp/ or dotfiles)."""
    files: list[Path] = []
    unreadable: list[LoadError] = []
    for folder, dirs, names in os.walk(
        path, onerror=lambda err: unreadable.append(_unreadable_folder(err))
    ):
        dirs.sort()
        files.extend(Path(folder) / name for name in names)
    yield from unreadable
    for file in sorted(files):
        parts = file.relative_to(path).parts
        if "tmp" in parts[:-1] or any(part.startswith(".") for part in parts):
            continue
        yield from load_eml(file)


def _unreadable_folder(err: OSError) -> LoadError:
    return LoadError(err.filename or "?", f"cannot read folder: {err.strerror or err}")


def is_maildir(path: Path) -> bool:
    """A folder with cur/ or new/ in it."""
    return path.is_dir() and ((path / "cur").is_dir() or (path / "new").is_dir())
