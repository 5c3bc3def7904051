"""How record sets 5 (pattern set 5, count set 3) read the raw accident records' fields.

Written for these sets alone and importing nothing from Bosun, so a gold never depends on the
code it measures. One record is one NTSB event (``ntsb_no``), one IMO casualty (``Reference``)
or one TAIC report file (``YYYY_NNN.txt``).

A condition (:class:`Cond`) is a named test on one record; ``exact`` is False when it reads words
of free text (or a grouping of free-text values this module defines), which a reader of the
records could draw a little differently: a set built from such a condition is stated within a
tolerance, never exactly. Groups (what a pattern answer should name) are defined here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Record = Mapping[str, Any]


@dataclass(frozen=True)
class Cond:
    """One named test on a record."""

    rule: str
    test: Callable[[Record], bool]
    exact: bool = True
    #: Another fair reading of the same words (a make's name anywhere in the field, a
    #: category of the first aircraft only): an exact count is kept only where both agree.
    other: Callable[[Record], bool] | None = None


def select(records: Iterable[Record], conds: Iterable[Cond]) -> list[Record]:
    """The records passing every condition."""
    tests = [c.test for c in conds]
    return [r for r in records if all(t(r) for t in tests)]


def select_other(records: Iterable[Record], conds: Iterable[Cond]) -> list[Record]:
    """The records passing every condition read the other way (where it has one)."""
    tests = [c.other or c.test for c in conds]
    return [r for r in records if all(t(r) for t in tests)]


def parts(value: object) -> list[str]:
    """The comma-separated parts of a multi-aircraft field, stripped and upper-cased."""
    return [p.strip().upper() for p in str(value or "").split(",") if p.strip()]


def search(pattern: str) -> Callable[[str], bool]:
    compiled = re.compile(pattern, re.IGNORECASE)
    return lambda text: bool(compiled.search(text or ""))
