"""Month names and years as questions write them, one table for every reader of dates
(relative dates in :mod:`tools.relative_dates`, count periods in :mod:`answers.count_filters`)."""

from __future__ import annotations

import calendar
import re
from datetime import date

#: Month names and abbreviations, lower case ("march", "mar", "sept"), to their numbers.
MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
MONTHS |= {name.lower(): n for n, name in enumerate(calendar.month_abbr) if name}
MONTHS["sept"] = 9
#: A month as written, one group, longest names first, an abbreviation's dot outside the group.
MONTH = r"(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
#: A year of the archives (1900-2099), one group.
YEAR = r"((?:19|20)\d{2})"
#: Years listed: "2012 and 2013", "2010, 2011 and 2012", "2013 or 2014".
YEAR_LIST = re.compile(rf"\b{YEAR}((?:\s*,\s*(?:19|20)\d\d)*,?\s+(?:and|or|&)\s+(?:19|20)\d\d)\b")


def listed_years(text: str) -> list[int]:
    """The years of the first list of years in ``text``, in order, each once; [] for none."""
    m = YEAR_LIST.search(text)
    if m is None:
        return []
    return sorted({int(m[1]), *map(int, re.findall(r"\d{4}", m[2]))})


def month_number(name: str) -> int:
    """The number of a month as :data:`MONTH` matched it ("Sept." → 9)."""
    return MONTHS[name.lower().rstrip(".")]


def month_end(year: int, month: int) -> date:
    """The last day of ``month`` in ``year``."""
    return date(year, month, calendar.monthrange(year, month)[1])
