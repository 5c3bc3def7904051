"""Generate count question set 2 (issue 26) with gold read from the raw records' fields.

Set 2 asks what set 1 (``make_count_questions.py``) does not: ranges and parts of years, regions
and pairs of states, models, aircraft categories, kinds of flight and operation, injury levels,
ship-type families, initial events, classification societies, tonnage, pollution, deaths, and
combinations of two or three of them, phrased as an analyst would ask. It reads
``../shared/data/ntsb/reports_2010_2016.jsonl`` and ``../shared/data/maritime/imo_casualties.csv``
directly and imports nothing from Bosun (``count2_fields.py`` is its own reading of the fields).
One record is one NTSB event (``ntsb_no``) or one IMO casualty (``Reference``).

Definitions, written down before any question was answered (the first draft's questions were
read, not answered, and three points tightened from it: flags joined to first-ship fields, the
cut-short event "Caps", one set asked in two wordings):

NTSB
- dates: ``event_date``; "since Y" is Y or later; "first half" January-June; quarters are
  calendar quarters; "a weekend" Saturday or Sunday; "between A and B" includes both years.
- accidents and incidents: an ``..IA..`` number is an incident (49 CFR 830.2), every other
  number an accident. A question says "accidents" only when its set holds no incident, and
  "accidents and incidents" otherwise, so the gold is the same under either reading.
- a record has one aircraft per comma-separated ``aircraft_category``; ``make`` and ``model``
  split the same way (", "). A record counts once for a make, model or category when ANY of its
  aircraft is one: "CESSNA, PIPER" is a Cessna accident and a Piper accident.
- make: the make string starts with the manufacturer's name (case-insensitive; Beechcraft also
  "Hawker Beechcraft", Piper also "New Piper", de Havilland also "DEHAVILLAND"); a string that
  only contains the name ("CESSNA/WEAVER", "JetProp DLX Piper") is undecided.
- model: that make and a model written with or without the hyphen or space ("PA-28", "PA 28",
  "PA28R-201" are PA-28s; "172S", "172RG" are 172s); letter-prefixed variants (T182, R172K,
  A150, OH-58 for the Bell 206) are undecided.
- helicopter ``HELI``, airplane ``AIR``, glider ``GLI``, balloon ``BALL``, gyroplane ``GYRO``,
  weight-shift ``WSFT``, powered parachute ``PPAR``; a record without a category is undecided.
- fatal ``fatal > 0``; serious injuries ``serious > 0``; no injuries: fatal, serious and minor all
  0; only minor injuries: ``minor > 0`` and no fatal or serious; "at least k people died"
  ``fatal >= k``; destroyed: any aircraft's ``damage`` is Destroyed; IMC / VMC: ``weather``
  (Unknown and missing are neither).
- kind of flight (any aircraft): instructional ``purpose == INST``; personal ``PERS``; Part 121
  (airline) / 135 (commuter and on-demand) ``far_part``; aerial application (crop dusting):
  ``purpose == AAPL`` and ``far_part == 137`` (one without the other is undecided).
- regions: New England (CT, ME, MA, NH, RI, VT), the Carolinas, the Dakotas, the Four Corners
  states (AZ, CO, NM, UT), the Pacific coast states (CA, OR, WA), by ``state``.

IMO
- dates: ``IncidentDateTime`` (``YYYY-MM-DD HH:MM`` or ``M/D/YY HH:MM``); decades 1990-1999 etc.
- flag: the code is one of the comma-separated ``FlagStates`` (any ship of the casualty); China,
  the United Kingdom and the Netherlands are not asked (Hong Kong, the Crown dependencies and the
  Antilles have codes of their own, so "Chinese-" or "British-flagged" is ambiguous).
- ship type, ``Consequences1``, ``GrossTonnage1`` and ``ClassificationSociety1`` are the
  casualty's first ship's (the data holds no other ship's), asked as "casualties of <ships>".
  ``FlagStates`` are sorted codes that do not say which ship flies which, so a question joining
  a flag to one of those first-ship fields is undecided for a casualty of several ships.
- ship-type families (``ShipType1``), by maritime definitions: bulk carriers are SOLAS IX/1's
  (ore carriers and ore/bulk/oil combination carriers included) plus the specialised dry bulk
  carriers (cement, wood chips, aggregates, limestone); tankers are every liquid bulk carrier
  (oil, product, chemical, gas, asphalt, sulphur, bunkering) and the combination carriers
  (MARPOL counts them as oil tankers too), FPSOs and tank barges undecided; fishing vessels are
  vessels that catch fish (trawlers, longliners, netters, crabbers, creel boats, scallop
  dredgers, factory trawlers), not fish carriers, fish factory ships or fishery patrol and
  research ships; passenger ships include ro-pax, cruise ships and ferries, ro-ro cargo ferries
  and high-speed craft undecided; container ships are cellular ones (mixed general
  cargo/container undecided); dredgers exclude scallop dredgers; tugs exclude tug/supply ships
  (undecided), which are offshore supply vessels; gas carriers are LNG/LPG/liquefied gas
  tankers. The tables in ``count2_fields.py`` are exactly these.
- initial event: ``InitialEvent`` by family: collision (with another ship; "collision with a
  fixed object" is a contact), grounding/stranding, fire or explosion, capsizing/listing,
  contact, sinking/foundering, machinery damage, man overboard (not containers), missing
  assumed lost; a value naming the family after another event is undecided; an empty value is
  no event.
- loss of life: ``Consequences1`` names it OR any dead/missing count (crew, passengers,
  others) is above 0; passengers or crew dead or missing: that count above 0; total loss and
  pollution: ``Consequences1`` names them; severity: ``TypeOfCasualty``; two or more ships:
  ``NumberOfShipsInvolved >= 2``; tonnage: ``GrossTonnage1`` (first ship; blank is not above);
  classification society: ``ClassificationSociety1`` (DNV includes DNV GL; DNV GL is undecided
  for Germanischer Lloyd).

A question is kept only if its gold is above 0 and no record of its set is undecided; questions
are drawn with ``QUESTION_SEED`` from builders used at most ``PER_BUILDER`` times each. Not asked
(left out on purpose): sums of people ("how many people died"), NTSB flight phase (no field),
IMO location (free text), "flags of convenience" and EU flags (no fixed list).

The split is made here, before any answer: the questions are shuffled with
``random.Random(SPLIT_SEED)`` and alternate ``dev`` / ``heldout``, written per source::

    python benchmarks/questions/make_count_questions2.py           # writes count2_*.jsonl
    python benchmarks/questions/make_count_questions2.py --check   # 1 if a file differs
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import count2_builders  # noqa: E402
import count2_imo_builders  # noqa: E402
from count2_fields import Record, all_of, imo_records, incident, ntsb_records  # noqa: E402

DATA = HERE.parents[1] / ".." / "shared" / "data"
QUESTION_SEED = 2626
SPLIT_SEED = 2628
PER_SOURCE = 66
PER_BUILDER = 4
SET_ONE = tuple(HERE / f"count_{s}_{h}.jsonl" for s in ("ntsb", "imo") for h in ("dev", "heldout"))


def set_one_questions() -> set[str]:
    return {
        json.loads(line)["question"].lower()
        for path in SET_ONE
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }


def generate(ntsb: list[Record], imo: list[Record], per_source: int) -> list[Record]:
    """``per_source`` distinct questions a source whose gold is above 0 and not undecided."""
    rng = random.Random(QUESTION_SEED)
    taken = set_one_questions()
    out: list[Record] = []
    for source, records, table in (
        ("ntsb", ntsb, count2_builders.NTSB),
        ("imo", imo, count2_imo_builders.IMO),
    ):
        used = dict.fromkeys(range(len(table)), 0)
        kept = 0
        for _ in range(200 * per_source):
            if kept == per_source:
                break
            index = rng.choice([i for i, n in used.items() if n < PER_BUILDER])
            text, tests = table[index](rng)
            test = all_of(fn for _, fn in tests)
            values = [(r, test(r)) for r in records]
            matched = [r for r, v in values if v]
            if None in (v for _, v in values) or not matched:
                continue
            if source == "ntsb":
                text = text.replace("{acc}", _noun(matched))
            rule = f"{source}: " + "; ".join(label for label, _ in tests)
            if text.lower() in taken or rule in taken:  # the same set asked twice is one question
                continue
            taken |= {text.lower(), rule}
            used[index] += 1
            kept += 1
            out.append(
                {
                    "kind": "count",
                    "question": text,
                    "count": len(matched),
                    "source": source,
                    "rule": rule,
                }
            )
        if kept < per_source:
            raise SystemExit(f"{source}: only {kept} questions could be made")
    return out


def _noun(matched: list[Record]) -> str:
    return "accidents and incidents" if any(incident(r) for r in matched) else "accidents"


def split(questions: list[Record]) -> tuple[list[Record], list[Record]]:
    """Shuffle with SPLIT_SEED; alternate dev, heldout."""
    shuffled = list(questions)
    random.Random(SPLIT_SEED).shuffle(shuffled)
    return shuffled[0::2], shuffled[1::2]


def render(questions: list[Record]) -> dict[str, str]:
    """File name -> the text the generator writes there: the seeded split, one file a source."""
    dev, heldout = split(questions)
    out = {}
    for half, rows in (("dev", dev), ("heldout", heldout)):
        for source in ("ntsb", "imo"):  # one file per collection the records are ingested into
            mine = [r for r in rows if r["source"] == source]
            out[f"count2_{source}_{half}.jsonl"] = "".join(json.dumps(r) + "\n" for r in mine)
    return out


def differing(folder: Path, written: dict[str, str]) -> list[str]:
    """The files under ``folder`` that are not what the generator writes."""
    return [
        name
        for name, text in written.items()
        if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--check", action="store_true", help="verify the files, write nothing")
    args = parser.parse_args(argv)
    ntsb = ntsb_records(args.data / "ntsb" / "reports_2010_2016.jsonl")
    imo = imo_records(args.data / "maritime" / "imo_casualties.csv")
    written = render(generate(ntsb, imo, PER_SOURCE))
    if args.check:
        for name in differing(args.out, written):
            print(f"{name} differs from the generator")
        return 1 if differing(args.out, written) else 0
    for name, text in written.items():
        (args.out / name).write_text(text, encoding="utf-8")
        print(f"{args.out / name}: {text.count(chr(10))} questions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
