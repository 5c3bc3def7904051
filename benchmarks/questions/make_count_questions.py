"""Generate count questions with gold computed from the raw records' fields.

Reads the shared data directly (``../shared/data/ntsb/reports_2010_2016.jsonl`` and
``../shared/data/maritime/imo_casualties.csv``) and imports nothing from Bosun: each gold count
is this script's own reading of the raw fields, so the product's parser, SQL and migrations are
checked, not repeated. One record is one accident (``ntsb_no``) or one casualty (``Reference``).

Definitions the gold uses (written down so a miss can be judged):
- year: the first four characters of ``event_date`` (NTSB) or the year of ``IncidentDateTime``
  (IMO: ``YYYY-MM-DD HH:MM`` or ``M/D/YY HH:MM``);
- fatal: ``fatal > 0``; serious injuries: ``serious > 0``; with injuries: fatal + serious +
  minor > 0; state: ``state`` as written; make: the first word of ``make``; helicopter:
  ``aircraft_category == "HELI"``; IMC: ``weather == "IMC"``;
- flag: the code is one of the comma-separated ``FlagStates``; loss of life / total loss:
  ``Consequences1`` names it; severity: ``TypeOfCasualty``; an initial event: ``InitialEvent``
  names it; a ship type: a word of ``ShipType1`` (tanker, container, fish, bulk).

Known narrowness of these definitions (found after scoring; the gold was left as generated): a
two-aircraft record's make "CESSNA, CESSNA" is not read as Cessna here, and "tanker", "fish",
"bulk" miss FPSOs, trawlers, ore and cement carriers that archive/vessel_types.py (rightly)
counts in those families; every miss scored so far is one of these.

The split is made here, before any answer is scored: the questions are shuffled with
``random.Random(SPLIT_SEED)`` and alternate between ``dev`` (built on) and ``heldout`` (scored
only at the end); each half is written per source (``count_ntsb_dev.jsonl``,
``count_imo_heldout.jsonl``, ...) so each runs on the collection holding those records::

    python benchmarks/questions/make_count_questions.py
    bosun eval-answers --offline benchmarks/questions/count_ntsb_dev.jsonl  # NTSB records ingested
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
HERE = Path(__file__).resolve().parent
QUESTION_SEED = 26
SPLIT_SEED = 2611
PER_SOURCE = 60

STATES = (
    "California",
    "Texas",
    "Alaska",
    "Florida",
    "Arizona",
    "Washington",
    "Colorado",
    "Georgia",
    "Michigan",
    "Oregon",
    "Idaho",
    "Utah",
    "Illinois",
    "Ohio",
    "Wisconsin",
    "Montana",
    "Minnesota",
    "Nevada",
    "Pennsylvania",
    "North Carolina",
    "New York",
    "New Mexico",
)
MAKES = "Cessna Piper Beech Bell Boeing Mooney Robinson Schweizer Cirrus Bellanca Maule Aeronca"
YEARS = (2010, 2011, 2012, 2013, 2014)
# (name as a question says it, adjective, code): this script's own table.
FLAGS = (
    ("Panama", "Panamanian", "PAN"),
    ("Liberia", "Liberian", "LBR"),
    ("Malta", "Maltese", "MLT"),
    ("the Bahamas", "Bahamian", "BHS"),
    ("Cyprus", "Cypriot", "CYP"),
    ("the United Kingdom", "British", "GBR"),
    ("Russia", "Russian", "RUS"),
    ("Antigua and Barbuda", "Antiguan", "ATG"),
    ("Norway", "Norwegian", "NOR"),
    ("Greece", "Greek", "GRC"),
    ("China", "Chinese", "CHN"),
    ("Japan", "Japanese", "JPN"),
    ("the Netherlands", "Dutch", "NLD"),
    ("Singapore", "Singaporean", "SGP"),
    ("the Marshall Islands", "Marshallese", "MHL"),
    ("Turkey", "Turkish", "TUR"),
    ("Germany", "German", "DEU"),
    ("South Korea", "South Korean", "KOR"),
    ("Italy", "Italian", "ITA"),
    ("Denmark", "Danish", "DNK"),
    ("Cambodia", "Cambodian", "KHM"),
    ("Saint Vincent and the Grenadines", "Vincentian", "VCT"),
)
SHIP_TYPES = (
    ("tankers", r"tanker"),
    ("container ships", r"container"),
    ("fishing vessels", r"fish"),
    ("bulk carriers", r"bulk"),
)

Record = dict[str, Any]
Test = Callable[[Record], bool]


def ntsb_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def imo_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if (r.get("Reference") or "").strip()]
    for row in rows:
        row["year"] = _imo_year(row.get("IncidentDateTime") or "")
        row["flags"] = {f.strip() for f in (row.get("FlagStates") or "").split(",")}
    return rows


def _imo_year(value: str) -> int | None:
    for fmt in ("%Y-%m-%d %H:%M", "%m/%d/%y %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(value.strip(), fmt).year
        except ValueError:
            continue
    return None


def _year(record: Record) -> int | None:
    text = str(record.get("event_date") or "")[:4]
    return int(text) if text.isdigit() else None


def ntsb_question(rng: random.Random) -> tuple[str, Test]:
    state, year, make = rng.choice(STATES), rng.choice(YEARS), rng.choice(MAKES.split())
    first, last = sorted(rng.sample(YEARS, 2))
    in_state: Test = lambda r: r.get("state") == state  # noqa: E731
    in_year: Test = lambda r: _year(r) == year  # noqa: E731
    between: Test = lambda r: first <= (_year(r) or 0) <= last  # noqa: E731
    of_make: Test = lambda r: str(r.get("make") or "").upper().split()[:1] == [make.upper()]  # noqa: E731
    fatal: Test = lambda r: (r.get("fatal") or 0) > 0  # noqa: E731
    serious: Test = lambda r: (r.get("serious") or 0) > 0  # noqa: E731
    hurt: Test = lambda r: sum(r.get(k) or 0 for k in ("fatal", "serious", "minor")) > 0  # noqa: E731
    heli: Test = lambda r: r.get("aircraft_category") == "HELI"  # noqa: E731
    imc: Test = lambda r: r.get("weather") == "IMC"  # noqa: E731
    templates: list[tuple[str, list[Test]]] = [
        (f"How many accidents in {state} in {year} were fatal?", [in_state, in_year, fatal]),
        (f"How many aviation accidents happened in {state} in {year}?", [in_state, in_year]),
        (f"How many {make} accidents were recorded in {year}?", [of_make, in_year]),
        (f"How many fatal {make} accidents are in the records?", [of_make, fatal]),
        (f"How many helicopter accidents occurred in {state}?", [heli, in_state]),
        (
            f"How many accidents between {first} and {last} involved serious injuries?",
            [between, serious],
        ),
        (
            f"How many accidents in instrument meteorological conditions were fatal in {year}?",
            [imc, in_year, fatal],
        ),
        (
            f"What was the number of fatal accidents in {state} from {first} to {last}?",
            [in_state, between, fatal],
        ),
        (
            f"How many accidents with injuries happened in {state} in {year}?",
            [in_state, in_year, hurt],
        ),
        (f"How many {make} accidents in {state} caused fatalities?", [of_make, in_state, fatal]),
    ]
    text, tests = rng.choice(templates)
    return text, lambda r: all(t(r) for t in tests)


def imo_question(rng: random.Random) -> tuple[str, Test]:
    name, adjective, code = rng.choice(FLAGS)
    year = rng.randint(1995, 2019)
    first = rng.randint(1991, 2014)
    last = first + rng.randint(2, 6)
    label, pattern = rng.choice(SHIP_TYPES)
    flagged: Test = lambda r: code in r["flags"]  # noqa: E731
    in_year: Test = lambda r: r["year"] == year  # noqa: E731
    between: Test = lambda r: first <= (r["year"] or 0) <= last  # noqa: E731
    typed: Test = lambda r: bool(re.search(pattern, r.get("ShipType1") or "", re.I))  # noqa: E731
    life: Test = lambda r: "loss of life" in (r.get("Consequences1") or "").lower()  # noqa: E731
    lost: Test = lambda r: "total loss" in (r.get("Consequences1") or "").lower()  # noqa: E731
    very: Test = lambda r: r.get("TypeOfCasualty") == "Very serious"  # noqa: E731

    def event(word: str) -> Test:
        return lambda r: word in (r.get("InitialEvent") or "").lower()

    templates: list[tuple[str, list[Test]]] = [
        (f"How many casualties involved ships flagged in {name}?", [flagged]),
        (
            f"How many casualties of {adjective}-flagged ships happened in {year}?",
            [flagged, in_year],
        ),
        (f"How many casualties with loss of life involved {label}?", [typed, life]),
        (f"How many ship casualties were collisions in {year}?", [event("collision"), in_year]),
        (f"How many very serious casualties occurred in {year}?", [very, in_year]),
        (
            f"How many casualties between {first} and {last} resulted in the total loss"
            " of the ship?",
            [between, lost],
        ),
        (
            f"How many casualties of {label} started with a fire or explosion?",
            [typed, event("fire")],
        ),
        (
            f"How many casualties involving ships flagged in {name} were groundings?",
            [flagged, event("grounding")],
        ),
        (f"How many marine casualties of {label} happened in {year}?", [typed, in_year]),
        (
            f"How many casualties under the flag of {name} led to loss of life?",
            [flagged, life],
        ),
    ]
    text, tests = rng.choice(templates)
    return text, lambda r: all(t(r) for t in tests)


def generate(ntsb: list[Record], imo: list[Record], per_source: int) -> list[Record]:
    """``per_source`` distinct questions over each source, with their gold counts."""
    rng = random.Random(QUESTION_SEED)
    out: list[Record] = []
    for source, records, make in (("ntsb", ntsb, ntsb_question), ("imo", imo, imo_question)):
        seen: set[str] = set()
        while len(seen) < per_source:
            text, test = make(rng)
            if text in seen:
                continue
            seen.add(text)
            gold = sum(1 for r in records if test(r))
            out.append({"kind": "count", "question": text, "count": gold, "source": source})
    return out


def split(questions: list[Record]) -> tuple[list[Record], list[Record]]:
    """Shuffle with SPLIT_SEED; alternate dev, heldout."""
    shuffled = list(questions)
    random.Random(SPLIT_SEED).shuffle(shuffled)
    return shuffled[0::2], shuffled[1::2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--per-source", type=int, default=PER_SOURCE)
    args = parser.parse_args()
    ntsb = ntsb_records(args.data / "ntsb" / "reports_2010_2016.jsonl")
    imo = imo_records(args.data / "maritime" / "imo_casualties.csv")
    dev, heldout = split(generate(ntsb, imo, args.per_source))
    for half, rows in (("dev", dev), ("heldout", heldout)):
        for source in ("ntsb", "imo"):  # one file per collection the records are ingested into
            path = args.out / f"count_{source}_{half}.jsonl"
            mine = [r for r in rows if r["source"] == source]
            path.write_text("".join(json.dumps(r) + "\n" for r in mine), encoding="utf-8")
            print(f"{path}: {len(mine)} questions")


if __name__ == "__main__":
    main()
