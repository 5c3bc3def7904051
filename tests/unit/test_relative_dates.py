"""Relative and partial dates filter, read against an injected today."""

from __future__ import annotations

from datetime import date

import pytest

from tools.dates import date_range, year_in_passing
from tools.filters import resolve

TODAY = date(2016, 7, 15)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("accidents since February 2015", (date(2015, 2, 1), None)),
        ("anything after October 2015?", (date(2015, 11, 1), None)),
        ("what happened last spring", (date(2016, 3, 1), date(2016, 5, 31))),
        ("fires last summer", (date(2015, 6, 1), date(2015, 8, 31))),  # this one has not ended
        ("in the past two years", (date(2014, 7, 15), TODAY)),
        ("over the last 6 months", (date(2016, 1, 15), TODAY)),
        ("before March", (None, date(2016, 2, 29))),
        ("since September", (date(2015, 9, 1), None)),  # September 2016 is still to come
        ("crashes in April 2013", (date(2013, 4, 1), date(2013, 4, 30))),
        ("engine failures in the summer of 2013", (date(2013, 6, 1), date(2013, 8, 31))),
        ("between March and June 2014", (date(2014, 3, 1), date(2014, 6, 30))),
        ("last year", (date(2015, 1, 1), date(2015, 12, 31))),
        ("this year", (date(2016, 1, 1), TODAY)),
        ("accidents in 2014", (date(2014, 1, 1), date(2014, 12, 31))),
        ("the crash at Highmore on April 27, 2014", (date(2014, 4, 1), date(2014, 4, 30))),
    ],
)
def test_a_relative_or_partial_date_is_a_range_from_today(
    text: str, expected: tuple[date | None, date | None]
) -> None:
    assert date_range(text, TODAY) == expected


def test_words_that_only_look_like_dates_filter_nothing() -> None:
    assert date_range("what happened on the last day of the trip?", TODAY) is None
    assert date_range("what did last year's report say about the pump?", TODAY) is None
    assert year_in_passing("engine failures in the summer of 2013", TODAY) is None


def test_the_filters_take_the_range_against_the_given_today() -> None:
    resolution = resolve("Which accidents happened since February 2015?", {}, [], today=TODAY)
    assert resolution.filters == {"date_from": "2015-02-01"}
    later = resolve("Which accidents happened last spring?", {}, [], today=date(2017, 1, 3))
    assert later.filters == {"date_from": "2016-03-01", "date_to": "2016-05-31"}


def test_what_is_left_without_the_days_names_the_subject() -> None:
    from tools.relative_dates import without_days

    text = without_days("Tell me about the accident at Staples, Texas on March 5, 2012.")
    assert "March" not in text and "2012" not in text and "Staples, Texas" in text
