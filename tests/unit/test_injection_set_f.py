"""Set F (tests/data/injections_f.jsonl), a second held-back test of issue 27: the committed file
is what its generator writes, ids are unique, and its split is fixed by base, half and half within
each label and language (and within each family inside a language), so nobody can move a row
between the halves or edit a held-back text without this failing. Nothing here runs the detector
on the set."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
LANGUAGES = {"en", "de", "fr", "es", "it", "pt", "nl", "no", "zh", "ja", "ru"}


def _generator():
    path = DATA / "make_injections_f.py"
    spec = importlib.util.spec_from_file_location("make_injections_f", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _committed() -> list[dict[str, str]]:
    lines = (DATA / "injections_f.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _bases(rows: list[dict[str, str]]) -> dict[str, dict[str, set[str]]]:
    """Base id -> the labels, languages and sides of its rows (an id is ``<base>-<disguise>``)."""
    bases: dict[str, dict[str, set[str]]] = {}
    for row in rows:
        base, disguise = row["id"].rsplit("-", 1)
        assert disguise == row["disguise"], row["id"]
        seen = bases.setdefault(base, {k: set() for k in ("label", "language", "family", "split")})
        for key in seen:
            seen[key].add(row[key])
    return bases


def test_the_committed_set_is_what_the_seeded_generator_writes():
    assert _committed() == _generator().rows()


def test_ids_are_unique_and_every_row_has_the_line_format_of_set_e():
    rows = _committed()
    assert len({r["id"] for r in rows}) == len(rows)
    keys = {"id", "label", "family", "language", "disguise", "split", "text"}
    assert all(set(r) == keys and r["label"] in {"attack", "benign"} for r in rows)
    assert all(r["split"] in {"dev", "held_back"} and r["text"].strip() for r in rows)
    assert all((r["family"] == "benign") == (r["label"] == "benign") for r in rows)


def test_no_base_falls_on_both_sides_and_each_label_and_language_is_split_half_and_half():
    bases = _bases(_committed())
    assert all(
        len(b["split"]) == len(b["label"]) == len(b["language"]) == 1 for b in bases.values()
    )
    sides = Counter(
        (next(iter(b["label"])), next(iter(b["language"])), next(iter(b["split"])))
        for b in bases.values()
    )
    for label in ("attack", "benign"):
        for language in LANGUAGES:
            dev, held = sides[label, language, "dev"], sides[label, language, "held_back"]
            assert dev and held and abs(dev - held) <= 1, (label, language, dev, held)
        total = Counter({s: n for (lab, _, s), n in sides.items() if lab == label})
        assert abs(total["dev"] - total["held_back"]) <= 1, (label, total)
    families = {(next(iter(b["family"])), next(iter(b["split"]))) for b in bases.values()}
    assert all((f, "dev") in families and (f, "held_back") in families for f, _ in families)


def test_the_set_holds_what_the_brief_asks_for():
    rows = _committed()
    bases = _bases(rows)
    for label in ("attack", "benign"):
        mine = [b for b in bases.values() if label in b["label"]]
        assert len(mine) >= 120, label
        languages = Counter(next(iter(b["language"])) for b in mine)
        assert set(languages) == LANGUAGES
        assert languages["en"] * 2 > len(mine)
    attacks = [r for r in rows if r["label"] == "attack"]
    families = {r["family"] for r in attacks}
    assert {"override", "reveal", "role", "exfil_link", "exfil_image", "exfil_mail"} <= families
    assert {"send", "delete", "forward", "insert", "obey_doc"} <= families
    parts = {part for r in attacks for part in r["disguise"].split("+")}
    written = {"indirect", "polite", "policy", "tool_json", "xml", "md_system", "role_play"}
    written |= {"hypothetical", "delimiter", "split_lines", "b64", "reversed", "steps"}
    mechanical = {"carrier", "question", "markup", "lookalike", "zero_width", "soft_hyphen"}
    mechanical |= {"spaced", "leet", "math_bold", "fullwidth", "entities", "tag_smuggle"}
    assert written | mechanical <= parts
    assert {r["disguise"] for r in rows if r["label"] == "benign"} & {"plain+carrier"}
