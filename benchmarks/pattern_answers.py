"""Pattern and count answers per source and split, as tables: for pattern questions the share
with named groups, counts and cited examples (each check alone too), for count questions the
share stating the exact count; valid citations, repeated sentences and wrongly stopped
questions for both.

It reads the ``--json`` output of ``bosun eval-answers`` (one run per question file, on the
collection that holds that source's records; held-out halves are scored once, at the end)::

    bosun eval-answers --offline benchmarks/questions/pattern_threads_dev.jsonl --json > t.json
    bosun eval-answers --offline --collection imo benchmarks/questions/count_imo_dev.jsonl \\
        --json > c.json
    python benchmarks/pattern_answers.py --run "dev|mail threads=t.json" \\
        --run "dev|IMO=c.json" --json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import Table, emit, runs_parser  # noqa: E402

COMMAND = "bosun eval-answers --offline [--collection C] benchmarks/questions/{kind}_{source}_{split}.jsonl --json"  # noqa: E501
PATTERN_COLUMNS = (
    "split",
    "source",
    "questions",
    "named groups, counts, cited examples",
    "named groups",
    "two cited examples per top group",
    "set stated",
    "dominant group",
    "citations valid",
    "repeated sentences",
    "wrongly stopped",
)
COUNT_COLUMNS = (
    "split",
    "source",
    "questions",
    "exact count",
    "citations valid",
    "repeated sentences",
    "wrongly stopped",
)


def _share(value: float | None, n: int) -> str:
    if value is None:
        return ""
    return f"{round(value * n)} / {n} ({100 * value:.1f}%)"


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.1f}%"


def rows_of(label: str, report: dict[str, Any]) -> tuple[list[Any] | None, list[Any] | None]:
    """A run's pattern row and count row (None where it holds no question of that kind)."""
    split, _, source = label.partition("|")
    kinds = report["offline"]["kinds"]
    pattern = count = None
    if (row := kinds.get("pattern")) is not None:
        n = row["questions"]
        pattern = [
            split,
            source,
            n,
            _share(row.get("pattern_ok"), n),
            _pct(row.get("named_groups")),
            _pct(row.get("examples")),
            _pct(row.get("set_stated")),
            _pct(row.get("dominant")),
            _pct(row["citations_valid"]),
            row["repeated_sentences"],
            _pct(row["wrongly_stopped"]),
        ]
    if (row := kinds.get("count")) is not None:
        n = row["questions"]
        count = [
            split,
            source,
            n,
            _share(row.get("exact_count"), n),
            _pct(row["citations_valid"]),
            row["repeated_sentences"],
            _pct(row["wrongly_stopped"]),
        ]
    return pattern, count


def main(argv: list[str] | None = None) -> int:
    parser = runs_parser(
        __doc__.split("\n\n")[0],
        "SPLIT|SOURCE=FILE",
        "one eval-answers --json output, labelled (repeat)",
    )
    args = parser.parse_args(argv)
    patterns, counts = [], []
    for run in args.run:
        label, _, path = run.partition("=")
        pattern, count = rows_of(label, json.loads(Path(path).read_text()))
        patterns += [pattern] if pattern else []
        counts += [count] if count else []
    tables = [Table("patterns", PATTERN_COLUMNS, patterns), Table("counts", COUNT_COLUMNS, counts)]
    emit(COMMAND, [t for t in tables if t.rows], as_json=args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
