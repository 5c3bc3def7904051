"""Count question set 2 (benchmarks/questions/count2_*.jsonl): the files are what the generator
writes from the shared data, split with its recorded seed; no question (or the same set asked
in other words) repeats set 1 or another question; every gold is above 0; the definitions the
gold rests on hold on tiny exact records. Nothing here answers the questions."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from agent.evaluation.answer_kinds import read_kind_questions

QUESTIONS = Path(__file__).resolve().parents[2] / "benchmarks" / "questions"
sys.path.insert(0, str(QUESTIONS))

import count2_fields as fields  # noqa: E402
import make_count_questions2 as set_two  # noqa: E402

FILES = [f"count2_{s}_{h}.jsonl" for s in ("ntsb", "imo") for h in ("dev", "heldout")]


def _rows(name: str) -> list[dict]:
    text = (QUESTIONS / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def generated(shared_data: Path) -> list[dict]:
    ntsb = fields.ntsb_records(shared_data / "ntsb" / "reports_2010_2016.jsonl")
    imo = fields.imo_records(shared_data / "maritime" / "imo_casualties.csv")
    return set_two.generate(ntsb, imo, set_two.PER_SOURCE)


def test_the_files_are_what_the_generator_writes(generated: list[dict]) -> None:
    assert set_two.differing(QUESTIONS, set_two.render(generated)) == []


def test_a_file_edited_by_hand_is_caught(generated: list[dict], tmp_path: Path) -> None:
    written = set_two.render(generated)
    for name, text in written.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert set_two.differing(tmp_path, written) == []
    first, *rest = written["count2_imo_heldout.jsonl"].splitlines(keepends=True)
    row = json.loads(first) | {"count": json.loads(first)["count"] + 1}
    (tmp_path / "count2_imo_heldout.jsonl").write_text(json.dumps(row) + "\n" + "".join(rest))
    assert set_two.differing(tmp_path, written) == ["count2_imo_heldout.jsonl"]


def test_the_split_is_the_seeded_one(generated: list[dict]) -> None:
    assert set_two.SPLIT_SEED == 2628
    shuffled = list(generated)
    random.Random(2628).shuffle(shuffled)
    for half, rows in (("dev", shuffled[0::2]), ("heldout", shuffled[1::2])):
        for source in ("ntsb", "imo"):
            expected = [r for r in rows if r["source"] == source]
            assert _rows(f"count2_{source}_{half}.jsonl") == expected


def test_enough_questions_a_source_and_every_gold_above_zero() -> None:
    rows = [r for name in FILES for r in _rows(name)]
    assert len(rows) >= 120
    for source in ("ntsb", "imo"):
        assert sum(r["source"] == source for r in rows) >= 55
    assert all(r["kind"] == "count" and isinstance(r["count"], int) for r in rows)
    assert all(r["count"] > 0 for r in rows)
    counts = [r["count"] for r in rows]
    assert sum(c <= 10 for c in counts) >= 20 and sum(c >= 100 for c in counts) >= 10


def test_nothing_repeats_set_one_or_itself() -> None:
    rows = [r for name in FILES for r in _rows(name)]
    texts = [r["question"].lower() for r in rows]
    assert len(set(texts)) == len(texts)
    assert not set(texts) & set_two.set_one_questions()
    rules = [r["rule"] for r in rows]
    assert len(set(rules)) == len(rules)  # no set asked twice in other words (dev vs heldout)


def test_bosun_eval_answers_reads_the_files() -> None:
    for name in FILES:
        questions = read_kind_questions(QUESTIONS / name, gold_causes={})
        assert questions and all(q.kind == "count" and q.count for q in questions)


def _ntsb(**row: object) -> dict:
    base = {"ntsb_no": "CEN12FA001", "make": "CESSNA", "model": "172S", "aircraft_category": "AIR"}
    record = base | row
    record["aircraft"] = fields._aircraft(record)
    return record


def test_a_two_aircraft_record_counts_for_each_make_once() -> None:
    both = _ntsb(make="CESSNA, PIPER", model="172S, PA 28-181", aircraft_category="AIR,AIR")
    assert fields.of_make("Cessna")(both) is True
    assert fields.of_make("Piper")(both) is True
    assert fields.of_model("Piper PA-28")(both) is True
    assert fields.of_make("Beechcraft")(_ntsb(make="Hawker Beechcraft Corp.")) is True
    assert fields.of_make("Cessna")(_ntsb(make="CESSNA/WEAVER")) is None
    assert fields.of_make("Bell")(_ntsb(make="BELLANCA")) is False
    assert fields.of_model("Cessna 182")(_ntsb(model="T182T")) is None
    assert fields.of_category("HELI")(_ntsb(aircraft_category=None)) is None


@pytest.mark.parametrize(
    ("family", "ship_type", "expected"),
    [
        ("bulk", "ORE CARRIER", True),
        ("bulk", "Cement Carrier", True),
        ("bulk", "Bulk Dry / Oil Carrier", True),
        ("tanker", "Bulk Dry / Oil Carrier", True),
        ("tanker", "FPSO", None),
        ("fishing", "Stern Trawler", True),
        ("fishing", "Scallop dredger", True),
        ("dredger", "Scallop dredger", False),
        ("fishing", "Fish Factory Ship / Fish Carrier", False),
        ("passenger", "Passenger / Ro-Ro Cargo Ship", True),
        ("passenger", "RORO CARGO/FERRY", None),
        ("container", "General Cargo/Container Ship", None),
        ("tug", "Anchor Handling Tug Supply", None),
        ("offshore supply", "Anchor Handling Tug Supply", True),
    ],
)
def test_ship_type_families(family: str, ship_type: str, expected: bool | None) -> None:
    assert fields.ship_type(family)({"ShipType1": ship_type}) is expected


@pytest.mark.parametrize(
    ("family", "event", "expected"),
    [
        ("collision", "Collision", True),
        ("collision", "COLLISION WITH FIXED OBJECTS (PIERS, BRIDGES, ETC)", False),
        ("contact", "COLLISION WITH FIXED OBJECTS (PIERS, BRIDGES, ETC)", True),
        ("collision", "Near-collision/Close quarters", False),
        ("grounding", "Engine failure and grounding", None),
        ("overboard", "Loss overboard of containers", False),
        ("fire", "", False),
        ("capsizing", "Caps", None),
    ],
)
def test_initial_event_families(family: str, event: str, expected: bool | None) -> None:
    assert fields.initial_event(family)({"InitialEvent": event}) is expected


def test_loss_of_life_is_read_from_consequences_or_the_dead_and_missing() -> None:
    assert fields.loss_of_life({"Consequences1": "Loss of life", "DeadMissingCrew2": "0"})
    assert fields.loss_of_life({"Consequences1": "", "DeadMissingCrew2": "3"})
    assert not fields.loss_of_life(
        {"Consequences1": "Total loss of the ship", "DeadMissingCrew2": "[Primary Annex 2 not"}
    )
