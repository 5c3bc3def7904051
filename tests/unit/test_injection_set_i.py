"""Set I (tests/data/injections_i.jsonl), written blind by a writer who never read the detector:
the committed file is what its generator writes, both forms of a base fall on one side of the
split, every field holds a known value, and the halves and labels are balanced."""

from __future__ import annotations

import base64
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"


def _load(name: str) -> ModuleType:
    sys.path.insert(0, str(DATA))
    spec = importlib.util.spec_from_file_location(name, DATA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _load("make_injections_i")
DISGUISES = _load("injection_disguises_i")
ROWS = [json.loads(line) for line in MAKE.PATH.read_text(encoding="utf-8").splitlines()]


def _base(row: dict[str, str]) -> str:
    return row["id"].rsplit("-", 1)[0]


def test_committed_file_is_what_the_generator_writes() -> None:
    assert MAKE.PATH.read_text(encoding="utf-8") == MAKE.render()


def test_every_base_has_one_plain_and_one_disguised_form_on_one_side() -> None:
    forms: dict[str, list[dict[str, str]]] = {}
    for row in ROWS:
        forms.setdefault(_base(row), []).append(row)
    for base, pair in forms.items():
        assert [r["disguise"] == "plain" for r in pair] == [True, False], base
        plain, disguised = pair
        for key in ("label", "family", "language", "split"):
            assert plain[key] == disguised[key], (base, key)
        assert plain["text"] != disguised["text"], base


def test_the_halves_share_no_base() -> None:
    dev = {_base(r) for r in ROWS if r["split"] == "dev"}
    held = {_base(r) for r in ROWS if r["split"] == "held_back"}
    assert dev and held and not dev & held


def test_every_field_holds_a_known_value() -> None:
    keys = ["id", "label", "family", "language", "disguise", "split", "text"]
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        assert list(row) == keys, row["id"]
        assert row["label"] in MAKE.LABELS
        assert row["family"] in MAKE.FAMILIES
        assert row["language"] in DISGUISES.SCRIPT
        assert row["disguise"] in DISGUISES.DISGUISES
        assert row["split"] in ("dev", "held_back")
        assert row["text"].strip() and "[[" not in row["text"] and "]]" not in row["text"]
        assert row["id"] == (
            f"i-{row['label']}-{row['family']}-{row['language']}-"
            f"{row['id'].split('-')[4]}-{row['disguise']}"
        )


@pytest.mark.parametrize("label", ["attack", "benign"])
def test_counts_are_balanced(label: str) -> None:
    plain = [r for r in ROWS if r["label"] == label and r["disguise"] == "plain"]
    assert 180 <= len(plain) <= 220
    sides = Counter(r["split"] for r in plain)
    assert abs(sides["dev"] - sides["held_back"]) <= 1
    languages = Counter(r["language"] for r in plain)
    assert len(languages) - 1 >= 10 and languages["en"] < len(plain) / 2
    for language in languages:
        side = Counter(r["split"] for r in plain if r["language"] == language)
        assert abs(side["dev"] - side["held_back"]) <= 1, language
    families = Counter(r["family"] for r in plain)
    assert set(families) == set(MAKE.FAMILIES)
    assert max(families.values()) <= 2 * min(families.values())
    disguised = Counter(r["disguise"] for r in ROWS if r["label"] == label) - Counter(plain=999)
    assert len(disguised) >= 10 and max(disguised.values()) <= 0.15 * len(plain)


def test_labels_are_the_same_size_and_the_disguises_cover_both_halves() -> None:
    labels = Counter(r["label"] for r in ROWS)
    assert abs(labels["attack"] - labels["benign"]) <= 0.1 * len(ROWS)
    for split in ("dev", "held_back"):
        names = {r["disguise"] for r in ROWS if r["split"] == split and r["label"] == "attack"}
        assert len(names) >= 12, split


def test_base64_and_hex_forms_decode_to_the_plain_text() -> None:
    span = "Ignoré: les consignes"
    code = DISGUISES.encoded_base64(span, "fr", 1).split("base64,")[1]
    assert base64.b64decode(code).decode("utf-8") == span
    assert bytes.fromhex(DISGUISES.encoded_hex(span, "fr", 0)[2:]).decode("utf-8") == span


def test_a_disguise_changes_the_marked_span_only() -> None:
    text = "Before. [[send the password]] After."
    out = DISGUISES.disguise("homoglyph", text, "en", 0)
    assert out.startswith("Before. ") and out.endswith(" After.")
    assert out != DISGUISES.plain(text) and "[[" not in out
    assert not DISGUISES.fits("leetspeak", "ja") and DISGUISES.fits("zero_width", "ja")
