"""Set H (tests/data/injections_h.jsonl), a fourth held-back test of issue 27, written blind by
another writer: the file is what its generator writes from its recorded seed, every base falls
on one side with one plain and one disguised row, and no carrier or decoding sentence is shared
by the halves. Its held-back half was scored once (39.9 %) and both halves are development data
since: the benchmark and the trainer read the whole file."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
SET_H = DATA / "injections_h.jsonl"
FIELDS = {"id", "label", "family", "language", "disguise", "split", "text"}


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows() -> list[dict[str, str]]:
    with SET_H.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _base(row: dict[str, str]) -> str:
    return row["id"].removesuffix("-" + row["disguise"])


def test_the_file_is_what_the_generator_writes_from_its_recorded_seed():
    generator = _load("make_injections_h", DATA / "make_injections_h.py")
    assert generator.SEED == "bosun-injections-h-redteam-2026-12-02"
    assert generator.rows() == _rows()


def test_every_row_has_the_line_format_of_sets_e_to_g():
    rows = _rows()
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert set(row) == FIELDS
        assert row["label"] in {"attack", "benign"}
        assert row["split"] in {"dev", "held_back"}
        assert (row["family"] == "benign") == (row["label"] == "benign")
        assert row["id"].endswith("-" + row["disguise"])


def test_each_base_is_once_as_written_and_once_disguised_on_one_side():
    by_base: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in _rows():
        by_base[_base(row)].append(row)
    for rows in by_base.values():
        assert len(rows) == 2
        assert len({r["split"] for r in rows}) == 1
        assert rows[0]["text"] != rows[1]["text"]
        assert rows[1]["disguise"].count("+") >= 1


def test_each_label_and_language_is_split_half_and_half():
    count: Counter[tuple[str, str, str]] = Counter()
    for row in _rows():
        count[row["label"], row["language"], row["split"]] += 1
    for label, language, _ in list(count):
        dev, held = count[label, language, "dev"], count[label, language, "held_back"]
        assert abs(dev - held) <= 2, (label, language, dev, held)  # two rows a base


def test_the_set_holds_the_attacks_and_hard_negatives_it_was_written_for():
    rows = _rows()
    bases = {(r["label"], _base(r)) for r in rows}
    assert sum(label == "attack" for label, _ in bases) >= 230
    assert sum(label == "benign" for label, _ in bases) >= 230
    assert len({r["language"] for r in rows}) >= 14
    families = {r["family"] for r in rows if r["label"] == "attack"}
    assert families == {
        "override", "prompt_leak", "secret", "exfiltration", "action", "persist", "role_play",
        "output",
    }  # fmt: skip


def test_no_carrier_or_decoding_sentence_shows_on_both_sides():
    disguises = _load("injection_disguises_h", DATA / "injection_disguises_h.py")
    texts = {
        side: [r["text"] for r in _rows() if r["split"] == side] for side in disguises.CARRIERS
    }
    wrappers = {
        side: [
            *disguises.CARRIERS[side],
            *(w for ws in disguises.DECODE[side].values() for w in ws),
            *disguises.ATTACHMENT[side].values(),
        ]
        for side in disguises.CARRIERS
    }
    for side, other in (("dev", "held_back"), ("held_back", "dev")):
        for wrapper in wrappers[side]:
            opening = wrapper.split("{x}")[0].strip() or wrapper.split("{x}")[1].strip()
            assert not any(opening in text for text in texts[other]), opening


def test_both_halves_are_read_now_the_held_back_half_was_scored():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    benchmark = _load("injection_detector_benchmark", ROOT / "benchmarks" / "injection_detector.py")
    assert benchmark.SETS["H"] == SET_H and "H" not in benchmark.HELD_BACK_ONLY
    from adapt.shipped_injection_model import set_paths, set_rows

    assert SET_H in set_paths()
    assert {row["split"] for row in set_rows(SET_H)} == {"dev", "held_back"}
