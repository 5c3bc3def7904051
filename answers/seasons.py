"""The months of every year a question narrows its records to: a season ("in winter": December
to February), a span of months with no year ("december to february"), or months listed with no
year ("(Dec, Jan, Feb)"). A span or list with a year is a period (:func:`answers.count_filters.
period_in`), and "last winter" is a period too, not the season of every year."""

from __future__ import annotations

import calendar
import re

from text.dates import MONTH, YEAR, month_number

#: The seasons of the northern hemisphere, as months.
_SEASONS = (
    ("winter", r"winter", (12, 1, 2)),
    ("spring", r"spring(?:time)?", (3, 4, 5)),
    ("summer", r"summer(?:time)?", (6, 7, 8)),
    ("autumn", r"autumn|fall", (9, 10, 11)),
)
#: Two months joined as a span: "december to february" (with a year after it, a period:
#: "June to August 2013", :func:`answers.count_filters.period_in`).
MONTH_SPAN = rf"\b{MONTH}\s*(?:to|through|thru|until|till|-|\u2013)\s*{MONTH}"
_SPAN = re.compile(rf"{MONTH_SPAN}\b", re.IGNORECASE)
#: Months listed with commas: "(Dec, Jan, Feb)".
_LISTED = re.compile(
    rf"\b{MONTH}(?:\s*,\s*{MONTH})+(?:\s*,?\s*(?:and|or)\s*{MONTH})?\b",
    re.IGNORECASE,
)


def months_named(question: str) -> tuple[str, tuple[int, ...]] | None:
    """(the words that say so, the months) of a question's season or months of every year;
    None when it names none."""
    for name, said, months in _SEASONS:
        pattern = rf"\b(?:in|during|over)\s+(?:the\s+)?(?:{said})(?:\s+months)?\b"
        if re.search(pattern, question, re.IGNORECASE) or re.search(
            rf"\b(?<!last\s)(?<!this\s)(?<!next\s)(?<!past\s)(?:{said})\s+"
            r"(?:accidents?|crash(?:es)?|flights?|flying|months)\b",
            question,
            re.IGNORECASE,
        ):
            return f"in {name}", months
    if re.search(YEAR, question):
        return None  # months with a year are a period (answers.count_filters.period_in)
    if m := _SPAN.search(question):
        first, last = month_number(m[1]), month_number(m[2])
        spanned = tuple((first - 1 + i) % 12 + 1 for i in range((last - first) % 12 + 1))
        if first != last:
            return _words(spanned), spanned
    if m := _LISTED.search(question):
        listed = tuple(dict.fromkeys(month_number(w) for w in re.findall(MONTH, m[0], re.I)))
        if len(listed) > 1:  # "it may, or may not": one word twice, no months
            return _words(listed), listed
    return None


def _words(months: tuple[int, ...]) -> str:
    return "in " + ", ".join(calendar.month_name[m] for m in months)


__all__ = ["months_named"]
