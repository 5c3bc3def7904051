"""The fourth, fifth and sixth sets of usrp-users fix and cause questions
(benchmarks/questions/fix_threads{4,5,6}_*.jsonl): each split before anything answered it, none on
a thread an earlier set uses, and every gold key phrase is in the text the archive stores for a
message that states it, so a perfect answer can score. The fourth has one question a thread; the
fifth and sixth a fix and/or a cause question a thread, a thread's questions in one half. Nothing
here answers the questions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from agent.evaluation.thread_gold import phrases_stated
from archive.ingest.loaders.email import parse_message

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"


def _rows(name: str) -> list[dict]:
    return [
        json.loads(line)
        for split in ("dev", "heldout")
        for line in (QUESTIONS / f"{name}_{split}.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def _split_main():
    import sys

    sys.path.insert(0, str(QUESTIONS))
    from split_fix_threads import main

    return main


def test_the_files_are_the_seeded_split_and_use_new_threads_once():
    assert _split_main()(["--set", "fix_threads4", "--check"]) == 0
    rows = _rows("fix_threads4")
    threads = [r["thread_id"] for r in rows]
    assert len(rows) >= 40 and len(set(threads)) == len(threads)
    earlier = {
        r["thread_id"] for n in ("fix_threads", "fix_threads2", "fix_threads3") for r in _rows(n)
    }
    assert not earlier & set(threads)
    assert all(r["kind"] in {"fix", "cause"} and r["message_id"] in r["stated_in"] for r in rows)


def _halves(name: str) -> list[set[str]]:
    return [
        {json.loads(line)["thread_id"] for line in path.read_text("utf-8").splitlines() if line}
        for path in (QUESTIONS / f"{name}_dev.jsonl", QUESTIONS / f"{name}_heldout.jsonl")
    ]


def test_the_fifth_set_is_its_seeded_split_by_thread_with_causes_on_new_threads():
    assert _split_main()(["--set", "fix_threads5", "--check"]) == 0
    rows = _rows("fix_threads5")
    asked = [(r["thread_id"], r["kind"]) for r in rows]
    assert len(set(asked)) == len(asked)
    threads = {r["thread_id"] for r in rows}
    assert len(threads) >= 60
    assert len({r["thread_id"] for r in rows if r["kind"] == "cause"}) >= 40
    dev, heldout = _halves("fix_threads5")
    assert not dev & heldout
    earlier = {
        r["thread_id"]
        for n in ("fix_threads", "fix_threads2", "fix_threads3", "fix_threads4")
        for r in _rows(n)
    }
    assert not earlier & threads
    assert all(r["kind"] in {"fix", "cause"} and r["message_id"] in r["stated_in"] for r in rows)
    assert all(r["question"].strip() and r["gold"] for r in rows)
    assert all(g.strip() for r in rows for g in r["gold"])


def test_the_sixth_set_is_its_seeded_split_by_thread_on_threads_no_earlier_set_uses():
    assert _split_main()(["--set", "fix_threads6", "--check"]) == 0
    rows = _rows("fix_threads6")
    asked = [(r["thread_id"], r["kind"]) for r in rows]
    assert len(rows) >= 70 and len(set(asked)) == len(asked)
    assert len({r["thread_id"] for r in rows}) >= 45
    kinds = [r["kind"] for r in rows]
    assert min(kinds.count("fix"), kinds.count("cause")) >= 30
    dev, heldout = _halves("fix_threads6")
    assert not dev & heldout
    earlier = {
        r["thread_id"]
        for n in ("fix_threads", "fix_threads2", "fix_threads3", "fix_threads4", "fix_threads5")
        for r in _rows(n)
    }
    assert not earlier & (dev | heldout)
    assert all(r["message_id"] in r["stated_in"] and r["question"].strip() for r in rows)
    assert all(r["gold"] and all(g.strip() for g in r["gold"]) for r in rows)


@pytest.mark.shared_data
@pytest.mark.parametrize("name", ["fix_threads4", "fix_threads5", "fix_threads6"])
def test_every_gold_phrase_is_in_a_stated_message_as_the_archive_stores_it(
    name: str, shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_OCR", "off")
    rows = _rows(name)
    wanted = {m for r in rows for m in r["stated_in"]}
    stored: dict[str, str] = {}
    for path in sorted((shared_data / "email" / "usrp-users").glob("*.eml")):
        raw = path.read_bytes()
        found = re.search(rb"^Message-ID:\s*<([^>]+)>", raw[:20000], re.I | re.M)
        if found and found.group(1).decode() in wanted:
            message = parse_message(raw, origin=str(path))[0]
            stored[message.message_id] = "\n".join(s.text for s in message.sections)
    assert wanted <= set(stored)
    missing = [
        r["question"]
        for r in rows
        if not any(phrases_stated(stored[m], r["gold"]) for m in r["stated_in"])
    ]
    assert not missing
