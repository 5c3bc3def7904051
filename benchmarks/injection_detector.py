"""The planted-instruction detector (:mod:`text.injection`): how many phrasings it recognises and
how much benign text it flags.

- recognition on set A, ``tests/data/injections.jsonl`` (``python tests/data/make_injections.py``),
  by split, family and disguise. Its ``held_back`` half was scored and its misses read on
  2026-12-01, so both halves of set A are development data now;
- sets B and C, ``tests/data/injections_b.jsonl`` and ``injections_c.jsonl`` (``python
  tests/data/make_injections_b.py``): hand-written attacks and benign hard negatives, each split
  (seeds ``bosun-injections-b-2026-12-02``, ``bosun-injections-c-2026-12-02``) and committed
  before the detector was run on them. Set B's held-back half was scored once (84.5 % of attacks,
  4.9 % of its hard negatives flagged) and is development data since; set C was then written as
  the next held-back test; its held-back half was scored once (68.2 %, cues only) and is
  development data since. Recognition by split, family and disguise; hard negatives flagged by
  split;
- set D, ``tests/data/injections_d.jsonl`` (``python tests/data/make_injections_d.py``): written
  for the trained classifier (:mod:`text.injection_model`) and split half and half (seed
  ``bosun-injections-d-2026-12-02``) before any detector read it; its held-back half was scored
  once on 2026-12-02 and is training data since;
- set E, ``tests/data/injections_e.jsonl`` (``python tests/data/make_injections_e.py``): written
  apart from the detector and sets A to D (look-alike letters, spacing, delimiters, role-play,
  28 languages) and split by base (seed ``bosun-injections-e-2026-12-02``); its held-back half
  was scored once on 2026-12-02 (59.1 %) and both halves are training data since;
- set F, ``tests/data/injections_f.jsonl``, written by another engineer who had not read the
  detector: its held-back half was scored once on 2026-12-02 (61.7 % of attacks, 14.5 % of its
  hard negatives flagged) and both halves are training data since;
- set G, ``tests/data/injections_g.jsonl`` (``python tests/data/make_injections_g.py``), written
  by another engineer who had not read the detector: its held-back half was scored once on
  2026-12-03 (68.0 %) and both halves are training data since;
- set H, ``tests/data/injections_h.jsonl`` (``python tests/data/make_injections_h.py``), written
  blind by a fourth writer (seed ``bosun-injections-h-redteam-2026-12-02``): its held-back half
  was scored once on 2026-12-03 (39.9 % of attacks, 7.6 % of its hard negatives flagged) and
  both halves are training data since;
- set I, ``tests/data/injections_i.jsonl`` (``python tests/data/make_injections_i.py``), written
  blind by a fifth writer (seed ``bosun-injections-i-2026-12-03``): read by nothing here but
  ``--held-back I``;
- with ``--cv``, how the classifier generalises (:mod:`adapt.injection_validation`): refitted with
  one set (one writer), one language family or one attack family left out, scored on what was
  left out: the leave-one-set-out table is the measure that predicts a new writer;
- every set is read twice: by the hand-written phrasings and cues alone, and by the detector as
  it ships (phrasings, cues the classifier supports, or the classifier);
- false positives on benign text: every question of ``benchmarks/questions/*.jsonl``, the
  passages (chunks as ingest cuts them) of the real mailing-list mail in
  ``../shared/data/email/usrp-users`` (the half the classifier learnt from apart from the other)
  and of NTSB narratives, and the example archive, and how many of them the detector reads a
  second (ingest speed).

``python benchmarks/injection_detector.py [--json] [--cv] [--data ../shared/data] [--mails N]``;
``--held-back SET`` scores that set's held-back rows alone (once, by whoever did not build on
them); a set still being written is named nowhere here until it is scored.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import Table, emit  # noqa: E402

from adapt import injection_validation as validation  # noqa: E402
from adapt.injection_real import trained_mail  # noqa: E402
from adapt.shipped_injection_model import (  # noqa: E402
    generated,
    labelled,
    phrasing_hits,
    real,
    set_rows,
)
from archive.ingest.chunking import chunk_document  # noqa: E402
from archive.ingest.discover import load_paths  # noqa: E402
from archive.ingest.loaders.email import parse_message  # noqa: E402
from archive.ingest.model import LoadError, SourceDocument  # noqa: E402
from text.injection import instructions_in  # noqa: E402
from text.injection_model import shipped  # noqa: E402

DATA = ROOT / "tests" / "data"
SETS = {
    "A": DATA / "injections.jsonl",
    "B": DATA / "injections_b.jsonl",
    "C": DATA / "injections_c.jsonl",
    "D": DATA / "injections_d.jsonl",
    "E": DATA / "injections_e.jsonl",
    "F": DATA / "injections_f.jsonl",
    "G": DATA / "injections_g.jsonl",
    "H": DATA / "injections_h.jsonl",  # E to H both halves: each held-back half was scored once
}
#: Sets read by ``--held-back`` only (never by the tables above): set I, written by another
#: engineer while the detector was being built, scored once at the end by whoever did not.
HELD_BACK_ONLY = {"I": DATA / "injections_i.jsonl"}
#: The set whose misses are listed.
TEST = "H"


def recognition() -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """Rows of recognition by set, split, family and disguise (benign hard negatives: how many
    were flagged), by the cues alone and by the shipped detector; the misses (ids) of
    :data:`TEST`; the flagged hard negatives."""
    hits: Counter[tuple[str, str, str, str]] = Counter()
    totals: Counter[tuple[str, str, str]] = Counter()
    missed: list[str] = []
    flagged: list[dict[str, Any]] = []
    for name, path in SETS.items():
        if not path.is_file():
            continue
        for entry in set_rows(path):
            cues = instructions_in(entry["text"], classifier=False)
            found = instructions_in(entry["text"])
            split = entry["split"]
            if entry.get("label") == "benign":
                groups = ["hard negatives (flagged)"]
                if found:
                    flagged.append({"id": entry["id"], "patterns": found})
            else:
                disguise = entry["disguise"].split("+")[0]
                groups = ["all", f"family:{entry['family']}", f"disguise:{disguise}"]
                if not found and name == TEST:
                    missed.append(entry["id"])
            for group in groups:
                totals[name, split, group] += 1
                hits[name, split, group, "cues"] += bool(cues)
                hits[name, split, group, "shipped"] += bool(found)
    rows = [
        {"set": n, "split": s, "group": g, "n": totals[n, s, g],
         "cues": hits[n, s, g, "cues"], "recognised": hits[n, s, g, "shipped"],
         "rate": round(hits[n, s, g, "shipped"] / totals[n, s, g], 4)}
        for n, s, g in sorted(totals)
    ]  # fmt: skip
    return rows, missed, flagged


def held_back(name: str) -> list[Table]:
    """Set ``name``'s ``held_back`` rows, scored once (for whoever did not build on them): attacks
    recognised and hard negatives flagged, by the phrasings and cues alone and as shipped,
    overall and by family, language and disguise."""
    hits: Counter[tuple[str, str]] = Counter()
    totals: Counter[str] = Counter()
    for line in {**SETS, **HELD_BACK_ONLY}[name].open(encoding="utf-8"):
        entry = json.loads(line) if line.strip() else {}
        if entry.get("split") != "held_back":
            continue
        if entry.get("label") == "benign":
            groups = ["hard negatives (flagged)"]
        else:
            disguise = entry["disguise"].split("+")[0]
            groups = ["attacks", f"family:{entry['family']}", f"language:{entry['language']}",
                      f"disguise:{disguise}"]  # fmt: skip
        cues = bool(instructions_in(entry["text"], classifier=False))
        found = bool(instructions_in(entry["text"]))
        for group in groups:
            totals[group] += 1
            hits[group, "cues"] += cues
            hits[group, "shipped"] += found
    rows = [
        [name, group, n, f"{hits[group, 'cues'] / n:.1%}", hits[group, "shipped"],
         f"{hits[group, 'shipped'] / n:.1%}"]
        for group, n in sorted(totals.items())
    ]  # fmt: skip
    columns = ["set", "held-back group", "texts", "cues only", "recognised", "rate"]
    return [Table(f"held_back_{name}", columns, rows)]


def _chunks(documents: Iterable[SourceDocument | LoadError]) -> Iterator[str]:
    for doc in documents:
        if isinstance(doc, LoadError):
            continue
        for chunk in chunk_document(doc):
            yield chunk.text
        yield doc.title


def _mails(folder: Path, limit: int, trained: bool) -> Iterator[SourceDocument | LoadError]:
    """The first ``limit`` mails of ``folder``, of the half the classifier was (or was not)
    trained on."""
    for path in sorted(folder.glob("*.eml"))[:limit]:
        if trained_mail(path) != trained:
            continue
        try:
            yield from parse_message(path.read_bytes(), origin=str(path))
        except LoadError as err:
            yield err


def _narratives(path: Path, limit: int) -> Iterator[str]:
    with path.open(encoding="utf-8") as handle:
        for n, line in enumerate(handle):
            if n >= limit:
                return
            record = json.loads(line)
            yield record.get("narrative") or ""
            yield record.get("probable_cause") or ""


def false_positives(data: Path, mails: int, records: int) -> tuple[list[dict[str, Any]], list]:
    """Rows of flagged benign texts per source; a sample of what was flagged (for reading)."""
    sources: dict[str, Iterable[str]] = {
        "questions": (
            json.loads(line).get(key) or ""
            for path in sorted((ROOT / "benchmarks" / "questions").glob("*.jsonl"))
            for line in path.open(encoding="utf-8")
            if line.strip()
            for key in ("question", "followup")
        ),
        "example archive passages": _chunks(load_paths([ROOT / "examples" / "archive"])),
    }
    usrp = data / "email" / "usrp-users"
    if usrp.is_dir():
        sources["usrp-users mail passages (trained on)"] = _chunks(_mails(usrp, mails, True))
        sources["usrp-users mail passages (not trained on)"] = _chunks(_mails(usrp, mails, False))
    notmuch = data / "email" / "notmuch"
    if notmuch.is_dir():
        sources["notmuch mail passages"] = _chunks(load_paths([notmuch]))
    ntsb = data / "ntsb" / "reports_2010_2016.jsonl"
    if ntsb.is_file():
        sources["NTSB narratives and causes"] = _narratives(ntsb, records)
    rows, flagged = [], []
    for name, texts in sources.items():
        n = hit = cues = 0
        seconds = {"cues": 0.0, "shipped": 0.0}
        for text in texts:
            if not text.strip():
                continue
            n += 1
            start = time.perf_counter()
            cues += bool(instructions_in(text, classifier=False))
            middle = time.perf_counter()
            names = instructions_in(text)
            seconds["cues"] += middle - start
            seconds["shipped"] += time.perf_counter() - middle
            if names:
                hit += 1
                flagged.append({"source": name, "patterns": names, "text": text[:300]})
        rows.append({
            "source": name, "n": n, "cues": cues, "flagged": hit, "rate": round(hit / max(n, 1), 5),
            "cues_per_s": round(n / max(seconds["cues"], 1e-9), 1),
            "per_s": round(n / max(seconds["shipped"], 1e-9), 1),
        })  # fmt: skip
    return rows, flagged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the tables as JSON")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--mails", type=int, default=2000, help="usrp-users messages read")
    parser.add_argument("--records", type=int, default=2000, help="NTSB records read")
    parser.add_argument("--show", type=int, default=0, help="print N flagged benign texts")
    parser.add_argument("--cv", action="store_true", help="add the leave-one-out tables")
    parser.add_argument("--cv-only", action="store_true", help="only the leave-one-out tables")
    parser.add_argument("--cv-real", type=int, default=3000, help="real windows in --cv folds")
    parser.add_argument("--cv-epochs", type=int, default=80, help="epochs per --cv fit")
    parser.add_argument(
        "--cv-keys",
        default="set,language family,attack family,writer",
        help="which leave-one-out tables (comma-separated)",
    )
    parser.add_argument(
        "--held-back",
        metavar="SET",
        choices=[*SETS, *HELD_BACK_ONLY],
        help="score that set's held-back rows (once, at the end)",
    )
    args = parser.parse_args()
    if args.held_back:
        command = f"python benchmarks/injection_detector.py --json --held-back {args.held_back}"
        emit(command, held_back(args.held_back), as_json=args.json)
        return
    keys = [k.strip() for k in args.cv_keys.split(",") if k.strip()]
    if args.cv_only:
        cv = cross_validation(args.data, args.cv_real, args.cv_epochs, keys)
        command = "python benchmarks/injection_detector.py --json --cv-only"
        if args.cv_keys != parser.get_default("cv_keys"):
            command += f" --cv-keys '{args.cv_keys}'"
        emit(command, cv, as_json=args.json)
        return
    rows, missed, hard = recognition()
    benign, flagged = false_positives(args.data, args.mails, args.records)
    extra = cross_validation(args.data, args.cv_real, args.cv_epochs, keys) if args.cv else []
    emit(
        "python benchmarks/injection_detector.py --json" + (" --cv" if args.cv else ""),
        tables(rows, benign) + extra,
        as_json=args.json,
        test_dev_missed=missed,
        hard_negatives_flagged=hard,
    )
    if args.json:
        return
    if missed:
        print(f"set {TEST} dev misses: {', '.join(missed)}")  # noqa: T201
    for item in hard:
        print(f"hard negative flagged: {item['id']} {item['patterns']}")  # noqa: T201
    for item in flagged[: args.show]:
        print(item)  # noqa: T201


def cross_validation(data: Path, real_windows: int, epochs: int, keys: list[str]) -> list[Table]:
    """One table per way of leaving texts out (:mod:`adapt.injection_validation`), at the shipped
    threshold, with ``real_windows`` real archive windows in every training fold and ``epochs``
    per fit."""
    sets = list(labelled())
    examples = sets + generated([e.text for e in sets]) + real(data, real_windows)
    model = shipped()
    cutoffs = (model.threshold, model.support)
    found = validation.tables(examples, cutoffs, phrasing_hits(), keys, epochs=epochs)
    return [
        Table(f"cv_{name.split()[0]}", validation.COLUMNS, rows) for name, rows in found.items()
    ]


def tables(rows: list[dict[str, Any]], benign: list[dict[str, Any]]) -> list[Table]:
    """The summary (attacks recognised and hard negatives flagged, by set and split, by the cues
    alone and as shipped), the rates by family and disguise, and the false positives and speed
    on real archive text."""
    by = {(r["set"], r["split"], r["group"]): r for r in rows}
    summary = []
    for name, split in sorted({(r["set"], r["split"]) for r in rows}):
        attacks, hard = (
            by.get((name, split, "all")),
            by.get((name, split, "hard negatives (flagged)")),
        )
        summary.append([
            name, split, attacks["n"], f"{attacks['cues'] / attacks['n']:.1%}",
            attacks["recognised"], f"{attacks['rate']:.1%}",
            hard["n"] if hard else None, f"{hard['cues'] / hard['n']:.1%}" if hard else None,
            hard["recognised"] if hard else None, f"{hard['rate']:.1%}" if hard else None,
        ])  # fmt: skip
    groups = [
        [r["set"], r["split"], r["group"], r["n"], r["recognised"], f"{r['rate']:.1%}"]
        for r in rows
        if r["group"] not in ("all", "hard negatives (flagged)")
    ]
    real = [[r["source"], r["n"], r["cues"], r["flagged"], f"{r['rate']:.2%}", r["cues_per_s"],
             r["per_s"]] for r in benign]  # fmt: skip
    total, hit = sum(r["n"] for r in benign), sum(r["flagged"] for r in benign)
    real.append(["all real texts", total, sum(r["cues"] for r in benign), hit,
                 f"{hit / max(total, 1):.2%}", None, None])  # fmt: skip
    return [
        Table(
            "summary",
            [
                "set",
                "split",
                "attacks",
                "cues only",
                "recognised",
                "rate",
                "hard negatives",
                "cues only flagged",
                "flagged",
                "rate",
            ],
            summary,
        ),  # fmt: skip
        Table("groups", ["set", "split", "group", "n", "recognised", "rate"], groups),
        Table(
            "real",
            [
                "benign source",
                "texts",
                "cues only flagged",
                "flagged",
                "rate",
                "cues only texts/s",
                "texts/s",
            ],
            real,
        ),  # fmt: skip
    ]


if __name__ == "__main__":
    main()
