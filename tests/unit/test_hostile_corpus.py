"""The hostile-input corpus through the sanitizer: nothing of an attack survives, nothing is
echoed back, ordinary questions pass unchanged."""

from __future__ import annotations

import json
from collections import Counter

from graph.sanitization import FULL_LIMIT, sanitize
from tests.hostile import corpus, survivors


def test_the_corpus_has_at_least_200_entries_of_every_kind() -> None:
    entries = corpus()
    kinds = Counter(e["kind"].split("/")[0] for e in entries)
    assert len(entries) >= 200
    assert {"override", "delimiter", "forged_citation", "outside_archive", "huge"} <= kinds.keys()


def test_no_attack_survives_sanitizing() -> None:
    failures = {}
    for entry in corpus():
        result = sanitize(entry["input"])
        left = survivors(entry, result.text)
        if left:
            failures[entry["id"]] = (entry["kind"], result.text[:120], left)
        assert len(result.text) <= FULL_LIMIT
    assert not failures, failures


def test_removed_text_is_never_echoed_in_the_record() -> None:
    for entry in corpus():
        record = sanitize(entry["input"]).record()
        dumped = json.dumps(record)
        assert "PWNED" not in dumped.upper(), entry["id"]
        assert len(dumped) < 1000, entry["id"]


def test_the_carrier_question_survives() -> None:
    entry = next(e for e in corpus() if e["kind"] == "override/cyrillic")
    text = sanitize(entry["input"]).text
    assert any(
        q.rstrip("?") in text
        for q in ("ballast pump", "cylinder crack", "ERA25LA084", "cargo hold")
    )
