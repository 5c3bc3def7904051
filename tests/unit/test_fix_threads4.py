"""The fourth set of usrp-users fix and cause questions (benchmarks/questions/fix_threads4_*.jsonl):
split before anything answered it, one question a thread, none on a thread the earlier sets use,
and every gold key phrase is in the text the archive stores for a message that states it, so a
perfect answer can score. Nothing here answers the questions."""

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


def test_the_files_are_the_seeded_split_and_use_new_threads_once():
    import sys

    sys.path.insert(0, str(QUESTIONS))
    from split_fix_threads import main

    assert main(["--set", "fix_threads4", "--check"]) == 0
    rows = _rows("fix_threads4")
    threads = [r["thread_id"] for r in rows]
    assert len(rows) >= 40 and len(set(threads)) == len(threads)
    earlier = {
        r["thread_id"] for n in ("fix_threads", "fix_threads2", "fix_threads3") for r in _rows(n)
    }
    assert not earlier & set(threads)
    assert all(r["kind"] in {"fix", "cause"} and r["message_id"] in r["stated_in"] for r in rows)


@pytest.mark.shared_data
def test_every_gold_phrase_is_in_a_stated_message_as_the_archive_stores_it(
    shared_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOSUN_OCR", "off")
    rows = _rows("fix_threads4")
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
