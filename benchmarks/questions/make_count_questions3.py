"""Generate count set 3: "how many ..." over the NTSB records and IMO casualties, in users' words.

Writes ``count3_{ntsb,imo}_{dev,heldout}.jsonl`` (split by ``records5_sets.SEED``). A question's
``count`` is how many records (NTSB events, IMO casualties) pass all its conditions
(``records5_ntsb.py``, ``records5_imo.py``): only exact conditions on the records' fields, and
only where every other fair reading of them (``Cond.other``: a category of any aircraft or the
first, a make's first word or anywhere in the field, an initial event as written or its group)
counts the same records, and the wording fits the set (``check_wording``). The generator stops
on a question that breaks one of these, or counts fewer than 3 records.

Usage: ``python benchmarks/questions/make_count_questions3.py --data ../shared/data`` writes;
``--check [--data DIR]`` compares (see ``records5_sets``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import records5_imo as imo  # noqa: E402
import records5_ntsb as ntsb  # noqa: E402
from count3_questions import QUESTIONS, Count  # noqa: E402
from records5_fields import Record, select, select_other  # noqa: E402
from records5_sets import Spec, check_wording, main  # noqa: E402

PREFIX = "count3"
MIN_COUNT = 3


def gold_row(count: Count, records: Sequence[Record]) -> dict[str, Any]:
    """The question's line with its exact count read from ``records`` (the source's all)."""
    spec = count.spec
    if not spec.exact:
        raise ValueError(f"a count needs exact conditions: {spec.question!r}")
    chosen = select(records, count.conds)
    check_wording(spec.question, count.source, chosen)
    if len(select_other(records, count.conds)) != len(chosen):
        raise ValueError(f"another reading counts differently: {spec.question!r}")
    if len(chosen) < MIN_COUNT:
        raise ValueError(f"counts only {len(chosen)}: {spec.question!r}")
    return {
        "kind": "count",
        "question": spec.question,
        "count": len(chosen),
        "source": spec.source,
        "rule": spec.rule,
    }


def specs() -> list[Spec]:
    return [c.spec for c in QUESTIONS]


def rows(data: Path) -> list[dict[str, Any]]:
    """Every question's gold line, read from the shared data folder."""
    records = {"ntsb": ntsb.read_ntsb(data), "imo": imo.read_imo(data)}
    return [gold_row(c, records[c.source]) for c in QUESTIONS]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:], PREFIX, specs, rows))
