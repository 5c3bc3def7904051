"""Generate pattern questions ("most common causes of …") with gold read from the raw records.

Reads the shared data directly (NTSB ``reports_2010_2016.jsonl``, IMO ``imo_casualties.csv``,
TAIC ``taic_reports/*.txt``) and imports nothing from Bosun (only PyStemmer, the Snowball stemmer
the archive's text search also uses), so the gold is this script's own reading of the records.

Per question the gold holds:
- ``set``: how many records the question's filters select (one record is one accident
  ``ntsb_no``, one casualty ``Reference`` or one TAIC report file); ``set_exact`` is false where
  the set also depends on a word of the question being mentioned (a flight phase, a TAIC
  topic), which this script reads as "the word's stem is among the stems of the record's
  narrative and probable cause" (or the report's text) — the product may read mentions a little
  differently, so the scorer accepts a set stated within 5 % there;
- ``dominant``: what the largest group must be about, from the records' fields:
  - NTSB: the content stem found in the most records' primary cause (the probable cause up to
    "Contributing to"), ignoring the generic stems of :data:`GENERIC` and the question's own
    words ("landing" in a question about landing accidents);
  - IMO: the most frequent ``InitialEvent`` (case folded; empty ones not counted) — or, for a
    question about consequences, the most frequent of the comma-separated ``Consequences1``;
  - TAIC: none (the reports have no cause field); only the set is checked.

Definitions of the filters: year = first four characters of ``event_date`` (NTSB) or the year of
``IncidentDateTime`` (IMO); fatal = ``fatal > 0``; serious = ``serious > 0``; state = ``state``;
make = the first word of ``make``, punctuation aside ("CESSNA, CESSNA" is a Cessna record;
corrected after the first dev scoring, which showed the product right and this script wrong on
two-aircraft records: the questions and the split did not change); helicopter =
``aircraft_category == "HELI"``; IMC = ``weather == "IMC"``; flag = one of ``FlagStates``;
ship type = :data:`SHIP_TYPES` over ``ShipType1`` (first
written as one word per type, "fish", "passenger"; widened to the words ShipType1 itself uses
for those types after the first dev scoring showed trawlers and ferries left out — the
questions and the split did not change); loss of
life = ``Consequences1`` names it; severity = ``TypeOfCasualty``; TAIC mode = the report number's
first digit (0 aviation, 1 rail, 2 marine).

The phrasings were written before any answer was read, several per kind of set. The split is made
here, before scoring: the questions are shuffled with ``random.Random(SPLIT_SEED)`` and alternate
between ``dev`` (built on) and ``heldout`` (scored once, at the end)::

    python benchmarks/questions/make_pattern_questions.py
    bosun eval-answers --offline benchmarks/questions/pattern_ntsb_dev.jsonl  # NTSB ingested
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import Stemmer
from make_count_questions import imo_records  # the same reading of the casualties file
from pattern_words import GENERIC, STOP

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
HERE = Path(__file__).resolve().parent
QUESTION_SEED = 2026
SPLIT_SEED = 2612
PER_SOURCE = {"ntsb": 50, "imo": 40, "taic": 20}
_STEM = Stemmer.Stemmer("english")

Record = dict[str, Any]
Test = Callable[[Record], bool]


def stems(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return [_STEM.stemWord(w) for w in words if len(w) > 1 and w not in STOP]


def _first_word(make: Any) -> str:
    """The first word of a make, punctuation aside: "CESSNA, CESSNA" (two aircraft) is Cessna."""
    words = re.findall(r"[A-Z0-9]+", str(make or "").upper())
    return words[0] if words else ""


def ntsb_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    for row in rows:
        cause = str(row.get("probable_cause") or "")
        row["primary"] = re.split(r"contributing to", cause, flags=re.I)[0]
        row["mentions"] = set(stems(f"{row.get('narrative') or ''} {cause}"))
        text = str(row.get("event_date") or "")[:4]
        row["year"] = int(text) if text.isdigit() else None
    return rows


def taic_records(folder: Path) -> list[Record]:
    modes = {"0": "aviation", "1": "rail", "2": "marine"}
    rows = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        mode = modes.get(path.stem.rsplit("_", 1)[-1][:1], "other")
        rows.append({"file": path.stem, "mode": mode, "mentions": set(stems(text))})
    return rows


STATES = [
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
]
MAKES = ["Cessna", "Piper", "Beech", "Bell", "Robinson", "Mooney", "Cirrus", "Maule"]
YEARS = (2010, 2011, 2012, 2013, 2014, 2015)
PHASES = ("landing", "takeoff", "approach", "taxi", "cruise")
FLAGS = (
    ("Panama", "Panamanian", "PAN"),
    ("Liberia", "Liberian", "LBR"),
    ("Malta", "Maltese", "MLT"),
    ("the Bahamas", "Bahamian", "BHS"),
    ("Cyprus", "Cypriot", "CYP"),
    ("the United Kingdom", "British", "GBR"),
    ("Russia", "Russian", "RUS"),
    ("Norway", "Norwegian", "NOR"),
    ("Turkey", "Turkish", "TUR"),
    ("China", "Chinese", "CHN"),
    ("Japan", "Japanese", "JPN"),
    ("the Netherlands", "Dutch", "NLD"),
)
# (label, what ShipType1 says for it): read from the file's own ShipType1 values (a stern
# trawler is a fishing vessel, a ro-ro ferry or a cruise ship a passenger ship, an FPSO a tanker).
SHIP_TYPES = (
    ("bulk carriers", r"bulk|ore carrier|cement carrier"),
    ("tankers", r"tanker|fpso"),
    ("container ships", r"container"),
    ("fishing vessels", r"fish|trawler|longliner"),
    ("passenger ships", r"passenger|ferry|cruise"),
    ("general cargo ships", r"general cargo"),
)
TAIC_TOPICS = {
    "marine": ("fishing", "ferry", "grounding", "collision", "fire", "pilotage", "tug"),
    "rail": ("derailment", "signal", "level crossing", "collision", "track", "shunting"),
    "aviation": ("helicopter", "engine", "landing", "maintenance", "weather", "training"),
}


def ntsb_question(rng: random.Random) -> tuple[str, list[Test], bool, set[str]]:
    """One question: text, tests, whether the set is exact, the question's own stems."""
    state, make, year, phase = (
        rng.choice(STATES),
        rng.choice(MAKES),
        rng.choice(YEARS),
        rng.choice(PHASES),
    )
    first, last = sorted(rng.sample(YEARS, 2))
    in_state: Test = lambda r: r.get("state") == state  # noqa: E731
    in_year: Test = lambda r: r["year"] == year  # noqa: E731
    between: Test = lambda r: first <= (r["year"] or 0) <= last  # noqa: E731
    of_make: Test = lambda r: _first_word(r.get("make")) == make.upper()  # noqa: E731
    fatal: Test = lambda r: (r.get("fatal") or 0) > 0  # noqa: E731
    serious: Test = lambda r: (r.get("serious") or 0) > 0  # noqa: E731
    heli: Test = lambda r: r.get("aircraft_category") == "HELI"  # noqa: E731
    imc: Test = lambda r: r.get("weather") == "IMC"  # noqa: E731
    word = _STEM.stemWord(phase)
    mentions: Test = lambda r: word in r["mentions"]  # noqa: E731
    templates: list[tuple[str, list[Test], bool]] = [
        (f"What are the most common causes of fatal {phase} accidents?", [fatal, mentions], False),
        (f"common causes of fatal accidents in {state}", [fatal, in_state], True),
        (f"What usually goes wrong in {make} accidents?", [of_make], True),
        (
            f"What were the main causes of accidents in {state} in {year}?",
            [in_state, in_year],
            True,
        ),
        ("Which causes come up most often in helicopter accidents?", [heli], True),
        (
            f"What are the typical probable causes of {make} accidents between {first} and {last}?",
            [of_make, between],
            True,
        ),
        ("What most often causes accidents in instrument conditions?", [imc], True),
        (f"Leading causes of fatal accidents in {year}", [fatal, in_year], True),
        (
            f"What are the recurring causes of {phase} accidents in {state}?",
            [mentions, in_state],
            False,
        ),
        (f"Why do {make} aircraft crash most often?", [of_make], True),
        (
            f"Most frequent causes of accidents with serious injuries in {year}",
            [serious, in_year],
            True,
        ),
        (f"What usually goes wrong in helicopter accidents in {state}?", [heli, in_state], True),
        (
            f"What patterns are there in the causes of fatal {make} accidents?",
            [of_make, fatal],
            True,
        ),
        (f"What are the top causes of {phase} accidents in {year}?", [mentions, in_year], False),
    ]
    text, tests, exact = rng.choice(templates)
    return text, tests, exact, set(stems(text))


def imo_question(rng: random.Random) -> tuple[str, list[Test], str]:
    """One question: text, tests, the field its groups are read from."""
    name, adjective, code = rng.choice(FLAGS)
    label, pattern = rng.choice(SHIP_TYPES)
    year = rng.randint(2000, 2018)
    first = rng.randint(1995, 2012)
    last = first + rng.randint(3, 6)
    flagged: Test = lambda r: code in r["flags"]  # noqa: E731
    typed: Test = lambda r: bool(re.search(pattern, r.get("ShipType1") or "", re.I))  # noqa: E731
    in_year: Test = lambda r: r["year"] == year  # noqa: E731
    between: Test = lambda r: first <= (r["year"] or 0) <= last  # noqa: E731
    life: Test = lambda r: "loss of life" in (r.get("Consequences1") or "").lower()  # noqa: E731
    very: Test = lambda r: r.get("TypeOfCasualty") == "Very serious"  # noqa: E731

    def event(word: str) -> Test:
        return lambda r: word in (r.get("InitialEvent") or "").lower()

    templates: list[tuple[str, list[Test], str]] = [
        (
            f"What are the common initial events of casualties involving {label}?",
            [typed],
            "InitialEvent",
        ),
        (f"What usually goes wrong with {adjective}-flagged ships?", [flagged], "InitialEvent"),
        ("most common causes of casualties with loss of life", [life], "InitialEvent"),
        (
            f"What typically happens first in very serious casualties of {label}?",
            [very, typed],
            "InitialEvent",
        ),
        (
            f"Which initial events are most frequent for ships flagged in {name}"
            f" between {first} and {last}?",
            [flagged, between],
            "InitialEvent",
        ),
        (f"What kinds of casualties do {label} have most often?", [typed], "InitialEvent"),
        (
            f"What were the leading causes of marine casualties in {year}?",
            [in_year],
            "InitialEvent",
        ),
        (
            f"What are the usual consequences of collisions involving {label}?",
            [event("collision"), typed],
            "Consequences1",
        ),
        (
            "What are the most common outcomes of groundings?",
            [event("grounding")],
            "Consequences1",
        ),
        (
            f"common causes of casualties of {adjective}-flagged {label}",
            [flagged, typed],
            "InitialEvent",
        ),
        (
            f"What goes wrong most often on {label} that led to loss of life?",
            [typed, life],
            "InitialEvent",
        ),
        (
            f"What are the typical consequences of fires on {label}?",
            [event("fire"), typed],
            "Consequences1",
        ),
    ]
    return rng.choice(templates)


def taic_question(rng: random.Random) -> tuple[str, str, str]:
    """One question: text, TAIC mode, topic word ("" for the whole mode)."""
    mode = rng.choice(tuple(TAIC_TOPICS))
    topic = rng.choice(TAIC_TOPICS[mode])
    noun = {"marine": "marine", "rail": "rail", "aviation": "aviation"}[mode]
    templates = [
        (f"What are the common findings of TAIC {noun} investigations?", ""),
        (f"What usually goes wrong in {noun} accidents investigated by TAIC?", ""),
        (f"most common safety issues in TAIC {noun} reports", ""),
        (f"What are the recurring findings of TAIC {noun} inquiries involving {topic}?", topic),
        (f"What typically causes {noun} occurrences involving {topic} in the TAIC reports?", topic),
        (f"Which findings come up most often in TAIC {noun} reports about {topic}?", topic),
    ]
    text, word = rng.choice(templates)
    return text, mode, word


def _dominant(counter: Counter[str]) -> str:
    ranked = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[0][0] if ranked else ""


def generate(
    ntsb: list[Record], imo: list[Record], taic: list[Record], per_source: dict[str, int]
) -> list[Record]:
    """Distinct questions over each source, with their gold."""
    rng = random.Random(QUESTION_SEED)
    out: list[Record] = []
    seen: set[str] = set()
    while sum(r["source"] == "ntsb" for r in out) < per_source["ntsb"]:
        text, tests, exact, own = ntsb_question(rng)
        chosen = [r for r in ntsb if all(t(r) for t in tests)]
        if text in seen or len(chosen) < 5:
            continue
        seen.add(text)
        causes: Counter[str] = Counter()
        for record in chosen:
            causes.update(set(stems(record["primary"])) - GENERIC - own)
        out.append(_row("ntsb", text, len(chosen), exact, _dominant(causes)))
    while sum(r["source"] == "imo" for r in out) < per_source["imo"]:
        text, tests, field = imo_question(rng)
        chosen = [r for r in imo if all(t(r) for t in tests)]
        if text in seen or len(chosen) < 5:
            continue
        seen.add(text)
        values: Counter[str] = Counter()
        for record in chosen:
            raw = (record.get(field) or "").lower()
            parts = [raw.strip()] if field == "InitialEvent" else raw.split(",")
            values.update(p.strip(" *") for p in parts if p.strip(" *") and "[" not in p)
        out.append(_row("imo", text, len(chosen), True, _dominant(values)))
    while sum(r["source"] == "taic" for r in out) < per_source["taic"]:
        text, mode, word = taic_question(rng)
        key = set(stems(word))
        chosen = [r for r in taic if r["mode"] == mode and key <= r["mentions"]]
        if text in seen or len(chosen) < 3:
            continue
        seen.add(text)
        out.append(_row("taic", text, len(chosen), not word, ""))
    return out


def _row(source: str, text: str, size: int, exact: bool, dominant: str) -> Record:
    return {
        "kind": "pattern",
        "question": text,
        "set": size,
        "set_exact": exact,
        "dominant": dominant,
        "source": source,
    }


def split(questions: list[Record]) -> tuple[list[Record], list[Record]]:
    """Shuffle with SPLIT_SEED; alternate dev, heldout."""
    shuffled = list(questions)
    random.Random(SPLIT_SEED).shuffle(shuffled)
    return shuffled[0::2], shuffled[1::2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    ntsb = ntsb_records(args.data / "ntsb" / "reports_2010_2016.jsonl")
    imo = imo_records(args.data / "maritime" / "imo_casualties.csv")
    taic = taic_records(args.data / "maritime" / "taic_reports")
    dev, heldout = split(generate(ntsb, imo, taic, PER_SOURCE))
    for half, rows in (("dev", dev), ("heldout", heldout)):
        for source in ("ntsb", "imo", "taic"):  # one file per collection holding the records
            path = args.out / f"pattern_{source}_{half}.jsonl"
            mine = [r for r in rows if r["source"] == source]
            path.write_text("".join(json.dumps(r) + "\n" for r in mine), encoding="utf-8")
            print(f"{path}: {len(mine)} questions")


if __name__ == "__main__":
    main()
