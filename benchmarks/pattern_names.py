"""How weak are the group names of pattern answers? Reads the ``--details`` files that
``bosun eval-answers`` writes and counts, over every group line of every answer:

- *place*: a name that is a country or a US state ("New zealand", "Texas"): where, not why;
- *category*: a name that is only what the records are ("Helicopter", "Airplane", "Tanker");
- *near-duplicate*: a name whose content words (category words aside) are all in another
  group's name of the same answer ("Loss of control" beside "Loss of airplane control",
  "Maintain airspeed" beside "Maintain adequate airspeed").

The definitions are this script's own (pycountry's names, a fixed list of category words), not
the product's rules::

    bosun eval-answers --offline --collection ntsb benchmarks/questions/pattern_ntsb_dev.jsonl \\
        --details ntsb_dev.jsonl
    python benchmarks/pattern_names.py --run dev=ntsb_dev.jsonl,imo_dev.jsonl [--json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pycountry

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import Table, emit, runs_parser  # noqa: E402

from agent.evaluation.pattern_score import groups_of  # noqa: E402
from text.words import content_stems, tokens  # noqa: E402

CATEGORY_WORDS = {
    "aircraft", "airplane", "airplanes", "aeroplane", "plane", "helicopter", "helicopters",
    "glider", "gliders", "balloon", "gyroplane", "gyrocopter", "rotorcraft", "tanker",
    "tankers", "ship", "ships", "vessel", "vessels", "carrier", "carriers", "bulk", "cargo",
    "container", "fishing", "tug", "ferry", "yacht", "train", "trains",
}  # fmt: skip


def _places() -> set[str]:
    names = {c.name.lower() for c in pycountry.countries}
    names |= {s.name.lower() for s in pycountry.subdivisions.get(country_code="US") or ()}
    return names


def weak_names(answer: str, places: set[str]) -> dict[str, list[str]]:
    """The answer's group names that are places, categories alone, or near-duplicates."""
    names = [g.name for g in groups_of(answer) if not g.name.lower().startswith("other")]
    category = {s for w in CATEGORY_WORDS for s in content_stems([w])}
    cores = [set(content_stems(tokens(n))) - category for n in names]
    out: dict[str, list[str]] = {"place": [], "category": [], "near_duplicate": []}
    for i, name in enumerate(names):
        words = name.lower().split()
        if name.lower() in places or any(p in name.lower() for p in places if " " in p):
            out["place"].append(name)
        if words and all(w in CATEGORY_WORDS for w in words):
            out["category"].append(name)
        if cores[i] and any(j != i and cores[i] <= cores[j] for j in range(len(names))):
            out["near_duplicate"].append(name)
    return out


def measure(paths: list[Path]) -> dict[str, Any]:
    places = _places()
    rows = [json.loads(line) for p in paths for line in p.read_text().splitlines() if line]
    totals = {"answers": 0, "groups": 0, "place": 0, "category": 0, "near_duplicate": 0}
    examples: dict[str, list[str]] = {"place": [], "category": [], "near_duplicate": []}
    for row in rows:
        answer = row["answers"][-1]
        totals["answers"] += 1
        totals["groups"] += len([g for g in groups_of(answer) if g.name.lower()[:5] != "other"])
        for key, names in weak_names(answer, places).items():
            totals[key] += len(names)
            examples[key] += names
    return {"totals": totals, "examples": {k: sorted(set(v))[:8] for k, v in examples.items()}}


COMMAND = "python benchmarks/pattern_names.py --run LABEL=DETAILS[,DETAILS...] [--json]"


def main(argv: list[str] | None = None) -> int:
    parser = runs_parser(
        __doc__.split("\n\n")[0],
        "LABEL=FILE[,FILE...]",
        "eval-answers --details files of one run, labelled (repeat)",
    )
    args = parser.parse_args(argv)
    rows, notes = [], {}
    for run in args.run:
        label, _, files = run.partition("=")
        result = measure([Path(f) for f in files.split(",")])
        t = result["totals"]
        rows.append(
            [label, t["answers"], t["groups"], t["place"], t["category"], t["near_duplicate"]]
        )
        notes[label] = result["examples"]
    columns = ("run", "answers", "group names", "places", "categories alone", "near-duplicates")
    emit(COMMAND, [Table("weak", columns, rows)], as_json=args.json, examples=notes)
    if not args.json:
        for label, examples in notes.items():
            said = "; ".join(f"{k}: {', '.join(v)}" for k, v in examples.items() if v)
            print(f"{label}: {said or 'none'}")  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
