"""Discovery: which loader gets which file, in which order, and what is refused."""

from __future__ import annotations

import json
from pathlib import Path

from archive.ingest.discover import load_paths
from archive.ingest.model import LoadError, SourceDocument

EML = b"From: a@x.example\nMessage-ID: <m1@x.example>\nSubject: Hello\n\nBody.\n"
MBOX = (
    b"From a@x.example Mon Jan 15 09:30:00 2024\n"
    + EML
    + b"\nFrom b@x.example Mon Jan 15 10:30:00 2024\n"
    b"From: b@x.example\nMessage-ID: <m2@x.example>\nSubject: Again\n\nMore.\n"
)


def _summary(results: list[SourceDocument | LoadError]) -> list[tuple[str, str]]:
    return [
        (r.kind, r.source_id) if isinstance(r, SourceDocument) else ("error", Path(r.path).name)
        for r in results
    ]


def test_mixed_folder_is_dispatched_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b_mail").mkdir()
    (tmp_path / "b_mail" / "hello.eml").write_bytes(EML)
    (tmp_path / "c_archive").write_bytes(MBOX)  # no extension: an mbox by its first line
    (tmp_path / "a_notes.md").write_text("# Bunkering procedure\n\nCheck the sounding pipes.\n")
    (tmp_path / "d_plain.txt").write_text("Just a note.\n")
    (tmp_path / "e_records.jsonl").write_text(
        json.dumps({"ntsb_no": "ANC10CA015", "event_date": "2010-01-23", "narrative": "Wind gust."})
        + "\n"
    )
    (tmp_path / "f_image.png").write_bytes(b"\x89PNG")
    (tmp_path / "g_other.jsonl").write_text('{"_id": "1", "text": "x"}\n')
    (tmp_path / ".DS_Store").write_bytes(b"\x00\x00")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config.txt").write_text("hidden")

    results = list(load_paths([tmp_path]))
    assert _summary(results) == [
        ("text", "a_notes.md"),
        ("email", "m1@x.example"),
        ("email", "m1@x.example"),
        ("email", "m2@x.example"),
        ("text", "d_plain.txt"),
        ("ntsb_report", "ANC10CA015"),
        ("error", "f_image.png"),
        ("error", "g_other.jsonl"),
    ]
    notes = results[0]
    assert isinstance(notes, SourceDocument)
    assert notes.title == "Bunkering procedure"
    assert notes.sections[0].name == "body"
    errors = [r for r in results if isinstance(r, LoadError)]
    assert "unsupported file type '.png'" in errors[0].reason
    assert "unsupported JSONL" in errors[1].reason and "ntsb_no" in errors[1].reason
    assert _summary(list(load_paths([tmp_path]))) == _summary(results)  # deterministic


def test_missing_path_and_binary_text(tmp_path: Path) -> None:
    (tmp_path / "binary.txt").write_bytes(b"abc\x00def")
    results = list(load_paths([tmp_path / "nope", tmp_path / "binary.txt"]))
    assert [(Path(e.path).name, e.reason) for e in results if isinstance(e, LoadError)] == [
        ("nope", "no such file or directory"),
        ("binary.txt", "binary content (NUL bytes) in a text file"),
    ]


def test_latin1_text_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_bytes("Caf\xe9 on deck".encode("latin-1"))
    (doc,) = list(load_paths([tmp_path / "old.txt"]))
    assert isinstance(doc, SourceDocument)
    assert doc.sections[0].text == "Café on deck"
