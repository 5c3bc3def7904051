"""Set G (tests/data/injections_g.jsonl), a third held-back test of issue 27, written apart from
the detector: the file is what its seeded generator writes, the split is by base and even within
every label, language and (language, family) cell, and the set holds what it was written to
hold. Its held-back half was scored once (68.0 %) and both halves are development data since:
the benchmark and the trainer read the whole file. Nothing here runs the detector on the set."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SET_G = DATA / "injections_g.jsonl"
SCRIPTS = {"zh", "ja", "ko", "ru", "ar", "hi", "el"}  # non-Latin scripts the set must hold
OBFUSCATIONS = {"lookalike", "zero_width", "spaced", "leet", "delimited", "mixed_case", "base64"}
OBFUSCATIONS |= {"line_breaks", "tatweel"}
FORMS = {"plain", "polite", "indirect", "addressed", "fake_system", "fake_developer", "fake_tool"}
FORMS |= {"tool_json", "tool_yaml", "md_comment", "hidden_css", "steps", "role_play"}
FORMS |= {"hypothetical", "delimiter", "cite_token", "md_image"}


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows() -> list[dict[str, str]]:
    with SET_G.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _by_base(rows: list[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    bases: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        bases[row["id"].rsplit("-", 1)[0]].append(row)
    return bases


def test_the_file_is_what_the_generator_writes_from_its_recorded_seed():
    generator = _load("make_injections_g", DATA / "make_injections_g.py")
    assert generator.SEED == "bosun-injections-g-redteam-2026-12-02"
    assert _rows() == generator.rows()


def test_every_row_has_the_line_format_of_sets_e_and_f():
    rows = _rows()
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert set(row) == {"id", "label", "family", "language", "disguise", "split", "text"}
        assert row["id"].rsplit("-", 1)[1] == row["disguise"]
        assert row["label"] in ("attack", "benign") and row["split"] in ("dev", "held_back")
        assert (row["label"] == "benign") == (row["family"] == "benign")
        assert row["text"].strip()


def test_a_base_stays_on_one_side_and_every_cell_is_split_evenly():
    bases = _by_base(_rows())
    sides: Counter[tuple[str, ...]] = Counter()
    for base, rows in bases.items():
        keys = {(r["label"], r["language"], r["family"], r["split"]) for r in rows}
        assert len(keys) == 1, base
        label, language, family, split = keys.pop()
        for cell in ((label,), (label, language), (label, language, family)):
            sides[(*cell, split)] += 1
    cells = {key[:-1] for key in sides}
    for cell in cells:
        dev, held = sides[(*cell, "dev")], sides[(*cell, "held_back")]
        assert abs(dev - held) <= 1, (cell, dev, held)
        if len(cell) < 3:  # a label and a label in one language have bases on both sides
            assert dev and held, cell


def test_the_set_holds_the_attacks_and_hard_negatives_it_was_written_for():
    rows = _rows()
    bases = _by_base(rows)
    for label in ("attack", "benign"):
        mine = [group[0] for group in bases.values() if group[0]["label"] == label]
        assert len(mine) >= 200, label
        languages = {r["language"] for r in mine}
        assert len(languages) >= 10 and languages >= SCRIPTS, label
    attacks = [r for r in rows if r["label"] == "attack"]
    parts = {part for r in attacks for part in r["disguise"].split("+")}
    assert parts >= OBFUSCATIONS | FORMS
    assert {r["family"] for r in attacks} >= {"override", "reveal", "secret", "exfil", "persona"}
    # every attack base is also written under a mechanical obfuscation
    assert all(
        any(set(r["disguise"].split("+")) & OBFUSCATIONS for r in group)
        for group in bases.values()
        if group[0]["label"] == "attack"
    )


def test_both_halves_are_read_now_the_held_back_half_was_scored():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        benchmark = _load("injection_detector_benchmark", ROOT / "benchmarks/injection_detector.py")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert benchmark.SETS["G"] == SET_G and "G" not in benchmark.HELD_BACK_ONLY
    from adapt.shipped_injection_model import set_paths, set_rows

    assert SET_G in set_paths()
    assert {row["split"] for row in set_rows(SET_G)} == {"dev", "held_back"}


def test_no_decode_instruction_of_the_held_back_half_shows_in_the_dev_half():
    """The words around a base64 text (attack or attachment) differ between the halves, so what
    is learnt from the dev half's wrappers says nothing about the held-back ones."""
    payload = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
    wrappers: dict[str, set[str]] = {"dev": set(), "held_back": set()}
    for row in _rows():
        if row["disguise"].split("+")[-1] in ("base64", "attachment"):
            wrappers[row["split"]].add(payload.sub("{x}", row["text"]))
    assert wrappers["dev"] and wrappers["held_back"]
    assert not wrappers["dev"] & wrappers["held_back"]
