"""Dates in a question: the range a question restricts to, or a year it only mentions in passing
(which ranks rather than filters)."""

from __future__ import annotations

import re
from datetime import date

from text.dates import listed_years
from tools.relative_dates import relative_range

_YEAR = r"((?:19|20)\d{2})"

_BETWEEN = re.compile(
    rf"\b(?:between|from)\s+{_YEAR}\s+(?:and|to|-|until|through)\s+{_YEAR}\b", re.IGNORECASE
)

_RANGE = re.compile(rf"\b{_YEAR}\s*(?:-|–|to)\s*{_YEAR}\b")

_SINCE = re.compile(rf"\b(?:since|after|from)\s+{_YEAR}\b", re.IGNORECASE)

_BEFORE = re.compile(rf"\b(?:before|until|prior\s+to)\s+{_YEAR}\b", re.IGNORECASE)

_IN = re.compile(rf"\b(?:in|during|of|for)\s+(?:the\s+year\s+)?{_YEAR}\b", re.IGNORECASE)

#: Words asking for a restriction: "list", "which", "only", "how many", "all ... in 2019".
_RESTRICTING = re.compile(
    r"\b(?:list|show|which|only|filter\w*|restrict\w*|limit\w*|how\s+many|count|all|any|every)\b",
    re.IGNORECASE,
)

_PLURAL = re.compile(r"^[a-z][a-z-]{2,}(?<!ss)(?<!us)(?<!is)s$")


def year_in_passing(text: str, today: date | None = None) -> int | None:
    """The year of "in 2019" when the message only mentions it ("Airbus A380 crash in Mumbai in
    2019": ranks, not filters); None when it restricts to it ("accidents in 2019", "which
    vessels ... in 2019", "since 2020", "between 2015 and 2017", "in the summer of 2019") or
    names no year."""
    if relative_range(text, today or date.today()) is not None:
        return None
    if _BETWEEN.search(text) or _RANGE.search(text) or _SINCE.search(text) or _BEFORE.search(text):
        return None
    if listed_years(text):
        return None  # "in 2012 and 2013": the years listed restrict
    match = _IN.search(text)
    if match is None or _RESTRICTING.search(text):
        return None
    before = re.findall(r"[A-Za-z][\w-]*", text[: match.start()])[-4:]
    if any(_PLURAL.match(word) for word in before):
        return None  # a collection in that year: "fires in 2019", "engine incidents in 2019"
    rest = re.findall(r"[a-z]{3,}", (text[: match.start()] + text[match.end() :]).lower())
    if len([w for w in rest if w not in _FILLER_QUESTION]) <= 1:
        return None  # "what happened in 2019?": the year is all there is to search by
    return int(match.group(1))


_FILLER_QUESTION = frozenset("what which who how when where was were did does happened the".split())  # noqa: SIM905


def date_range(text: str, today: date | None = None) -> tuple[date | None, date | None] | None:
    """The dates a message restricts to: a relative or partial date read against ``today``
    (default: the clock's; :mod:`tools.relative_dates`: "since February 2025", "last spring"),
    else years ("in 2019", "between 2015 and 2018", "in 2012 and 2013": the span from the first
    listed to the last, "since 2020")."""
    if (found := relative_range(text, today or date.today())) is not None:
        return found
    if m := _BETWEEN.search(text) or _RANGE.search(text):
        lo, hi = sorted((int(m.group(1)), int(m.group(2))))
        return date(lo, 1, 1), date(hi, 12, 31)
    if years := listed_years(text):  # "in 2012 and 2013": from the first to the last listed
        return date(years[0], 1, 1), date(years[-1], 12, 31)
    since, before = _SINCE.search(text), _BEFORE.search(text)
    if since or before:
        start = date(int(since.group(1)), 1, 1) if since else None
        if since and since.group(0).lower().startswith("after"):
            start = date(int(since.group(1)) + 1, 1, 1)
        end = date(int(before.group(1)) - 1, 12, 31) if before else None
        return start, end
    if m := _IN.search(text):
        year = int(m.group(1))
        return date(year, 1, 1), date(year, 12, 31)
    return None
