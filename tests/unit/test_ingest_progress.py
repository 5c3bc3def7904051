"""Ingest progress: totals counted before parsing, bars advanced per message or record, silent
when disabled or not on a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from archive.ingest.discover import load_paths
from archive.ingest.progress import count_sources, counted, stage_bar, wanted

MESSAGE = (
    "From: a@x.example\nMessage-ID: <{n}@x>\nSubject: s{n}\nMIME-Version: 1.0\n"
    'Content-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/plain\n\nbody {n}\n'
    '--B\nContent-Type: text/plain; name="log.txt"\nContent-Disposition: attachment;'
    ' filename="log.txt"\n\nlog line\n--B--\n'
)


def _archive(root: Path) -> Path:
    (root / "mail").mkdir(parents=True)
    for n in range(3):
        (root / "mail" / f"{n}.eml").write_text(MESSAGE.format(n=n))
    records = [{"ntsb_no": f"ERA22LA17{n}", "narrative": "The pilot landed."} for n in range(4)]
    (root / "reports.jsonl").write_text("\n".join(json.dumps(r) for r in records) + "\n\n")
    (root / "casualties.csv").write_text('Reference,ShipsInvolved\nC1,"A (-)"\nC2,"B (-)"\n')
    (root / ".hidden").write_text("skipped")
    return root


def test_sources_are_counted_before_parsing(tmp_path: Path) -> None:
    root = _archive(tmp_path)
    assert count_sources([root]) == 3 + 4 + 2
    assert count_sources([root / "reports.jsonl", root / "mail" / "0.eml"]) == 5


def test_counted_bar_reaches_its_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _archive(tmp_path)
    total = count_sources([root])
    with stage_bar("parse + embed", total, unit="doc", enabled=True) as bar:
        items = list(counted(load_paths([root]), bar))
        assert bar.n == total == 9
    assert len(items) == 3 * 2 + 4 + 2  # each message has an attachment
    err = capsys.readouterr().err
    assert "parse + embed" in err and "9/9" in err


def test_disabled_bars_are_silent(capsys: pytest.CaptureFixture[str]) -> None:
    with stage_bar("topics", 5, unit="chunk", enabled=False) as bar:
        bar.update(5)
    assert capsys.readouterr().err == ""


def test_bars_only_on_a_terminal_and_never_with_json() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert wanted(True, stream=Terminal())
    assert not wanted(True, json_output=True, stream=Terminal())
    assert not wanted(False, stream=Terminal())
    assert not wanted(True, stream=io.StringIO())
