"""benchmarks/followup_sets.py: the follow-up sets' table, from eval-answers' per-question lines."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
_spec = importlib.util.spec_from_file_location(
    "followup_sets", ROOT / "benchmarks/followup_sets.py"
)
assert _spec is not None and _spec.loader is not None
followup_sets = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(followup_sets)


def test_a_row_counts_each_measure_over_its_kind_and_the_stopped_over_all() -> None:
    lines = [
        {"kind": "followup", "measures": {"aspect_value": True, "subject_cited": True,
                                          "no_unrelated": False, "stopped": False}},
        {"kind": "followup", "measures": {"aspect_value": True, "subject_cited": True,
                                          "no_unrelated": True, "stopped": False}},
        {"kind": "claim", "measures": {"not_denied": True, "subject_cited": False,
                                       "stopped": True}},
        {"kind": "dates", "measures": {"date_range": True, "stopped": False}},
    ]  # fmt: skip
    row = followup_sets.row_of("NTSB", "dev", "first", lines)
    assert row == [
        "NTSB", "dev", "first",
        2, "2 / 2 (100.0%)", "1 / 2 (50.0%)",
        1, "1 / 1 (100.0%)", "0 / 1 (0.0%)",
        1, "1 / 1 (100.0%)",
        "1 of 4",
    ]  # fmt: skip
    off = followup_sets.off_topic_row("NTSB", {"off_topic_stopped_no_llm": 84, "off_topic": 84})
    assert off == ["NTSB", "84 of 84"]
