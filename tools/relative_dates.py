"""Relative and partial dates in a question, read against today's date: "since February 2014",
"last spring", "in the past two years", "before March", "in April 2013", "last year".

Conventions (each a choice a user could make otherwise, written down so an answer can be
judged): seasons are the meteorological ones (spring March-May, summer June-August, autumn or
fall September-November, winter December-February); "last <season>" is the latest one that has
ended by today; a month without a year ("before March", "since June") is that month's latest
start on or before today; a day ("on April 27, 2014") is its month; "the past N
years/months/weeks/days" ends today and starts the same day N units earlier; "last year" and
"last month" are the previous calendar ones, "this year" runs from January 1 to today.
Ranges are inclusive; an open end is None.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta

from text.dates import MONTH, YEAR, month_end, month_number

Range = tuple[date | None, date | None]

_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
_SEASON = r"(spring|summer|autumn|fall|winter)"
_NUMBERS = {
    "a": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
}
_COUNT = r"(\d{1,2}|" + "|".join(_NUMBERS) + r")"

_BETWEEN_MONTHS = re.compile(
    rf"\b(?:between|from)\s+{MONTH}(?:\s+{YEAR})?\s+(?:and|to|until|through|-)\s+{MONTH}"
    rf"(?:\s+{YEAR})?\b",
    re.IGNORECASE,
)
_BOUND_MONTH = re.compile(
    rf"\b(since|after|from|before|until|till|through|prior\s+to)\s+(?:the\s+(?:start|beginning)"
    rf"\s+of\s+)?{MONTH}(?:\s+(?:of\s+)?{YEAR})?\b",
    re.IGNORECASE,
)
#: A day ("on April 27, 2014", "27 April 2014"): the month it falls in, so a day remembered
#: a little wrong still finds the event.
_DAY = re.compile(
    rf"\b{MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+{YEAR}\b|\b\d{{1,2}}\s+{MONTH}\s+{YEAR}\b",
    re.IGNORECASE,
)
_IN_MONTH = re.compile(rf"\b(?:in|during|of|for)\s+{MONTH}\s+(?:of\s+)?{YEAR}\b", re.IGNORECASE)
_SEASON_OF = re.compile(
    rf"\b(?:in\s+|during\s+)?(?:the\s+)?{_SEASON}\s+(?:of\s+)?{YEAR}\b", re.IGNORECASE
)
_LAST_SEASON = re.compile(rf"\b(?:last|past|previous)\s+{_SEASON}\b", re.IGNORECASE)
#: "in the past two years", "the last 6 months", "over the past year" (a bare "the last day"
#: names a day of a story, not a range: without a number it needs "in", "over", "during", "within").
_PAST = re.compile(
    rf"\b(in\s+|over\s+|during\s+|within\s+)?the\s+(?:past|last|previous)\s+(?:{_COUNT}\s+)?"
    r"(years?|months?|weeks?|days?)\b",
    re.IGNORECASE,
)
_CALENDAR = re.compile(r"\b(last|this|previous)\s+(year|month)\b", re.IGNORECASE)
#: "last year's report", "the year before": not a restriction on the set searched.
_NOT_A_RANGE = re.compile(r"\b(?:last|this)\s+(?:year|month)'s\b", re.IGNORECASE)


def relative_range(text: str, today: date) -> Range | None:
    """The date range ``text`` restricts to with a relative or partial date, or None."""
    if _NOT_A_RANGE.search(text):
        return None
    for read in (_between, _bounded, _in_month, _season_of, _last_season, _past, _calendar):
        found = read(text, today)
        if found is not None:
            return found
    return None


def _latest_start(month: int, today: date) -> int:
    """The year of ``month``'s latest start on or before ``today``."""
    return today.year if date(today.year, month, 1) <= today else today.year - 1


def _between(text: str, today: date) -> Range | None:
    m = _BETWEEN_MONTHS.search(text)
    if m is None:
        return None
    first, second = month_number(m[1]), month_number(m[3])
    end_year = int(m[4]) if m[4] else _latest_start(second, today)
    start_year = int(m[2]) if m[2] else (end_year if first <= second else end_year - 1)
    return date(start_year, first, 1), month_end(end_year, second)


def _bounded(text: str, today: date) -> Range | None:
    m = _BOUND_MONTH.search(text)
    if m is None:
        return None
    word, month = " ".join(m[1].lower().split()), month_number(m[2])
    year = int(m[3]) if m[3] else _latest_start(month, today)
    start = date(year, month, 1)
    if word in ("since", "from"):
        return start, None
    if word == "after":
        return month_end(year, month) + timedelta(days=1), None
    if word in ("until", "till", "through"):
        return None, month_end(year, month)
    return None, start - timedelta(days=1)  # before, prior to


def _in_month(text: str, today: date) -> Range | None:
    m = _IN_MONTH.search(text)
    if m is not None:
        year, month = int(m[2]), month_number(m[1])
        return date(year, month, 1), month_end(year, month)
    day = _DAY.search(text)
    if day is None:
        return None
    year, month = int(day[2] or day[4]), month_number(day[1] or day[3])
    return date(year, month, 1), month_end(year, month)


def _season(name: str, year: int) -> Range:
    """The season ``name`` that starts in ``year`` (winter: December of ``year`` to February)."""
    first = _SEASONS[name.lower()]
    last_month = first + 2
    if last_month > 12:
        return date(year, first, 1), month_end(year + 1, last_month - 12)
    return date(year, first, 1), month_end(year, last_month)


def _season_of(text: str, today: date) -> Range | None:
    m = _SEASON_OF.search(text)
    if m is None:
        return None
    name, year = m[1], int(m[2])
    return _season(name, year - 1 if name.lower() == "winter" else year)


def _last_season(text: str, today: date) -> Range | None:
    m = _LAST_SEASON.search(text)
    if m is None:
        return None
    for year in (today.year, today.year - 1, today.year - 2):
        start, end = _season(m[1], year)
        if end is not None and end < today:
            return start, end
    return None


def _back(today: date, months: int) -> date:
    index = today.year * 12 + today.month - 1 - months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(today.day, calendar.monthrange(year, month + 1)[1]))


def _past(text: str, today: date) -> Range | None:
    m = _PAST.search(text)
    if m is None or not (m[1] or m[2]):
        return None
    raw = (m[2] or "1").lower()
    n = _NUMBERS.get(raw) or int(raw)
    unit = m[3].lower().rstrip("s")
    if unit == "year":
        return _back(today, 12 * n), today
    if unit == "month":
        return _back(today, n), today
    return today - timedelta(days=n * (7 if unit == "week" else 1)), today


def _calendar(text: str, today: date) -> Range | None:
    m = _CALENDAR.search(text)
    if m is None:
        return None
    which, unit = m[1].lower(), m[2].lower()
    if unit == "year":
        if which == "this":
            return date(today.year, 1, 1), today
        return date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)
    if which == "this":
        return date(today.year, today.month, 1), today
    start = _back(today.replace(day=1), 1)
    return start, month_end(start.year, start.month)


def without_days(text: str) -> str:
    """``text`` without the days and months it names ("on April 27, 2014", "in March 2014"):
    what is left names the subject (the dates filter)."""
    return _IN_MONTH.sub(" ", _DAY.sub(" ", text))
