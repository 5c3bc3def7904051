"""Set E (tests/data/injections_e.jsonl), the held-back test of issue 27: the committed file is
what its generator writes, and its split is fixed by base, half and half, so nobody can move a
row between the halves or edit a held-back text without this failing. Nothing here runs the
detector on the set."""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def _generator():
    path = DATA / "make_injections_e.py"
    spec = importlib.util.spec_from_file_location("make_injections_e", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _committed() -> list[dict[str, str]]:
    lines = (DATA / "injections_e.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def test_the_committed_set_is_what_the_seeded_generator_writes():
    assert _committed() == _generator().rows()


def test_every_base_falls_on_one_side_and_each_label_is_split_half_and_half():
    rows = _committed()
    sides: dict[str, set[str]] = {}
    for row in rows:
        base = re.sub(r"-[a-z_+]+$", "", row["id"])
        sides.setdefault(base, set()).add(row["split"])
    assert all(len(s) == 1 for s in sides.values())
    for label in ("attack", "benign"):
        bases = Counter(next(iter(s)) for b, s in sides.items() if b.startswith(f"e-{label}-"))
        assert abs(bases["dev"] - bases["held_back"]) <= 2, (label, bases)


def test_the_set_holds_what_issue_27_asks_for():
    rows = _committed()
    attacks = [r for r in rows if r["label"] == "attack"]
    assert len(attacks) >= 300 and len(rows) - len(attacks) >= 300
    languages = {r["language"] for r in attacks}
    assert len(languages) >= 20 and {"ru", "ar", "zh", "hi", "ko"} <= languages
    disguises = {part for r in attacks for part in r["disguise"].split("+")}
    assert {"lookalike", "spaced", "zero_width", "fake_markup", "role_play_frame"} <= disguises
    assert Counter(r["disguise"] for r in attacks).most_common(1)[0][0] == "plain"
