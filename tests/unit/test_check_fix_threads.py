"""The seventh set of usrp-users fix and cause questions (benchmarks/questions/fix_threads7_*.jsonl)
and the checker that holds a set against the mail it was written from. Nothing here answers the
questions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"
sys.path.insert(0, str(QUESTIONS))

from check_fix_threads import problems, read_corpus, root  # noqa: E402
from split_fix_threads import main as split_main  # noqa: E402


def _mail(folder: Path, mid: str, body: str, parent: str = "") -> None:
    reply = f"In-Reply-To: {parent}\nReferences: <{parent}>\n" if parent else ""
    folder.joinpath(f"{len(list(folder.iterdir()))}.eml").write_text(
        f"From: a@example.org\nSubject: X310 stalls\nMessage-ID: <{mid}>\n{reply}"
        f"Content-Type: text/plain\n\n{body}\n",
        "utf-8",
    )


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BOSUN_OCR", "off")
    _mail(tmp_path, "ask@x", "My X310 stalls after an hour.")
    _mail(tmp_path, "fix@x", "Set the ring buffer with ethtool.\n\n> My X310 stalls", "ask@x")
    _mail(tmp_path, "more@x", "Thanks, that fixed it.", "fix@x")
    return tmp_path


def _row(**change: object) -> dict[str, object]:
    row: dict[str, object] = {"kind": "fix", "question": "Why does my X310 stall?"}
    row |= {"thread_id": "ask@x", "message_id": "fix@x", "stated_in": ["fix@x"]}
    return row | {"gold": ["Ring-buffer"]} | change


def test_a_question_that_holds_passes_and_the_root_is_the_first_message(corpus: Path) -> None:
    mails = read_corpus(corpus)
    assert root(mails, "more@x") == "ask@x"
    assert problems([_row()], mails, used=set()) == []


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"gold": ["stalls after an hour"]}, "is in no stated_in message"),
        ({"gold": ["X310 stall"]}, "is in the question"),
        ({"thread_id": "fix@x"}, "not the conversation's root"),
        ({"stated_in": ["more@x"]}, "not one of stated_in"),
        ({"message_id": "gone@x", "stated_in": ["gone@x"]}, "not in the corpus"),
    ],
)
def test_each_fault_is_reported(corpus: Path, change: dict[str, object], said: str) -> None:
    assert any(said in p for p in problems([_row(**change)], read_corpus(corpus), used=set()))


def test_a_used_thread_and_a_kind_asked_twice_are_reported(corpus: Path) -> None:
    found = problems([_row(), _row()], read_corpus(corpus), used={"ask@x"})
    assert any("used by an earlier set" in p for p in found)
    assert any("asks fix 2 times" in p for p in found)


def test_the_seventh_set_is_its_seeded_split_by_thread() -> None:
    assert split_main(["--set", "fix_threads7", "--check"]) == 0
    halves = [
        [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
        for path in (QUESTIONS / "fix_threads7_dev.jsonl", QUESTIONS / "fix_threads7_heldout.jsonl")
    ]
    dev, held = ({r["thread_id"] for r in half} for half in halves)
    assert not dev & held
    rows = halves[0] + halves[1]
    assert len(rows) >= 50 and len(dev | held) >= 40
    assert {r["kind"] for r in rows} == {"fix", "cause"}


@pytest.mark.shared_data
def test_the_seventh_set_holds_against_the_corpus(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_OCR", "off")
    rows = [
        json.loads(line)
        for half in ("dev", "heldout")
        for line in (QUESTIONS / f"fix_threads7_{half}.jsonl").read_text("utf-8").splitlines()
        if line.strip()
    ]
    assert problems(rows, read_corpus(shared_data / "email" / "usrp-users"), used=set()) == []
