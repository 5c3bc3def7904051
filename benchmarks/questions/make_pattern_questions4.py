# ruff: noqa: E501  (one question a line)
"""Record pattern questions, set 4: "what usually goes wrong …" over the NTSB, IMO and TAIC records,
written one by one in a user's own words with the filters a user gives (years, a state or a
region, an aircraft make or category, a phase of flight, fatal or not; a ship type, a flag, a sea
area, an initial event; a TAIC mode of transport, report years, a topic), not drawn from
``make_pattern_questions.py``'s templates.

Written by someone who does not work on the answers and read neither the answering code nor any
answer or score. Each line has exactly the fields of ``pattern_{ntsb,imo,taic}_*.jsonl`` (``kind``
pattern, ``question``, ``set``, ``set_exact``, ``dominant``, ``source``), and the gold is read
from the raw records the same way ``make_pattern_questions.py`` reads it (its readers and its
``dominant`` rule are imported, not copied):

- ``set``: how many records the question's filters select, counted here from the shared data (one
  record is one accident ``ntsb_no``, one casualty ``Reference`` or one TAIC report file); every
  set holds at least five records, and the generator refuses to write one that does not;
- ``set_exact`` false where the set also rests on a reading that the product may make a little
  differently: a word of the question being mentioned (a flight phase, a TAIC topic: its stems
  among the stems of the record's narrative and probable cause, or of the report's text), or a
  sea area (read from ``Location`` alone, which some records leave empty while their summary
  names the sea);
- ``dominant``: NTSB: the content stem in the most primary causes (the question's own stems and
  :data:`pattern_words.GENERIC` aside); IMO: the most frequent ``InitialEvent``, or of
  ``Consequences1`` for a question about what follows; TAIC: none (only the set is checked).

Definitions of the filters beyond ``make_pattern_questions.py``'s: a region is its states (New
England: Maine, New Hampshire, Vermont, Massachusetts, Rhode Island, Connecticut; the Pacific
Northwest: Washington, Oregon, Idaho, as the question says); an aircraft category is one of the
comma-separated ``aircraft_category`` codes (GLI glider, BALL balloon, GYRO gyroplane, HELI);
killed or badly hurt = ``fatal`` or ``serious`` above 0; nobody hurt = ``fatal``, ``serious``
and ``minor`` all 0; "Beechcraft" is the make BEECH; a sea area = ``Location`` contains its name
(case folded); an initial event = ``InitialEvent`` contains the word (case folded); a TAIC
report's year = the first four characters of its file name (the year of its inquiry number).
A question whose largest group would tie with the next one was rewritten (the generator refuses
a tie), so that ``dominant`` is one group, not an alphabetical pick.

Split before anything answered them, with its own seed: the lines are shuffled with
``random.Random(SPLIT_SEED)`` and, source by source in that order, alternate between ``dev`` and
``heldout``, so each half holds about half of each source. One file per source and half, as the
earlier pattern files (``bosun eval-answers --collection C`` scores one collection a run)::

    python benchmarks/questions/make_pattern_questions4.py          # writes pattern_records4_{source}_{half}.jsonl
    python benchmarks/questions/make_pattern_questions4.py --check  # verifies them against the data
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

from make_count_questions import imo_records
from make_pattern_questions import (
    DATA,
    _dominant,
    _first_word,
    ntsb_records,
    stems,
    taic_records,
)
from pattern_words import GENERIC

HERE = Path(__file__).resolve().parent
SPLIT_SEED = 262805
SOURCES = ("ntsb", "imo", "taic")
MIN_SET = 5

Record = dict[str, Any]
Test = Callable[[Record], bool]

NEW_ENGLAND = ("Maine", "New Hampshire", "Vermont", "Massachusetts", "Rhode Island", "Connecticut")
PACIFIC_NORTHWEST = ("Washington", "Oregon", "Idaho")


def years(first: int, last: int) -> Test:
    return lambda r: r["year"] is not None and first <= r["year"] <= last


def states(*names: str) -> Test:
    return lambda r: r.get("state") in names


def make(name: str) -> Test:
    return lambda r: _first_word(r.get("make")) == name


def category(*codes: str) -> Test:
    return lambda r: bool(set(str(r.get("aircraft_category") or "").split(",")) & set(codes))


def fatal(r: Record) -> bool:
    return (r.get("fatal") or 0) > 0


def badly_hurt(r: Record) -> bool:
    return (r.get("fatal") or 0) + (r.get("serious") or 0) > 0


def unhurt(r: Record) -> bool:
    return not any(r.get(k) or 0 for k in ("fatal", "serious", "minor"))


def imc(r: Record) -> bool:
    return r.get("weather") == "IMC"


def mentions(word: str) -> Test:
    key = set(stems(word))
    return lambda r: key <= r["mentions"]


def ship(pattern: str) -> Test:
    return lambda r: bool(re.search(pattern, r.get("ShipType1") or "", re.I))


def flag(code: str) -> Test:
    return lambda r: code in r["flags"]


def sea(name: str) -> Test:
    return lambda r: name in (r.get("Location") or "").lower()


def event(word: str) -> Test:
    return lambda r: word in (r.get("InitialEvent") or "").lower()


def consequence(words: str) -> Test:
    return lambda r: words in (r.get("Consequences1") or "").lower()


def very_serious(r: Record) -> bool:
    return r.get("TypeOfCasualty") == "Very serious"


def mode(name: str) -> Test:
    return lambda r: r["mode"] == name


#: (question, filters, set exact?): NTSB, the dominant read from the primary causes.
NTSB: tuple[tuple[str, list[Test], bool], ...] = (
    ("Glider accidents: what usually brings them down?", [category("GLI")], True),
    ("Hot air balloon mishaps, what tends to go wrong?", [category("BALL")], True),
    ("I just bought a Mooney. What was behind the fatal Mooney crashes in these records?", [make("MOONEY"), fatal], True),
    ("Robinson helicopter accidents in 2012 and 2013: is there a common thread in why they happened?", [make("ROBINSON"), years(2012, 2013)], True),
    ("New England accidents where someone was killed or badly hurt: what keeps causing them?", [states(*NEW_ENGLAND), badly_hurt], True),
    ("Takeoff accidents in Alaska where nobody got hurt: what usually goes wrong?", [states("Alaska"), unhurt, mentions("takeoff")], False),
    ("Fatal crashes in instrument weather during 2011 and 2012, what were the typical causes?", [imc, fatal, years(2011, 2012)], True),
    ("Piper accidents on approach in Florida, any pattern in the causes?", [make("PIPER"), states("Florida"), mentions("approach")], False),
    ("What do Cirrus accidents usually come down to?", [make("CIRRUS")], True),
    ("Why do gyroplanes crash? Looking for the common reasons.", [category("GYRO")], True),
    ("Accidents in the Pacific Northwest (Washington, Oregon, Idaho) from 2010 through 2012: what were the usual causes?", [states(*PACIFIC_NORTHWEST), years(2010, 2012)], True),
    ("What usually goes wrong when a Beechcraft has a landing accident?", [make("BEECH"), mentions("landing")], False),
    ("Going back to 2010 and 2011, what caused the helicopter crashes that killed someone?", [category("HELI"), fatal, years(2010, 2011)], True),
)  # fmt: skip
#: (question, filters, set exact?, the field its groups are read from): IMO.
IMO: tuple[tuple[str, list[Test], bool, str], ...] = (
    ("Collisions in the North Sea: what usually happens to the ships afterwards?", [sea("north sea"), event("collision")], False, "Consequences1"),
    ("Fishing boats where crew died, 2010 to 2015: what set those casualties off?", [ship(r"fish|trawler|longliner"), consequence("loss of life"), years(2010, 2015)], True, "InitialEvent"),
    ("German-flagged container ships, what goes wrong most often?", [flag("DEU"), ship(r"container")], True, "InitialEvent"),
    ("When a tanker runs aground, how bad does it usually get: pollution, a total loss, or does it carry on?", [ship(r"tanker|fpso"), event("grounding")], True, "Consequences1"),
    ("What goes wrong for ships in the English Channel?", [sea("english channel")], False, "InitialEvent"),
    ("Very serious casualties in the South China Sea: what typically started them?", [sea("south china sea"), very_serious], False, "InitialEvent"),
    ("Tugboat casualties, what usually happens first?", [ship(r"\btug|towing")], True, "InitialEvent"),
    ("Bulk carriers that ended up a total loss: what started it?", [ship(r"bulk|ore carrier|cement carrier"), consequence("total loss")], True, "InitialEvent"),
    ("Hong Kong-registered ships between 2010 and 2018: which kinds of casualty come up most?", [flag("HKG"), years(2010, 2018)], True, "InitialEvent"),
    ("When a vessel capsizes or starts to list, what usually follows?", [event("capsiz")], True, "Consequences1"),
    ("Ships in the Baltic, what usually goes wrong there?", [sea("baltic")], False, "InitialEvent"),
)  # fmt: skip
#: (question, filters, set exact?): TAIC, no dominant.
TAIC: tuple[tuple[str, list[Test], bool], ...] = (
    ("What keeps going wrong on New Zealand's railways in the TAIC reports from 2015 onwards?", [mode("rail"), years(2015, 2020)], True),
    ("Boats that capsized, in TAIC's marine reports: what usually led up to it?", [mode("marine"), mentions("capsized")], False),
    ("Aviation accidents TAIC investigated between 2010 and 2013, what were the common threads?", [mode("aviation"), years(2010, 2013)], True),
    ("Incidents with freight wagons on the rail network, per TAIC: what typically goes wrong?", [mode("rail"), mentions("wagon")], False),
    ("Microlight crashes that TAIC looked into: common findings?", [mode("aviation"), mentions("microlight")], False),
    ("Marine casualties in TAIC's reports from 2016 to 2020: what typically went wrong?", [mode("marine"), years(2016, 2020)], True),
    ("Across air, rail and sea, where does fatigue come up in TAIC's reports, and what else goes wrong alongside it?", [mentions("fatigue")], False),
    ("Agricultural flying accidents that TAIC investigated: what went wrong in them?", [mode("aviation"), mentions("agricultural")], False),
)  # fmt: skip


def _chosen(records: list[Record], tests: list[Test], question: str) -> list[Record]:
    chosen = [r for r in records if all(t(r) for t in tests)]
    if len(chosen) < MIN_SET:
        raise SystemExit(f"only {len(chosen)} records match {question!r}")
    return chosen


def _untied(counter: Counter[str], question: str) -> str:
    """The largest group (as ``make_pattern_questions.py`` picks it), refused when tied."""
    top = counter.most_common(2)
    if len(top) == 2 and top[0][1] == top[1][1]:
        raise SystemExit(f"the largest groups tie for {question!r}: {top}")
    return _dominant(counter)


def _row(source: str, question: str, size: int, exact: bool, dominant: str) -> Record:
    return {
        "kind": "pattern",
        "question": question,
        "set": size,
        "set_exact": exact,
        "dominant": dominant,
        "source": source,
    }


def questions(ntsb: list[Record], imo: list[Record], taic: list[Record]) -> list[Record]:
    """Every question with its gold, in the order written."""
    out = []
    for text, tests, exact in NTSB:
        chosen = _chosen(ntsb, tests, text)
        causes: Counter[str] = Counter()
        for record in chosen:
            causes.update(set(stems(record["primary"])) - GENERIC - set(stems(text)))
        out.append(_row("ntsb", text, len(chosen), exact, _untied(causes, text)))
    for text, tests, exact, field in IMO:
        chosen = _chosen(imo, tests, text)
        values: Counter[str] = Counter()
        for record in chosen:
            raw = (record.get(field) or "").lower()
            parts = [raw.strip()] if field == "InitialEvent" else raw.split(",")
            values.update(p.strip(" *") for p in parts if p.strip(" *") and "[" not in p)
        out.append(_row("imo", text, len(chosen), exact, _untied(values, text)))
    for text, tests, exact in TAIC:
        out.append(_row("taic", text, len(_chosen(taic, tests, text)), exact, ""))
    return out


def halves(rows: list[Record]) -> dict[str, list[Record]]:
    """``rows`` shuffled by SPLIT_SEED, then per source alternating: dev, heldout, dev, ..."""
    shuffled = list(rows)
    random.Random(SPLIT_SEED).shuffle(shuffled)
    out: dict[str, list[Record]] = {"dev": [], "heldout": []}
    for source in SOURCES:
        mine = [r for r in shuffled if r["source"] == source]
        out["dev"] += mine[0::2]
        out["heldout"] += mine[1::2]
    return out


def _files(rows: list[Record]) -> dict[Path, str]:
    """pattern_records4_{source}_{half}.jsonl -> its text."""
    return {
        HERE / f"pattern_records4_{source}_{half}.jsonl": "".join(
            json.dumps(r) + "\n" for r in part if r["source"] == source
        )
        for half, part in halves(rows).items()
        for source in SOURCES
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--check", action="store_true", help="verify the files, write nothing")
    args = parser.parse_args(argv)
    ntsb = ntsb_records(args.data / "ntsb" / "reports_2010_2016.jsonl")
    imo = imo_records(args.data / "maritime" / "imo_casualties.csv")
    taic = taic_records(args.data / "maritime" / "taic_reports")
    for record in taic:
        record["year"] = int(record["file"][:4])
    for path, text in _files(questions(ntsb, imo, taic)).items():
        if not args.check:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path.name} differs from the generator")  # noqa: T201
            return 1
        print(f"{path.name}: {text.count(chr(10))} questions")  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
