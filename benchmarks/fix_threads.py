"""Fix and cause questions over real mail threads (usrp-users), as one table per split: the
share whose answer states the gold key phrases and cites a message that states them, the share
citing that message at all, valid citations, repeated sentences, wrongly stopped questions.

It reads the ``--json`` output of ``bosun eval-answers`` (run once per split; the held-out half
is scored once, at the end):

    BOSUN_OCR=off bosun ingest ../shared/data/email/usrp-users
    bosun eval-answers --offline benchmarks/questions/fix_threads_dev.jsonl --json > dev.json
    bosun eval-answers --offline benchmarks/questions/fix_threads_heldout.jsonl --json > held.json
    python benchmarks/fix_threads.py --run dev=dev.json --run held-out=held.json --json

The second and third sets (``fix_threads2_{dev,heldout}.jsonl``, 51 questions, and
``fix_threads3_{dev,heldout}.jsonl``, 36 more, each from threads the sets before do not use) are
run the same way and added with more ``--run`` labels.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render import Table, emit, runs_parser  # noqa: E402

COMMAND = "bosun eval-answers --offline benchmarks/questions/fix_threads{set}_{split}.jsonl --json"


def rows_of(label: str, report: dict[str, Any]) -> list[list[Any]]:
    """One row per kind of a run's offline report, and one for both kinds together."""
    kinds = report["offline"]["kinds"]
    rows = []
    total = {"questions": 0, "gold": 0.0, "message_cited": 0.0}
    for kind in ("fix", "cause"):
        row = kinds.get(kind)
        if row is None:
            continue
        n = row["questions"]
        total["questions"] += n
        total["gold"] += row["gold"] * n
        total["message_cited"] += row.get("message_cited", 0.0) * n
        rows.append(
            [
                label,
                kind,
                n,
                _pct(row["gold"]),
                _pct(row.get("message_cited")),
                _pct(row["citations_valid"]),
                row["repeated_sentences"],
                _pct(row["wrongly_stopped"]),
            ]
        )
    n = total["questions"]
    both = [label, "both", n, _pct(total["gold"] / n), _pct(total["message_cited"] / n)]
    rows.append([*both, "", sum(r[6] for r in rows), ""])
    return rows


def _pct(value: float | None) -> str | None:
    return None if value is None else f"{100 * value:.1f}%"


def main(argv: list[str] | None = None) -> int:
    parser = runs_parser(__doc__.splitlines()[0], "LABEL=FILE", "an eval's --json")
    parser.add_argument(
        "--split", default="{dev,heldout}", help="the halves the runs scored, as the command says"
    )
    args = parser.parse_args(argv)
    rows = []
    for run in args.run:
        label, _, path = run.partition("=")
        rows += rows_of(label, json.loads(Path(path).read_text(encoding="utf-8")))
    columns = [
        "split",
        "kind",
        "questions",
        "fix/cause stated, cited to its message",
        "stating message cited",
        "citations valid",
        "repeated sentences",
        "wrongly stopped",
    ]
    emit(
        COMMAND.format(set="{,2,3,4,5}", split=args.split),
        [Table("offline", columns, rows)],
        as_json=args.json,
        archive="../shared/data/email/usrp-users (BOSUN_OCR=off); fix_threads: 114 questions "
        "split 57/57 (seed 26), fix_threads2: 51 questions split 26/25 (seed 2602), "
        "fix_threads3: 36 questions split 18/18 (seed 2603)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
