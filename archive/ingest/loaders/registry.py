"""The registry's machinery: what a loader and a kind declare, and how a file finds its loader.

See :mod:`archive.ingest.loaders` for the registry itself and how to add a loader or a kind.
"""

from __future__ import annotations

import csv
import importlib
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from archive.ingest.model import EmbeddingMode, LoadError, SourceDocument

logger = logging.getLogger(__name__)

#: What a loader yields: documents, and a LoadError for each thing it could not read.
Loaded = SourceDocument | LoadError

#: Bytes of a file's start a probe reads (first line, CSV header, the marks of a report).
HEAD_BYTES = 65536


class Probe:
    """The start of one file, read once, which every loader's tests look at."""

    def __init__(self, path: Path, head: bytes) -> None:
        self.path = path
        self.head = head.removeprefix(b"\xef\xbb\xbf")  # at most HEAD_BYTES, no UTF-8 BOM
        self.name = path.name
        self.suffix = path.suffix.lower()  # ".csv"; "" for none

    @classmethod
    def read(cls, path: Path) -> Probe:
        """The probe of ``path``; OSError when it cannot be opened or read."""
        with path.open("rb") as handle:
            return cls(path, handle.read(HEAD_BYTES))

    @cached_property
    def first_line(self) -> bytes:
        """The first line, without its line ending."""
        return self.head.split(b"\n", 1)[0].rstrip(b"\r")

    @cached_property
    def text(self) -> str:
        """The head as text (undecodable bytes replaced): enough to find a title page's marks."""
        return self.head.decode("utf-8", "replace")

    @cached_property
    def csv_header(self) -> tuple[str, ...]:
        """The columns of the first line read as CSV, stripped; none when it is not UTF-8."""
        try:
            line = self.first_line.decode("utf-8")
            return tuple(c.strip() for c in next(csv.reader([line]), []))
        except (UnicodeDecodeError, csv.Error):
            return ()


@dataclass(frozen=True)
class Loader:
    """One file format: which files it accepts and how it loads them.

    A file is offered to the loaders that claim its name (``suffixes``, ``names``): first to
    those that test its content (``csv_columns``, ``accepts``), in registration order, then to
    those that take any file so named. A file whose name no loader claims is offered to the
    loaders whose ``first_bytes`` match its first line.
    """

    name: str  # "ntsb_records": shown in logs and errors
    load: Callable[[Path], Iterable[Loaded]]  # the documents of one file (or claimed folder)
    kinds: tuple[str, ...] = ()  # the kinds of document it yields (each declared by a Kind)
    suffixes: tuple[str, ...] = ()  # ".jsonl": lower case, with the dot
    names: tuple[str, ...] = ()  # whole file names, lower case: "mbox"
    first_bytes: re.Pattern[bytes] | None = None  # the first line of an otherwise unclaimed file
    csv_columns: frozenset[str] = frozenset()  # header columns required (any case)
    accepts: Callable[[Probe], bool] | None = None  # any other test of the file's start
    expects: str = ""  # what the content tests look for, named when a file fails them all
    folder: Callable[[Path], bool] | None = None  # claims a whole folder (a maildir)
    count: Callable[[Path], int] | None = None  # sources in a file for progress (default 1)

    @property
    def tests_content(self) -> bool:
        return bool(self.csv_columns) or self.accepts is not None

    def claims_name(self, probe: Probe) -> bool:
        return probe.suffix in self.suffixes or probe.name.lower() in self.names

    def takes(self, probe: Probe) -> bool:
        """Whether the file's content passes this loader's tests."""
        if self.csv_columns:
            header = {c.lower() for c in probe.csv_header}
            if not {c.lower() for c in self.csv_columns} <= header:
                return False
        return self.accepts is None or self.accepts(probe)


@dataclass(frozen=True)
class PageReader:
    """Recognises a document in text that comes page by page (a PDF's text layer; OCR'd scans):
    :func:`~archive.ingest.loaders.pdf.load_pdf_file` asks every reader before it settles for a
    plain ``text`` document."""

    name: str  # "ntsb_final_report"
    accepts: Callable[[list[str]], bool]  # the pages' text (the first page is often enough)
    #: (pages, original bytes, archive name, fallback id: the file's stem) -> the document
    read: Callable[[list[str], bytes, str, str], SourceDocument]


@dataclass(frozen=True)
class Kind:
    """What ingest knows about one kind of document, whichever loader made it.

    Every field has a default that suits plain prose, so a kind declares only what differs.
    """

    name: str  # the ``SourceDocument.kind`` it describes
    #: The context summary (≤ ``enrich.SUMMARY_CHARS``); default: title and first sentences.
    summary: Callable[[SourceDocument], str] | None = None
    #: One line naming the document for a summarising chat model; default: its title.
    header: Callable[[SourceDocument], str] | None = None
    #: The embedding mode given the summary, unless the loader chose ``metadata_only``;
    #: default ``full``.
    embedding_mode: Callable[[SourceDocument, str | None], EmbeddingMode] | None = None
    model_summary: bool = False  # a chat model may write its summary (``llm_enricher``)
    vessel_mentions: bool = False  # linked to the vessels its text names (vessel tagging)


class Registry:
    """Loaders and kinds, collected from modules (imported on first use, so listing a module
    costs nothing until a file is loaded). A module declares ``LOADERS``, ``KINDS`` and/or
    ``PAGE_READERS``."""

    def __init__(self, modules: Iterable[str]) -> None:
        self._modules = list(modules)
        self._loaders: tuple[Loader, ...] | None = None
        self._kinds: dict[str, Kind] = {}
        self._page_readers: tuple[PageReader, ...] = ()

    @property
    def modules(self) -> tuple[str, ...]:
        """The modules declaring this registry's loaders and kinds, in order."""
        return tuple(self._modules)

    def register(self, module: str) -> None:
        """Add the loaders and kinds of ``module`` (its content tests come after those already
        registered); a module already registered is left where it is."""
        if module not in self._modules:
            self._modules.append(module)
            self._loaders = None

    def unregister(self, module: str) -> None:
        """Remove a module added with :meth:`register`."""
        self._modules.remove(module)
        self._loaders = None

    def loaders(self) -> tuple[Loader, ...]:
        """Every loader, in registration order."""
        if self._loaders is None:
            self._collect()
        assert self._loaders is not None
        return self._loaders

    def kinds(self) -> tuple[Kind, ...]:
        """Every declared kind, in registration order."""
        self.loaders()
        return tuple(self._kinds.values())

    def kind(self, name: str) -> Kind:
        """The declaration of kind ``name``; an undeclared kind gets every default."""
        self.loaders()
        return self._kinds.get(name) or Kind(name)

    def page_reader(self, pages: list[str]) -> PageReader | None:
        """The first page reader that recognises ``pages``, if any."""
        self.loaders()
        return next((r for r in self._page_readers if r.accepts(pages)), None)

    def choose(self, probe: Probe) -> Loader | str:
        """The loader of the probed file, or why none takes it."""
        loaders = self.loaders()
        named = [loader for loader in loaders if loader.claims_name(probe)]
        if named:
            ordered = sorted(named, key=lambda loader: not loader.tests_content)  # stable
            for loader in ordered:
                if loader.takes(probe):
                    return loader
            wanted = " or ".join(loader.expects or loader.name for loader in named)
            return f"unsupported {probe.suffix.lstrip('.').upper()}: expected {wanted}"
        for loader in loaders:
            if (
                loader.first_bytes is not None
                and loader.first_bytes.match(probe.first_line)
                and loader.takes(probe)
            ):
                return loader
        return f"unsupported file type {probe.suffix or '(no extension)'!r}"

    def folder_loader(self, folder: Path) -> Loader | None:
        """The loader that reads ``folder`` as one whole (a maildir); OSError if unreadable."""
        return next((ld for ld in self.loaders() if ld.folder and ld.folder(folder)), None)

    def load(self, path: Path) -> Iterator[Loaded]:
        """The documents of one file or claimed folder, by the one loader that takes it; a
        LoadError for a file none takes (a dotfile named directly is passed over quietly)."""
        try:
            if path.is_dir():
                loader = self.folder_loader(path)
                if loader is None:
                    yield LoadError(path, "a folder no loader reads as a whole")
                else:
                    yield from _guarded(loader, path)
                return
            probe = Probe.read(path)
        except OSError as err:
            yield LoadError(path, f"cannot read: {reason(err)}")
            return
        chosen = self.choose(probe)
        if isinstance(chosen, Loader):
            yield from _guarded(chosen, path)
        elif not path.name.startswith("."):
            yield LoadError(path, chosen)

    def count(self, path: Path) -> int:
        """How many sources (messages, records, rows) the loader of ``path`` will read: for
        a progress bar's total, 1 when unknown."""
        try:
            if path.is_dir():
                loader = self.folder_loader(path)
            else:
                chosen = self.choose(Probe.read(path))
                loader = chosen if isinstance(chosen, Loader) else None
            return loader.count(path) if loader and loader.count else 1
        except OSError:
            return 1

    def _collect(self) -> None:
        loaders: list[Loader] = []
        kinds: dict[str, Kind] = {}
        readers: list[PageReader] = []
        for name in self._modules:
            module = importlib.import_module(name)
            declared_loaders = tuple(getattr(module, "LOADERS", ()))
            declared_kinds = tuple(getattr(module, "KINDS", ()))
            readers.extend(getattr(module, "PAGE_READERS", ()))
            if not (declared_loaders or declared_kinds or hasattr(module, "PAGE_READERS")):
                raise ValueError(f"{name} declares no LOADERS, KINDS or PAGE_READERS")
            for kind in declared_kinds:
                if kind.name in kinds:
                    raise ValueError(f"{name}: kind {kind.name!r} is declared twice")
                kinds[kind.name] = kind
            loaders.extend(declared_loaders)
        names = [loader.name for loader in loaders]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"loaders declared twice: {', '.join(twice)}")
        for loader in loaders:
            unknown = [k for k in loader.kinds if k not in kinds]
            if unknown:
                raise ValueError(f"loader {loader.name!r} yields undeclared kinds {unknown}")
        self._kinds = kinds
        self._page_readers = tuple(readers)
        self._loaders = tuple(loaders)
        logger.debug("loaders: %s", ", ".join(names))


def _guarded(loader: Loader, path: Path) -> Iterator[Loaded]:
    """``loader``'s documents of ``path``; should it raise (a bug, or input its parser chokes on,
    such as a MIME tree nested past the recursion limit), what it yielded is kept, the rest of
    the file is one LoadError naming the loader, and the run goes on."""
    try:
        yield from loader.load(path)
    except Exception as err:  # the one boundary between any loader and the run
        logger.warning("loader %s failed on %s: %s", loader.name, path, type(err).__name__)
        logger.debug("loader %s failed on %s", loader.name, path, exc_info=True)
        yield LoadError(path, f"the {loader.name} loader failed: {type(err).__name__}")


def reason(err: OSError) -> str:
    """The OS's words for ``err`` without the file name (reports name the file themselves)."""
    return err.strerror or type(err).__name__


def link_refusal(
    path: Path, roots: Iterable[str], within: str = "the folders being ingested"
) -> str | None:
    """Why the symbolic link ``path`` is not followed: its target lies outside every folder of
    ``roots`` (real paths, described as ``within``); None when it is not a link, leads inside,
    or leads nowhere (the caller reports a broken link). Every walker of folders applies this
    one rule, so a link in an archive cannot pull in a file from elsewhere (``/etc/passwd``)."""
    if not path.is_symlink():
        return None
    target = os.path.realpath(path)
    if not os.path.exists(target):
        return None
    for root in roots:
        if target == root or target.startswith(root.rstrip(os.sep) + os.sep):
            return None
    return f"a symbolic link to {target}, outside {within}: not followed"
