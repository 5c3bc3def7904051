"""Discovery that finishes what it started: unreadable folders and files are reported and skipped,
symbolic link loops are walked once, and file names cannot forge report lines.

Tests run as root here, where permission bits do not deny anything: unreadable paths are
simulated by making the filesystem calls raise what the kernel raises (EACCES).
"""

from __future__ import annotations

import errno
import os
import pathlib
from pathlib import Path

import pytest

from agent.arguments import printable
from archive.ingest.discover import load_paths
from archive.ingest.model import LoadError, SourceDocument

EML = b"From: a@x.example\nMessage-ID: <m1@x.example>\nSubject: Hello\n\nBody.\n"


def _deny(monkeypatch: pytest.MonkeyPatch, denied: Path) -> None:
    """Make ``denied`` behave as a folder or file this user may not read or enter."""

    def check(path: Path) -> None:
        if path == denied or denied in path.parents:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))

    real_iterdir, real_open, real_is_dir = Path.iterdir, Path.open, Path.is_dir

    def iterdir(self: Path):  # type: ignore[no-untyped-def]
        check(self)
        return real_iterdir(self)

    def is_dir(self: Path) -> bool:
        if denied in self.parents:  # stat inside a folder without search permission
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_is_dir(self)

    def open_(self: Path, *args, **kwargs):  # type: ignore[no-untyped-def]
        check(self)
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(pathlib.Path, "iterdir", iterdir)
    monkeypatch.setattr(pathlib.Path, "is_dir", is_dir)
    monkeypatch.setattr(pathlib.Path, "open", open_)


def _docs(results: list[SourceDocument | LoadError]) -> list[str]:
    return sorted(r.title for r in results if isinstance(r, SourceDocument))


def _errors(results: list[SourceDocument | LoadError]) -> dict[str, str]:
    return {Path(r.path).name: r.reason for r in results if isinstance(r, LoadError)}


def test_an_unreadable_sub_folder_is_reported_and_the_rest_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.txt").write_text("Alpha note.\n")
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "secret.txt").write_text("Hidden.\n")
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "mail.eml").write_bytes(EML)
    _deny(monkeypatch, tmp_path / "locked")
    results = list(load_paths([tmp_path]))
    assert _docs(results) == ["Hello", "a.txt"]
    assert _errors(results) == {"locked": "cannot read folder: Permission denied"}


def test_unreadable_jsonl_and_csv_are_unreadable_not_unsupported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "records.jsonl").write_text('{"ntsb_no": "ANC10CA015"}\n')
    (tmp_path / "fleet.csv").write_text("vessel_name,imo\nNORDIC STAR,9234567\n")
    (tmp_path / "note.txt").write_text("Fine.\n")
    for name in ("records.jsonl", "fleet.csv"):
        real = Path.open

        def open_(self: Path, *args, _deny=tmp_path / name, _real=real, **kwargs):  # type: ignore[no-untyped-def]
            if self == _deny:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(pathlib.Path, "open", open_)
    results = list(load_paths([tmp_path]))
    errors = _errors(results)
    assert errors == {
        "fleet.csv": "cannot read: Permission denied",
        "records.jsonl": "cannot read: Permission denied",
    }
    assert _docs(results) == ["note.txt"]


def test_an_unreadable_maildir_sub_folder_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = tmp_path / "box"
    for folder in ("cur", "new", "sub/cur"):
        (box / folder).mkdir(parents=True)
    (box / "cur" / "1.eml").write_bytes(EML)
    real_scandir = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        if Path(path) == box / "sub":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    results = list(load_paths([box]))
    assert _docs(results) == ["Hello"]
    assert _errors(results) == {"sub": "cannot read folder: Permission denied"}


def test_a_symlink_loop_is_walked_once_and_reported(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "note.txt").write_text("Once.\n")
    (tmp_path / "a" / "back").symlink_to(tmp_path)  # a loop
    (tmp_path / "a" / "self").symlink_to(tmp_path / "a")  # a shorter one
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "nowhere")
    results = list(load_paths([tmp_path]))
    assert _docs(results) == ["note.txt"]
    errors = _errors(results)
    assert set(errors) == {"back", "self", "dangling.txt"}
    assert "already read" in errors["back"] and "already read" in errors["self"]
    assert "link to nothing" in errors["dangling.txt"]


def test_a_newline_in_a_file_name_cannot_forge_a_report_line(tmp_path: Path) -> None:
    name = "x.bin\n  skipped passwd: forged"
    (tmp_path / name).write_bytes(b"\x00\x01")
    (error,) = [r for r in load_paths([tmp_path]) if isinstance(r, LoadError)]
    assert "\n" not in str(error)
    assert "\n" not in printable(error.path) and "\\n" in printable(error.path)
    undecodable = b"bad\xff.txt".decode("utf-8", "surrogateescape")
    assert printable(undecodable) == "bad\\udcff.txt"
    assert printable("Ærø port.txt") == "Ærø port.txt"
