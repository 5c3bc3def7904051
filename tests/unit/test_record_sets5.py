"""Record pattern set 5 and count set 3 (benchmarks/questions/make_pattern_questions5.py,
make_count_questions3.py): the committed halves are what the generators write, split by the
recorded seed, and each gold is what the records' fields say. Nothing here answers a question."""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"
sys.path.insert(0, str(QUESTIONS))

import make_count_questions3 as counts  # noqa: E402
import make_pattern_questions5 as patterns  # noqa: E402
import records5_sets as sets  # noqa: E402
from count3_questions import Count  # noqa: E402
from pattern5_questions import Pattern  # noqa: E402
from records5_fields import Cond  # noqa: E402

Specs = Callable[[], list[sets.Spec]]
GENERATORS = [(patterns.PREFIX, patterns.specs), (counts.PREFIX, counts.specs)]


@pytest.mark.parametrize(("prefix", "specs"), GENERATORS)
def test_the_committed_halves_are_what_the_generator_writes(prefix: str, specs: Specs) -> None:
    assert sets.problems_without_data(specs(), prefix) == []


@pytest.mark.parametrize(("prefix", "specs"), GENERATORS)
def test_each_question_is_in_the_half_its_seeded_hash_says(prefix: str, specs: Specs) -> None:
    rows = sets.committed(specs(), prefix)
    for row in rows:
        digest = hashlib.sha256(("bosun-records5-2026-12-03" + row["question"]).encode()).digest()
        assert row["_half"] == ("dev", "heldout")[digest[0] % 2], row["question"]
    assert {r["_half"] for r in rows} == {"dev", "heldout"}


def test_the_sets_are_the_size_asked_and_carry_the_scorers_fields() -> None:
    pattern_rows = sets.committed(patterns.specs(), patterns.PREFIX)
    count_rows = sets.committed(counts.specs(), counts.PREFIX)
    assert Counter(r["source"] for r in pattern_rows) == {"ntsb": 36, "imo": 26, "taic": 12}
    assert Counter(r["source"] for r in count_rows) == {"ntsb": 21, "imo": 19}
    for row in pattern_rows:
        assert row["kind"] == "pattern" and row["set"] > 0 and isinstance(row["set_exact"], bool)
        assert row["dominant"] == next(iter(row["groups"]))
    assert all(r["kind"] == "count" and r["count"] >= counts.MIN_COUNT for r in count_rows)


def test_a_moved_or_changed_line_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sets, "QUESTIONS", tmp_path)
    spec = sets.Spec("ntsb", "How many gliders crashed?", "ntsb: category GLI", True)
    other = "dev" if sets.half(spec.question) == "heldout" else "heldout"
    row = {"kind": "count", "question": spec.question, "count": 5, "source": "ntsb"}
    for path, text in sets.files_of([row | {"rule": spec.rule}], "t").items():
        path.write_text(text, "utf-8")
    assert sets.problems_without_data([spec], "t") == []
    assert sets.problems_with_data([row | {"rule": spec.rule, "count": 6}], "t")
    sets.path_of("t", "ntsb", other).write_text(json.dumps(row | {"rule": spec.rule}) + "\n")
    assert any("written twice" in p for p in sets.problems_without_data([spec], "t"))
    sets.path_of("t", "ntsb", sets.half(spec.question)).write_text("")
    assert sets.problems_without_data([spec], "t") == [f"in the wrong half: {spec.question!r}"]


def _records(*causes: str) -> list[dict[str, object]]:
    return [{"ntsb_no": f"CEN1{i}LA001", "probable_cause": c} for i, c in enumerate(causes)]


def test_a_pattern_is_kept_only_when_its_largest_group_leads_clearly() -> None:
    lead = _records(*["loss of engine power"] * 4, "fuel exhaustion", "a gust of wind")
    question = Pattern("ntsb", "What goes wrong?", (), "cause")
    row = patterns.gold_row(question, lead)
    assert (row["set"], row["dominant"], row["set_exact"]) == (6, "power", True)
    with pytest.raises(ValueError, match="no clear largest group"):
        patterns.gold_row(question, lead[2:])
    with pytest.raises(ValueError, match="no clear largest group"):
        patterns.gold_row(question, _records(*["struck wires"] * 5))
    with pytest.raises(ValueError, match="too few records"):
        patterns.gold_row(question, lead + _records(*["unknown"] * 10))


def test_wording_and_a_second_reading_that_disagree_stop_a_question() -> None:
    incident = [{"ntsb_no": "DCA12IA001", "probable_cause": ""}] * 3
    with pytest.raises(ValueError, match="says accidents"):
        counts.gold_row(Count("ntsb", "How many accidents?", ()), incident)
    assert counts.gold_row(Count("ntsb", "How many events?", ()), incident)["count"] == 3
    split = Cond("any", lambda r: True, other=lambda r: r["ntsb_no"].startswith("X"))
    with pytest.raises(ValueError, match="another reading"):
        counts.gold_row(Count("ntsb", "How many events?", (split,)), incident)
    loose = Cond("words", lambda r: True, exact=False)
    with pytest.raises(ValueError, match="exact conditions"):
        counts.gold_row(Count("ntsb", "How many events?", (loose,)), incident)


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("prefix", "rows"), [(patterns.PREFIX, patterns.rows), (counts.PREFIX, counts.rows)]
)
def test_every_gold_is_what_the_records_say(
    shared_data: Path, prefix: str, rows: Callable[[Path], list[dict[str, Any]]]
) -> None:
    assert sets.problems_with_data(rows(shared_data), prefix) == []
