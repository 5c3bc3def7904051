"""Generate follow-up, claim-check and relative-date questions with gold read from the NTSB records.

Reads ``../shared/data/ntsb/reports_2010_2016.jsonl`` directly and imports nothing from Bosun:
each gold value is this script's own reading of the raw fields, so the product is checked, not
repeated. Three kinds:

- ``followup``: two turns. The first names one accident the way a user would (place, date,
  aircraft: never its NTSB number); the second asks one aspect in one of several phrasings:
  ``injuries`` (gold: the record's ``fatal`` / ``serious`` / ``minor`` counts), ``date``
  (``event_date``), ``place`` (``city`` and ``state``), ``aircraft`` (``model``; then the first
  turn names the place and date only). The subject is ``report_no``: the follow-up must cite it
  and no other record. Only records whose naming is unique in the file are used.
- ``claim``: one turn naming the aircraft by a variant of its model ("P-51" for "P-51D",
  "PA28" for "PA-28-140", "737" for "737-800"): the answer must not claim the archive lacks it
  and must cite the record.
- ``dates``: one turn with a relative or partial date ("since February 2014", "last spring",
  "in the past two years", "before March") and a fixed ``today`` between February 2014 and
  August 2015 (the records end in July 2015: a first version drew 2016 days, whose ranges hold
  no record, so those questions measured only the "no document matches" reply; changed after
  the first dev run, before the held-back half was looked at); gold is the date range
  (inclusive ISO dates, either end open) this script computes itself. Seasons are the
  meteorological ones (spring = March-May); "last <season>" is the latest one that has ended;
  "before <month>" with no year is before that month's latest start up to today; "the past N
  years/months" ends today and starts the same day N years/months earlier.

The split is made here, before any answer is scored: the questions are shuffled with
``random.Random(SPLIT_SEED)`` and alternate between ``dev`` (built on) and ``heldout`` (scored
only at the end)::

    python benchmarks/questions/make_followup_questions.py
    bosun eval-answers --offline --ntsb-records ../shared/data/ntsb/reports_2010_2016.jsonl \\
        benchmarks/questions/followup_ntsb_dev.jsonl   # NTSB records ingested

Round 2 (``--round 2``) draws a new set with new seeds (``ROUNDS``), after round 1's held-back
half had been scored: the NTSB questions as above (``followup_ntsb2_*``) and two-turn follow-ups
about one ship's casualty with gold from the IMO records' fields (``followup_imo_*``,
:mod:`followup_vessels`), each split 50/50 the same way before any answer is scored.
"""

from __future__ import annotations

import argparse
import calendar
import json
import random
import re
from collections import Counter
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import followup_vessels

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
HERE = Path(__file__).resolve().parent
#: Per round: (question seed, split seed, NTSB file stem, IMO follow-ups).
ROUNDS = {1: (2604, 2631, "followup_ntsb", 0), 2: (2702, 2719, "followup_ntsb2", 140)}
FOLLOWUPS = 160
CLAIMS = 40
DATES = 40

Record = dict[str, Any]

FIRST_TURNS = (
    "What happened to the {make} {model} in {city}, {state} on {long_date}?",
    "Tell me about the {model} accident near {city}, {state} in {month_year}.",
    "What happened in the {make} {model} crash at {city} on {long_date}?",
    "Can you describe the {model} accident in {city}, {state} ({long_date})?",
)
#: First turns for an aircraft follow-up: the aircraft is not named.
FIRST_TURNS_UNNAMED = (
    "What happened in the accident near {city}, {state} on {long_date}?",
    "Tell me about the accident at {city}, {state} on {long_date}.",
)
ASPECT_TURNS = {
    "injuries": (
        "were there any injuries?",
        "was anyone hurt?",
        "how many people were injured?",
        "did anyone die?",
        "any fatalities?",
        "were people killed or injured in it?",
    ),
    "date": (
        "when did it happen?",
        "what was the date of that accident?",
        "when was this?",
        "what day did it happen?",
    ),
    "place": (
        "where did it happen?",
        "where was that?",
        "what was the location?",
        "where did that accident take place?",
    ),
    "aircraft": (
        "what aircraft was involved?",
        "what type of plane was it?",
        "which aircraft model was that?",
        "what kind of aircraft was it?",
    ),
}
CLAIM_TURNS = (
    "How many people died in the {city} {variant} crash and why?",
    "What caused the {variant} accident in {city}, {state}?",
    "Why did the {variant} crash near {city}?",
    "Were there injuries in the {variant} accident at {city}, {state}?",
)
SEASONS = {"spring": (3, 5), "summer": (6, 8), "autumn": (9, 11), "fall": (9, 11)}
DATE_TEMPLATES = (
    "Which accidents happened {when}?",
    "Show me engine failure accidents {when}.",
    "What accidents involved helicopters {when}?",
    "Were there any fuel exhaustion accidents {when}?",
)


def load(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _title(text: str) -> str:
    return " ".join(w.capitalize() if w.isalpha() else w for w in text.split())


def _usable(r: Record) -> bool:
    return all(r.get(k) for k in ("city", "state", "make", "model", "event_date")) and all(
        isinstance(r.get(k), int) for k in ("fatal", "serious", "minor")
    )


def _fields(r: Record) -> dict[str, str]:
    day = date.fromisoformat(r["event_date"][:10])
    return {
        "make": _title(r["make"].split(",")[0]),
        "model": r["model"].split(",")[0].strip(),
        "city": _title(r["city"]),
        "state": r["state"],
        "long_date": f"{calendar.month_name[day.month]} {day.day}, {day.year}",
        "month_year": f"{calendar.month_name[day.month]} {day.year}",
    }


def followups(records: list[Record], rng: random.Random, n: int) -> list[Record]:
    """Two-turn questions on records whose place and date name one accident."""
    named = Counter(
        (r["city"].upper(), r["state"], r["event_date"][:7]) for r in records if _usable(r)
    )
    usable = [
        r
        for r in records
        if _usable(r)
        and named[(r["city"].upper(), r["state"], r["event_date"][:7])] == 1
        and "," not in r["make"]
    ]
    rng.shuffle(usable)
    aspects = list(ASPECT_TURNS)
    out = []
    for i, record in enumerate(usable[:n]):
        aspect = aspects[i % len(aspects)]
        fields = _fields(record)
        firsts = FIRST_TURNS_UNNAMED if aspect == "aircraft" else FIRST_TURNS
        out.append(
            {
                "kind": "followup",
                "question": rng.choice(firsts).format(**fields),
                "followup": rng.choice(ASPECT_TURNS[aspect]),
                "aspect": aspect,
                "report_no": record["ntsb_no"],
                "expected": _expected(record, aspect),
            }
        )
    return out


def _expected(record: Record, aspect: str) -> dict[str, Any]:
    if aspect == "injuries":
        return {k: record[k] for k in ("fatal", "serious", "minor")}
    if aspect == "date":
        return {"date": record["event_date"][:10]}
    if aspect == "place":
        return {"city": record["city"], "state": record["state"]}
    return {"make": record["make"], "model": record["model"]}


_MODEL = re.compile(r"^([A-Z]{1,3})-?(\d{2,4})([A-Z]{0,2})(?:-\d+)?$")


def variants(model: str) -> list[str]:
    """Ways a user writes ``model`` that its record does not: hyphen dropped, added or made a
    space, a variant letter or a sub-model left off ("P-51" for "P-51D", "PA28" for
    "PA-28-140", "R-44" for "R44")."""
    m = _MODEL.match(model)
    if m is None:
        return []
    letters, digits, suffix = m.groups()
    options = [
        f"{letters}-{digits}",
        f"{letters}{digits}",
        f"{letters} {digits}{suffix}",
        f"{letters}-{digits}{suffix}",
        f"{letters}{digits}{suffix}",
    ]
    return [o for o in dict.fromkeys(options) if o != model]


def claims(records: list[Record], rng: random.Random, n: int) -> list[Record]:
    named = Counter((r["city"].upper(), r["state"]) for r in records if _usable(r))
    out = []
    pool = [r for r in records if _usable(r) and named[(r["city"].upper(), r["state"])] == 1]
    rng.shuffle(pool)
    for record in pool:
        model = record["model"].split(",")[0].strip().upper()
        forms = variants(model)
        if not forms:
            continue
        form = rng.choice(forms)
        fields = _fields(record) | {"variant": form}
        out.append(
            {
                "kind": "claim",
                "question": rng.choice(CLAIM_TURNS).format(**fields),
                "report_no": record["ntsb_no"],
                "model": model,
                "variant": form,
            }
        )
        if len(out) == n:
            break
    return out


def _month_start(day: date, months_back: int) -> date:
    index = day.year * 12 + day.month - 1 - months_back
    return date(index // 12, index % 12 + 1, 1)


def _minus(day: date, *, years: int = 0, months: int = 0) -> date:
    start = _month_start(day, years * 12 + months)
    return start.replace(day=min(day.day, calendar.monthrange(start.year, start.month)[1]))


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def relative(today: date, rng: random.Random) -> tuple[str, str | None, str | None]:
    """One relative or partial date phrase and its gold range (inclusive ISO dates)."""
    kind = rng.choice(("since", "season", "past", "before", "last_year", "month_year", "after"))
    month = rng.randint(1, 12)
    name = calendar.month_name[month]
    if kind == "since":
        year = today.year - rng.randint(0, 2)
        if date(year, month, 1) > today:
            year -= 1
        return f"since {name} {year}", date(year, month, 1).isoformat(), None
    if kind == "after":
        year = today.year - rng.randint(1, 2)
        end = _month_end(year, month)
        return f"after {name} {year}", (end + timedelta(days=1)).isoformat(), None
    if kind == "season":
        season = rng.choice(("spring", "summer", "autumn"))
        first, last = SEASONS[season]
        year = today.year if _month_end(today.year, last) < today else today.year - 1
        return (
            f"last {season}",
            date(year, first, 1).isoformat(),
            _month_end(year, last).isoformat(),
        )
    if kind == "past":
        n = rng.randint(2, 3)
        unit = rng.choice(("years", "months"))
        words = {2: "two", 3: "three"}
        start = _minus(today, years=n) if unit == "years" else _minus(today, months=n * 6)
        count = n if unit == "years" else n * 6
        spelled = words.get(count, str(count))
        return f"in the past {spelled} {unit}", start.isoformat(), today.isoformat()
    if kind == "before":
        year = today.year if date(today.year, month, 1) <= today else today.year - 1
        return f"before {name}", None, (date(year, month, 1) - timedelta(days=1)).isoformat()
    if kind == "last_year":
        year = today.year - 1
        return "last year", date(year, 1, 1).isoformat(), date(year, 12, 31).isoformat()
    year = today.year - rng.randint(1, 3)
    return (
        f"in {name} {year}",
        date(year, month, 1).isoformat(),
        _month_end(year, month).isoformat(),
    )


def dates(rng: random.Random, n: int) -> list[Record]:
    out = []
    for _ in range(n):
        # Within the records' span (January 2010 to July 2015), so each range can hold records.
        today = date(2015, 8, 1) - timedelta(days=rng.randint(0, 540))
        phrase, start, end = relative(today, rng)
        out.append(
            {
                "kind": "dates",
                "question": rng.choice(DATE_TEMPLATES).format(when=phrase),
                "today": today.isoformat(),
                "date_from": start,
                "date_to": end,
            }
        )
    return out


def split(questions: list[Record], seed: int) -> tuple[list[Record], list[Record]]:
    order = list(questions)
    random.Random(seed).shuffle(order)
    return order[0::2], order[1::2]


def write(out: Path, stem: str, questions: list[Record], seed: int) -> None:
    """``questions`` split with ``seed`` into ``<stem>_dev.jsonl`` and ``<stem>_heldout.jsonl``."""
    dev, heldout = split(questions, seed)
    for name, half in (("dev", dev), ("heldout", heldout)):
        path = out / f"{stem}_{name}.jsonl"
        path.write_text("".join(json.dumps(q) + "\n" for q in half), encoding="utf-8")
        kinds = Counter(q.get("aspect") or q["kind"] for q in half)
        print(f"{path.name}: {len(half)} questions ({dict(kinds)})")  # noqa: T201


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=Path, default=DATA / "ntsb" / "reports_2010_2016.jsonl")
    parser.add_argument("--casualties", type=Path, default=DATA / "maritime" / "imo_casualties.csv")
    parser.add_argument("--round", type=int, choices=sorted(ROUNDS), default=1)
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    question_seed, split_seed, stem, vessels = ROUNDS[args.round]
    records = load(args.records)
    rng = random.Random(question_seed)
    questions = followups(records, rng, FOLLOWUPS) + claims(records, rng, CLAIMS)
    questions += dates(rng, DATES)
    write(args.out, stem, questions, split_seed)
    if vessels:
        rows = followup_vessels.load(args.casualties)
        asked = followup_vessels.vessel_followups(rows, random.Random(question_seed), vessels)
        write(args.out, "followup_imo", asked, split_seed)


if __name__ == "__main__":
    main()
