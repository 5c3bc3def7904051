"""Walk files and folders and hand each file to the loader registry, which picks its loader.

Discovery knows no format: it walks folders in sorted order, skips dotfiles, asks the registry
whether a folder is read as one whole (a maildir), and leaves every file to
:data:`archive.ingest.loaders.REGISTRY` (asked once per file). A symbolic link is followed only
when its target lies inside one of the folders being ingested; any other is skipped and reported
as a LoadError (path and reason), like every file that cannot be read. A folder reached twice (a
link loop, or a link to a folder already walked) is walked once.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from archive.ingest.loaders import REGISTRY, Loaded, link_refusal
from archive.ingest.loaders.registry import reason
from archive.ingest.model import LoadError, SourceDocument

__all__ = ["Loaded", "load_paths", "load_unit", "load_units"]


def load_paths(paths: Iterable[Path]) -> Iterator[Loaded]:
    """Every document under ``paths`` (files, or folders walked recursively in sorted order);
    a file or folder that cannot be read, or a link leading out of them, yields a LoadError and
    the walk goes on."""
    for unit in load_units(paths):
        if isinstance(unit, LoadError):
            yield unit
        else:
            yield from load_unit(unit)


def load_units(paths: Iterable[Path]) -> Iterator[Path | LoadError]:
    """What :func:`load_paths` reads, in its order, as units a worker process can load on its
    own (:func:`load_unit`): files and folders read whole; or the LoadError of what is not read.
    Paths named here are read even when they are links (whoever named them chose them)."""
    paths = [Path(p) for p in paths]
    roots = [os.path.realpath(p) for p in paths if _is_dir(p)]
    visited: set[str] = set()
    for path in paths:
        try:
            is_dir, is_file = path.is_dir(), path.is_file()
        except OSError as err:
            yield LoadError(path, f"cannot read: {reason(err)}")
            continue
        if is_dir:
            yield from _walk(path, visited, roots)
        elif is_file:
            yield path
        else:
            yield LoadError(path, "no such file or directory")


def load_unit(unit: Path) -> Iterator[Loaded]:
    """The documents of one unit of :func:`load_units`, by the loader the registry picks (whose
    boundary turns a loader's unforeseen failure into one LoadError), each naming the file it
    came from."""
    for item in REGISTRY.load(unit):
        if isinstance(item, SourceDocument) and not item.origin:
            item.origin = str(unit)
        yield item


def _walk(folder: Path, visited: set[str], roots: list[str]) -> Iterator[Path | LoadError]:
    real = os.path.realpath(folder)
    if real in visited:
        yield LoadError(folder, f"skipped: a symbolic link to a folder already read ({real})")
        return
    visited.add(real)
    try:
        whole = REGISTRY.folder_loader(folder) is not None
        entries = [] if whole else sorted(folder.iterdir())
    except OSError as err:
        yield LoadError(folder, f"cannot read folder: {reason(err)}")
        return
    if whole:
        yield folder
        return
    for entry in entries:
        if not entry.name.startswith("."):
            yield from _entry(entry, visited, roots)


def _entry(entry: Path, visited: set[str], roots: list[str]) -> Iterator[Path | LoadError]:
    try:
        refusal = link_refusal(entry, roots)
        is_dir, is_file = entry.is_dir(), entry.is_file()
    except OSError as err:
        yield LoadError(entry, f"cannot read: {reason(err)}")
        return
    if refusal:
        yield LoadError(entry, refusal)
    elif is_dir:
        yield from _walk(entry, visited, roots)
    elif is_file:
        yield entry
    elif entry.is_symlink():
        yield LoadError(entry, "a symbolic link to nothing (or a link loop)")


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False
