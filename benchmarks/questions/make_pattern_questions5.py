"""Generate record pattern set 5: how users ask what usually goes wrong, over NTSB, IMO and TAIC.

Writes ``pattern_records5_{ntsb,imo,taic}_{dev,heldout}.jsonl`` (split by
``records5_sets.SEED``). Each question's gold is read from the records' own fields by
``records5_ntsb.py``, ``records5_imo.py`` and ``records5_taic.py``:

- ``set``: how many records pass the question's conditions (one NTSB event, IMO casualty or TAIC
  report each); ``set_exact`` is False when a condition reads free text or a grouping of it (a
  ship kind, an initial event, words of a heading or narrative), so the set is asked within the
  scorer's tolerance.
- ``dominant``: the word of the largest group: an NTSB record's cause groups
  (``NTSB_CAUSES`` on ``probable_cause``), an IMO casualty's initial event (``IMO_EVENTS``) or,
  for "what follows" questions, its consequences (``IMO_CONSEQUENCES``), a TAIC report's
  occurrence kind (``TAIC_KINDS`` on its heading). A question is kept only when that group leads
  clearly (:func:`clear_lead`), at least 40 % of the set falls in some group, and the group's
  word names it plainly (not ``UNNAMED``), so a fair reading of the records names it among the
  top three.
- ``groups``: the three largest groups and their counts, for whoever reads a score.

A question that says "accident" or "crash" and not "incident" may not hold an NTSB incident, and
no TAIC set may hold a report whose standing is unclear (``taic_unclear``): the generator stops.

Usage: ``python benchmarks/questions/make_pattern_questions5.py --data ../shared/data`` writes;
``--check [--data DIR]`` compares (see ``records5_sets``).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import records5_imo as imo  # noqa: E402
import records5_ntsb as ntsb  # noqa: E402
import records5_taic as taic  # noqa: E402
from pattern5_questions import QUESTIONS, Pattern  # noqa: E402
from records5_fields import Record, select  # noqa: E402
from records5_sets import Spec, check_wording, main  # noqa: E402

PREFIX = "pattern_records5"
#: Group readers: what the largest group of a question's set is taken from.
GROUPERS: dict[str, Callable[[Record], set[str]]] = {
    "cause": ntsb.ntsb_causes,
    "event": lambda r: {e} if (e := imo.imo_event_of(r)) else set(),
    "consequence": imo.imo_consequences,
    "kind": taic.taic_kinds,
}
#: Groups too loosely named to hold an answer to one word ("spatial disorientation", "VFR into
#: clouds"; "wire strike", "tree"): they count, but a question they lead is not kept.
UNNAMED = frozenset({"visibility", "clearance"})
#: The share of a set that must fall in some group for its largest group to say much.
MIN_COVERED = 0.4


def clear_lead(counts: Counter[str], size: int) -> bool:
    """Whether the largest group leads clearly: in a set under 40 by two records, else by 3
    records and 15 %; and it has at least 3 (two cited examples and a spare)."""
    ranked = [n for _, n in counts.most_common(2)] + [0, 0]
    first, second = ranked[0], ranked[1]
    if size < 40:
        return first >= 3 and first - second >= 2
    return first - second >= 3 and first >= 1.15 * second


def gold_row(pattern: Pattern, records: Sequence[Record]) -> dict[str, Any]:
    """The question's line with its gold read from ``records`` (the source's all)."""
    spec = pattern.spec
    chosen = select(records, pattern.conds)
    check_wording(spec.question, pattern.source, chosen)
    grouped = [GROUPERS[pattern.by](r) for r in chosen]
    counts = Counter(g for groups in grouped for g in groups)
    if not clear_lead(counts, len(chosen)) or counts.most_common(1)[0][0] in UNNAMED:
        raise ValueError(f"no clear largest group {counts.most_common(3)}: {spec.question!r}")
    if sum(map(bool, grouped)) < MIN_COVERED * len(chosen):
        raise ValueError(f"too few records in any group: {spec.question!r}")
    return {
        "kind": "pattern",
        "question": spec.question,
        "set": len(chosen),
        "set_exact": spec.exact,
        "dominant": counts.most_common(1)[0][0],
        "source": spec.source,
        "rule": spec.rule,
        "groups": dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]),
    }


def specs() -> list[Spec]:
    return [p.spec for p in QUESTIONS]


def rows(data: Path) -> list[dict[str, Any]]:
    """Every question's gold line, read from the shared data folder."""
    records = {
        "ntsb": ntsb.read_ntsb(data),
        "imo": imo.read_imo(data),
        "taic": taic.read_taic(data),
    }
    return [gold_row(p, records[p.source]) for p in QUESTIONS]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:], PREFIX, specs, rows))
