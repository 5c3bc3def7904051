"""Maildir folders: every message file under cur/, new/ and nested folders, read as emails."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from archive.ingest.loaders.email import load_eml
from archive.ingest.loaders.registry import Loader, link_refusal
from archive.ingest.model import LoadError, SourceDocument


def load_maildir(path: Path) -> Iterator[SourceDocument | LoadError]:
    """Every message file under a maildir: cur/, new/, nested folders (not tmp/ or dotfiles);
    a symbolic link is followed only to a file inside the maildir (linked folders are not
    walked)."""
    unreadable: list[LoadError] = []
    files = _message_files(path, unreadable)
    yield from unreadable
    inside = [os.path.realpath(path)]
    for file in files:
        try:
            refusal = link_refusal(file, inside, within="the maildir")
        except OSError as err:
            yield LoadError(file, f"cannot read: {err.strerror or err}")
            continue
        if refusal:
            yield LoadError(file, refusal)
        else:
            yield from load_eml(file)


def _message_files(path: Path, unreadable: list[LoadError]) -> list[Path]:
    files: list[Path] = []
    for folder, dirs, names in os.walk(
        path, onerror=lambda err: unreadable.append(_unreadable_folder(err))
    ):
        dirs.sort()
        files.extend(Path(folder) / name for name in names)
    return [file for file in sorted(files) if not _skipped(file.relative_to(path).parts)]


def _skipped(parts: tuple[str, ...]) -> bool:
    return "tmp" in parts[:-1] or any(part.startswith(".") for part in parts)


def count_messages(path: Path) -> int:
    """Message files in a maildir, for a progress bar."""
    return len(_message_files(path, []))


def _unreadable_folder(err: OSError) -> LoadError:
    return LoadError(err.filename or "?", f"cannot read folder: {err.strerror or err}")


def is_maildir(path: Path) -> bool:
    """A folder with cur/ or new/ in it."""
    return path.is_dir() and ((path / "cur").is_dir() or (path / "new").is_dir())


LOADERS = (
    Loader(
        "maildir",
        load_maildir,
        kinds=("email", "attachment"),
        folder=is_maildir,
        count=count_messages,
    ),
)
