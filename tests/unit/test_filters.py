"""Structural filters from the user's words, inherited and cleared across turns."""

from __future__ import annotations

from datetime import date

import pytest

from archive.store.vessels import RegisteredVessel
from tools.filters import (
    Filters,
    date_range,
    describe,
    only_clears,
    resolve,
    to_search_filters,
    year_in_passing,
)

REGISTRY = [
    RegisteredVessel("9234567", "NORDIC STAR", "9234567", "Bulk Carrier", "DNV"),
    RegisteredVessel("9345678", "BALTIC TRADER", "9345678", "Oil Tanker", "ABS"),
    RegisteredVessel("name:STAR", "STAR", None, None, None),
]
NORDIC = {"key": "9234567", "name": "NORDIC STAR", "imo": "9234567"}


def test_vessel_names_are_found_exactly_and_with_typos() -> None:
    for text in (
        "How was the crack on Nordic Star resolved?",
        "nordic star engine",
        "What happened on Nordc Star?",
        "MV NORDIC STAR",
    ):
        assert resolve(text, {}, REGISTRY).filters == {"vessels": [NORDIC]}, text


def test_short_names_need_a_capital_and_longer_names_win() -> None:
    assert resolve("star performers of the fleet", {}, REGISTRY).filters == {}
    both = resolve("Nordic Star and Star", {}, REGISTRY).filters
    assert [v["name"] for v in both["vessels"]] == ["NORDIC STAR", "STAR"]


def test_a_month_is_no_misspelt_vessel_name() -> None:
    augusta = [*REGISTRY, RegisteredVessel("8004105", "AUGUSTA", "8004105", None, None)]
    found = resolve("Tell me about the casualty of the Nordic Star in August 2001.", {}, augusta)
    assert [v["name"] for v in found.filters["vessels"]] == ["NORDIC STAR"]
    assert resolve("What happened to the Augusta?", {}, augusta).filters["vessels"][0]["name"] == (
        "AUGUSTA"
    )


def test_imo_numbers() -> None:
    assert resolve("fires on IMO 9345678", {}, REGISTRY).filters["vessels"][0]["name"] == (
        "BALTIC TRADER"
    )
    assert resolve("what about 9234567?", {}, REGISTRY).filters == {"vessels": [NORDIC]}
    assert resolve("order 1234567 was delayed", {}, REGISTRY).filters == {}  # not an IMO we know


def test_unknown_vessels_are_reported_and_nothing_changes() -> None:
    current: Filters = {"report_no": "ERA22LA175"}
    for text in ("What happened to MV Ocean Pryde?", "status of IMO 1111111"):
        result = resolve(text, current, REGISTRY)
        assert result.problem and "is in the archive" in result.problem
        assert result.filters == current
    result = resolve("anything", {}, REGISTRY, {"vessel": "Nordic Sun"})
    assert result.problem and "NORDIC STAR" in result.problem  # a suggestion


def test_types_and_classes_by_family_and_society() -> None:
    result = resolve("cargo damage on oil tankers classed by DNV GL", {}, REGISTRY)
    assert result.filters == {"vessel_families": ["tanker"], "class_society": "DNV"}
    assert resolve("the abstract of the report", {}, REGISTRY).filters == {}


@pytest.mark.parametrize(
    "text",
    [
        "Groundings of bulk carriers",
        "GROUNDINGS OF BULK CARRIERS",
        "grounded Bulk-Carrier",
        "bulkers",
    ],
)
def test_vessel_families_are_the_same_on_every_spelling(text: str) -> None:
    for _ in range(3):  # deterministic: no set order decides
        assert resolve(text, {}, REGISTRY).filters == {"vessel_families": ["bulk carrier"]}


def test_families_and_societies_missing_from_the_registry_stay_words() -> None:
    assert resolve("container ships classed by Lloyd's Register", {}, REGISTRY).filters == {}
    lloyds = [
        *REGISTRY,
        RegisteredVessel("9999999", "EVER X", "9999999", "CONTAINER SHIP", "Lloyd's Register (LR)"),
    ]
    assert resolve("container ships classed by Lloyd's Register", {}, lloyds).filters == {
        "vessel_families": ["container ship"],
        "class_society": "Lloyd's Register",
    }


def test_registrations_filter() -> None:
    first = resolve("what happened to N3424Y?", {}, REGISTRY).filters
    assert first == {"registration": "N3424Y"}
    assert resolve("and the weather?", first, REGISTRY).filters == first
    assert resolve("same for any aircraft", first, REGISTRY).filters == {}
    assert resolve("N1 dropped to 80 percent", {}, REGISTRY).filters == {}


def test_report_numbers_start_single_report_mode() -> None:
    assert resolve("what mistakes did the pilot make in CEN22LA359", {}, REGISTRY).filters == {
        "report_no": "CEN22LA359"
    }
    assert resolve("summary please", {}, REGISTRY, {"report": "era22la175"}).filters == {
        "report_no": "ERA22LA175"
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fires in 2019", (date(2019, 1, 1), date(2019, 12, 31))),
        ("between 2015 and 2018", (date(2015, 1, 1), date(2018, 12, 31))),
        ("from 2018 to 2015", (date(2015, 1, 1), date(2018, 12, 31))),
        ("2016-2017 groundings", (date(2016, 1, 1), date(2017, 12, 31))),
        ("since 2020", (date(2020, 1, 1), None)),
        ("after 2020", (date(2021, 1, 1), None)),
        ("before 2010", (None, date(2009, 12, 31))),
        ("engine failures", None),
    ],
)
def test_date_ranges(text: str, expected: tuple[date | None, date | None] | None) -> None:
    assert date_range(text) == expected


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("Airbus A380 crash in Mumbai in 2019", 2019),
        ("cylinder crack on Nordic Star in 2019", 2019),
        ("accidents in 2019", None),  # a collection in that year: a filter
        ("engine fires in 2019", None),
        ("which vessels grounded in 2019?", None),  # asks for a restriction
        ("what happened in 2019?", None),  # the year is all there is to search by
        ("since 2020", None),
        ("between 2015 and 2017", None),
        ("engine failures", None),
    ],
)
def test_years_in_passing_rank_and_restrictions_filter(text: str, year: int | None) -> None:
    assert year_in_passing(text) == year
    resolution = resolve(text, {}, REGISTRY)
    assert resolution.ranked_year == year
    if year is not None:
        assert "date_from" not in resolution.filters
        assert f"year {year}: mentioned in passing, ranks (not a filter)" in resolution.notes


def test_follow_ups_inherit_change_and_clear() -> None:
    first = resolve("cylinder cracks on Nordic Star in 2019", {}, REGISTRY).filters
    assert first == {"vessels": [NORDIC], "date_from": "2019-01-01", "date_to": "2019-12-31"}
    assert resolve("and how was it repaired?", first, REGISTRY).filters == first
    changed = resolve("what about Baltic Trader?", first, REGISTRY).filters
    assert changed["vessels"][0]["name"] == "BALTIC TRADER"
    assert changed["date_from"] == "2019-01-01"
    assert resolve("same question for any vessel", first, REGISTRY).filters == {
        "date_from": "2019-01-01",
        "date_to": "2019-12-31",
    }
    assert resolve("any date is fine", first, REGISTRY).filters == {"vessels": [NORDIC]}
    assert resolve("all reports please", {"report_no": "X"}, REGISTRY).filters == {}
    cleared = resolve("clear filters", first, REGISTRY)
    assert cleared.filters == {}
    assert cleared.notes == ["cleared all filters"]


def test_messages_that_only_clear_filters() -> None:
    for text in ("clear filters", "Clear all filters please", "any vessel", "all reports"):
        assert only_clears(text), text
    for text in ("clear filters, any leaks in the engine room?", "any vessel with fires?", "hi"):
        assert not only_clears(text), text


def test_describe() -> None:
    assert describe({}) == "none (the whole archive)"
    text = describe({"vessels": [NORDIC], "report_no": "CEN22LA359", "date_from": "2020-01-01"})
    assert text == "vessel NORDIC STAR (IMO 9234567); report CEN22LA359; dates from 2020-01-01"


async def test_vessel_filters_become_document_ids() -> None:
    async def documents(keys: list[str]) -> list[str]:
        assert keys == ["9234567"]
        return ["da0000000001"]

    search = await to_search_filters(
        {
            "vessels": [NORDIC],
            "date_to": "2019-12-31",
            "vessel_families": ["bulk carrier"],
            "class_society": "DNV",
            "registration": "N3424Y",
        },
        documents,
    )
    assert search.doc_ids == ("da0000000001",)
    assert search.date_to == date(2019, 12, 31)
    assert search.vessel_families == ("bulk carrier",)
    assert (search.class_society, search.registration) == ("DNV", "N3424Y")
    assert (await to_search_filters({}, documents)).is_empty()
