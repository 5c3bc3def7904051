"""Follow-up, claim-check and relative-date questions (``make_followup_questions.py``) and the
off-topic guard, as tables: per question set and half, the share of follow-ups whose answer states
the asked aspect, the share citing the subject record and no other, claims not denied and citing
their record, dates filtered exactly, and the in-domain questions wrongly stopped by the
relevance cutoff.

It reads the per-question ``--details`` file of ``bosun eval-answers`` (one run per half; a
held-back half is scored once, at the end) and the ``--json`` report of the off-topic runs:

    bosun eval-answers --offline --details ntsb2_dev.jsonl \\
        benchmarks/questions/followup_ntsb2_dev.jsonl
    bosun eval-answers --offline --expect off_topic --json \\
        benchmarks/questions/off_topic.jsonl > off_ntsb.json
    python benchmarks/followup_sets.py --run "NTSB round 2,dev,first=ntsb2_dev.jsonl" \\
        --off-topic "NTSB 2010-2016=off_ntsb.json" --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import Table, emit  # noqa: E402

COMMAND = (
    "bosun eval-answers --offline --details D.jsonl benchmarks/questions/followup_{set}_{half}"
    ".jsonl; bosun eval-answers --offline --expect off_topic --json "
    "benchmarks/questions/off_topic.jsonl"
)
COLUMNS = (
    "set",
    "half",
    "scored",
    "follow-ups",
    "aspect stated",
    "subject cited, no other record",
    "claims",
    "claim not denied",
    "claim's record cited",
    "date questions",
    "date range exact",
    "wrongly stopped",
)


def row_of(label: str, half: str, scored: str, lines: Sequence[Mapping[str, Any]]) -> list[Any]:
    """One row: the shares of one run's questions (``--details`` lines) that met each measure."""

    def of(kind: str) -> list[Mapping[str, Any]]:
        return [line["measures"] for line in lines if line.get("kind") == kind]

    follow, claims, dates = of("followup"), of("claim"), of("dates")
    stopped = sum(bool(line["measures"].get("stopped")) for line in lines)
    return [
        label,
        half,
        scored,
        len(follow),
        _share(follow, lambda m: m.get("aspect_value")),
        _share(follow, lambda m: m.get("subject_cited") and m.get("no_unrelated")),
        len(claims),
        _share(claims, lambda m: m.get("not_denied")),
        _share(claims, lambda m: m.get("subject_cited")),
        len(dates),
        _share(dates, lambda m: m.get("date_range")),
        f"{stopped} of {len(lines)}",
    ]


def _share(rows: Sequence[Mapping[str, Any]], met: Any) -> str | None:
    if not rows:
        return None
    hits = sum(bool(met(r)) for r in rows)
    return f"{hits} / {len(rows)} ({100 * hits / len(rows):.1f}%)"


def off_topic_row(collection: str, report: Mapping[str, Any]) -> list[Any]:
    """One row of the off-topic guard: questions stopped without a model call."""
    stopped, total = report["off_topic_stopped_no_llm"], report["off_topic"]
    return [collection, f"{stopped} of {total}"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--run",
        action="append",
        default=[],
        metavar="SET,HALF,SCORED=DETAILS",
        help="an eval's --details file; SCORED says first scoring or re-scored",
    )
    parser.add_argument(
        "--off-topic", action="append", default=[], metavar="COLLECTION=JSON", help="--json"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for run in args.run:
        names, _, path = run.partition("=")
        label, half, scored = (part.strip() for part in names.split(","))
        text = Path(path).read_text(encoding="utf-8")
        rows.append(row_of(label, half, scored, [json.loads(x) for x in text.splitlines() if x]))
    guard = []
    for run in args.off_topic:
        collection, _, path = run.partition("=")
        guard.append(off_topic_row(collection, json.loads(Path(path).read_text("utf-8"))))
    emit(
        COMMAND,
        [
            Table("sets", COLUMNS, rows),
            Table("off_topic", ("collection", "off-topic stopped, no model call"), guard),
        ],
        as_json=args.json,
        archive="NTSB 2010-2016 (6,140 records); IMO casualties C0000159-C0007156 (6,256)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
