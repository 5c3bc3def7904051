"""Thread pattern questions, set 2 (benchmarks/questions/pattern_threads2_*.jsonl): the files are
the generator's seeded split, and every area is one set 1 does not ask about. Nothing here
answers them."""

from __future__ import annotations

import sys
from pathlib import Path

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"
sys.path.insert(0, str(QUESTIONS))

import make_thread_pattern_questions as set_one  # noqa: E402
import make_thread_pattern_questions2 as set_two  # noqa: E402


def test_the_files_are_the_seeded_split():
    assert set_two.main(["--check"]) == 0


def test_the_areas_are_new_and_each_asked_once():
    areas = [area for area, _ in set_two.QUESTIONS]
    assert len(areas) >= 20 and len(set(areas)) == len(areas)
    assert not {a.lower() for a in areas} & {a.lower() for a, _ in set_one.AREAS}
    questions = {q for _, q in set_two.QUESTIONS}
    assert not questions & {r["question"] for r in set_one.questions()}
