"""Thread pattern questions, sets 2 and 3 (benchmarks/questions/pattern_threads{2,3}_*.jsonl): the
files are each generator's seeded split, and every area is one the earlier sets do not ask about.
Nothing here answers them."""

from __future__ import annotations

import sys
from pathlib import Path

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"
sys.path.insert(0, str(QUESTIONS))

import make_thread_pattern_questions as set_one  # noqa: E402
import make_thread_pattern_questions2 as set_two  # noqa: E402
import make_thread_pattern_questions3 as set_three  # noqa: E402


def test_the_files_are_the_seeded_split():
    assert set_two.main(["--check"]) == 0


def test_the_areas_are_new_and_each_asked_once():
    areas = [area for area, _ in set_two.QUESTIONS]
    assert len(areas) >= 20 and len(set(areas)) == len(areas)
    assert not {a.lower() for a in areas} & {a.lower() for a, _ in set_one.AREAS}
    questions = {q for _, q in set_two.QUESTIONS}
    assert not questions & {r["question"] for r in set_one.questions()}


def test_set_three_files_are_its_seeded_split():
    assert set_three.main(["--check"]) == 0


def test_set_three_areas_are_new_each_asked_once_in_its_own_words_and_counted():
    areas = [area for area, _ in set_three.QUESTIONS]
    assert len(areas) >= 30 and len(set(areas)) == len(areas)
    earlier = {a.lower() for a, _ in set_one.AREAS} | {a.lower() for a, _ in set_two.QUESTIONS}
    assert not {a.lower() for a in areas} & earlier
    assert set(areas) == set(set_three.AREAS)
    assert all(threads >= 10 for _, threads in set_three.AREAS.values())
    questions = [q for _, q in set_three.QUESTIONS]
    assert len(set(questions)) == len(questions)
    asked_before = {r["question"] for r in set_one.questions()} | {q for _, q in set_two.QUESTIONS}
    assert not set(questions) & asked_before
    openings = {" ".join(q.split()[:3]) for q in questions}
    assert len(openings) > len(questions) * 3 // 4  # not one template
