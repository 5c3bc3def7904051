"""Pattern questions, set 4 (benchmarks/questions/pattern_threads4_*.jsonl and
pattern_records4_*_*.jsonl): the files are each generator's seeded split, the thread areas are new,
and the record questions keep the earlier pattern files' fields. Nothing here answers them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"
sys.path.insert(0, str(QUESTIONS))

import make_pattern_questions4 as records  # noqa: E402
import make_thread_pattern_questions as set_one  # noqa: E402
import make_thread_pattern_questions2 as set_two  # noqa: E402
import make_thread_pattern_questions3 as set_three  # noqa: E402
import make_thread_pattern_questions4 as set_four  # noqa: E402


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_thread_set_four_files_are_its_seeded_split():
    assert set_four.main(["--check"]) == 0


def test_thread_set_four_areas_are_new_each_asked_once_and_counted():
    areas = [area for area, _ in set_four.QUESTIONS]
    assert len(areas) >= 30 and len(set(areas)) == len(areas)
    assert set(areas) == set(set_four.AREAS)
    earlier = (
        {a.lower() for a, _ in set_one.AREAS}
        | {a.lower() for a, _ in set_two.QUESTIONS}
        | {a.lower() for a in set_three.AREAS}
    )
    assert not {a.lower() for a in areas} & earlier
    assert all(threads >= 10 for _, threads in set_four.AREAS.values())
    questions = [q for _, q in set_four.QUESTIONS]
    openings = {" ".join(q.split()[:3]) for q in questions}
    assert len(openings) > len(questions) * 3 // 4  # not one template


def test_record_set_four_keeps_the_earlier_fields_and_splits_each_source():
    fields = set(_lines(QUESTIONS / "pattern_ntsb_dev.jsonl")[0])
    earlier = {
        r["question"] for p in QUESTIONS.glob("pattern_*_*.jsonl") if "4" not in p.name
        for r in _lines(p)
    }  # fmt: skip
    seen: list[str] = []
    for source in records.SOURCES:
        dev, heldout = (
            _lines(QUESTIONS / f"pattern_records4_{source}_{half}.jsonl")
            for half in ("dev", "heldout")
        )
        assert abs(len(dev) - len(heldout)) <= 1 and len(dev) + len(heldout) >= 8
        for row in dev + heldout:
            assert set(row) == fields and row["source"] == source
            assert isinstance(row["set"], int) and row["set"] >= records.MIN_SET
            seen.append(str(row["question"]))
    assert len(seen) >= 30 and len(set(seen)) == len(seen)
    assert not set(seen) & earlier


def test_record_set_four_files_are_its_seeded_split_of_the_shared_data():
    if not (records.DATA / "ntsb" / "reports_2010_2016.jsonl").exists():
        pytest.skip(f"the shared data is not at {records.DATA}")
    assert records.main(["--check"]) == 0
