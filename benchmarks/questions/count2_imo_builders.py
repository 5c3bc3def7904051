"""Count question set 2's IMO question builders (see ``count2_builders.py`` for the NTSB ones
and ``make_count_questions2.py`` for the definitions)."""

from __future__ import annotations

import calendar
import random

import count2_fields as f
from count2_builders import Builder, Labelled
from count2_fields import Test
from count2_slots import (
    DECADES,
    EVENTS,
    FLAGS,
    TYPES,
    consequence,
    dead,
    flagged,
    flagged_ship,
    months,
    several_ships,
    severity,
    tonnage_at_least,
    years,
)


def _span(rng: random.Random, lo: int = 1991, hi: int = 2019) -> tuple[int, int]:
    first = rng.randint(lo, hi - 2)
    return first, min(hi, first + rng.randint(2, 6))


def _type(rng: random.Random, families: list[str] | None = None) -> tuple[str, str, str]:
    family = rng.choice(families or list(TYPES))
    plurals, singular = TYPES[family]
    return family, rng.choice(plurals), singular


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _t(family: str) -> tuple[str, Test]:
    return (f"type {family}", f.ship_type(family))


def i_type_decade(rng: random.Random) -> tuple[str, Labelled]:
    family, plural, singular = _type(rng)
    decade, (a, b) = rng.choice(list(DECADES.items()))
    text = rng.choice(
        (
            f"How many {singular} casualties were reported in {decade}?",
            f"In {decade}, how many casualties of {plural} were reported?",
        )
    )
    return text, [_t(family), (f"{a}-{b}", years(a, b))]


def i_flag_type_since(rng: random.Random) -> tuple[str, Labelled]:
    family, plural, _ = _type(rng, ["bulk", "tanker", "general cargo", "container", "fishing"])
    name, adj, code = rng.choice(FLAGS[:20])
    y = rng.randint(2000, 2014)
    text = rng.choice(
        (
            f"Since {y}, how many casualties involved {adj}-flagged {plural}?",
            f"How many casualties of {plural} registered in {name} happened in {y} or later?",
        )
    )
    return text, [
        _t(family),
        (f"ship flag {code}", flagged_ship(code)),
        (f">= {y}", years(y, 2020)),
    ]


def i_type_lost(rng: random.Random) -> tuple[str, Labelled]:
    family, _, singular = _type(rng)
    a, b = _span(rng)
    text = rng.choice(
        (
            f"How many casualties between {a} and {b} ended in the total loss of {_a(singular)}?",
            f"From {a} to {b}, how many {singular} casualties were total losses?",
        )
    )
    return text, [_t(family), ("total loss", consequence("total loss")), (f"{a}-{b}", years(a, b))]


def i_type_life(rng: random.Random) -> tuple[str, Labelled]:
    family, plural, singular = _type(rng)
    a, b = _span(rng)
    text = rng.choice(
        (
            f"How many {singular} casualties from {a} to {b} involved loss of life?",
            f"Between {a} and {b}, how many casualties of {plural} cost lives?",
        )
    )
    return text, [_t(family), ("loss of life", f.loss_of_life), (f"{a}-{b}", years(a, b))]


def i_flag_event(rng: random.Random) -> tuple[str, Labelled]:
    name, adj, code = rng.choice(FLAGS)
    event = rng.choice(list(EVENTS))
    text = rng.choice(
        (
            f"How many casualties of ships registered in {name} began with {EVENTS[event]}?",
            f"How many {adj}-flagged ship casualties started with {EVENTS[event]}?",
        )
    )
    return text, [(f"event {event}", f.initial_event(event)), (f"flag {code}", flagged(code))]


def i_event_year(rng: random.Random) -> tuple[str, Labelled]:
    event, y = rng.choice(list(EVENTS)), rng.randint(1995, 2019)
    text = rng.choice(
        (
            f"In {y}, how many casualties started with {EVENTS[event]}?",
            f"How many {y} casualties had {EVENTS[event]} as the initial event?",
        )
    )
    return text, [(f"event {event}", f.initial_event(event)), (f"{y}", years(y, y))]


def i_type_event(rng: random.Random) -> tuple[str, Labelled]:
    family, plural, singular = _type(rng)
    event = rng.choice(list(EVENTS))
    text = rng.choice(
        (
            f"How many {singular} casualties began with {EVENTS[event]}?",
            f"For {plural}, how many casualties had {EVENTS[event]} as the first event?",
        )
    )
    return text, [_t(family), (f"event {event}", f.initial_event(event))]


def i_class(rng: random.Random) -> tuple[str, Labelled]:
    society = rng.choice(list(f.SOCIETIES))
    label = (f"class {society}", f.classed_by(society))
    if rng.random() < 0.5:
        a, b = _span(rng, 2000, 2019)
        text = f"How many casualties of ships classed by {society} happened between {a} and {b}?"
        return text, [label, (f"{a}-{b}", years(a, b))]
    family, plural, _ = _type(rng, ["bulk", "tanker", "general cargo", "container", "passenger"])
    return f"How many casualties of {plural} classed with {society} are recorded?", [
        label,
        _t(family),
    ]


def i_several(rng: random.Random) -> tuple[str, Labelled]:
    y = rng.randint(1995, 2019)
    text = rng.choice(
        (
            f"How many casualties in {y} involved two or more ships?",
            f"In {y}, how many marine casualties involved more than one vessel?",
        )
    )
    return text, [("ships >= 2", several_ships), (f"{y}", years(y, y))]


def i_pollution(rng: random.Random) -> tuple[str, Labelled]:
    a, b = _span(rng)
    if rng.random() < 0.5:
        return f"How many casualties between {a} and {b} caused pollution?", [
            ("pollution", consequence("pollution")),
            (f"{a}-{b}", years(a, b)),
        ]
    family, plural, _ = _type(rng, ["tanker", "bulk", "general cargo", "chemical"])
    return f"How many casualties of {plural} resulted in pollution?", [
        ("pollution", consequence("pollution")),
        _t(family),
    ]


def i_severity(rng: random.Random) -> tuple[str, Labelled]:
    y = rng.randint(1995, 2019)
    value, phrase = rng.choice(
        (("Less serious", "less serious"), ("Serious", "serious (but not very serious)"))
    )
    text = f"How many casualties in {y} were classified as {phrase}?"
    return text, [(f"severity {value}", severity(value)), (f"{y}", years(y, y))]


def i_tonnage(rng: random.Random) -> tuple[str, Labelled]:
    gt = rng.choice((10_000, 50_000, 100_000))
    decade, (a, b) = rng.choice(list(DECADES.items()))
    text = rng.choice(
        (
            f"How many casualties in {decade} were of ships of at least {gt:,} gross tonnage?",
            f"In {decade}, how many casualties were of ships of {gt:,} GT or more?",
        )
    )
    return text, [(f"GT >= {gt}", tonnage_at_least(gt)), (f"{a}-{b}", years(a, b))]


def i_people(rng: random.Random) -> tuple[str, Labelled]:
    a, b = _span(rng)
    who, field = rng.choice(
        (("passengers", "DeadMissingPassengers2"), ("crew members", "DeadMissingCrew2"))
    )
    text = rng.choice(
        (
            f"In how many casualties between {a} and {b} did {who} die or go missing?",
            f"How many casualties from {a} to {b} left {who} dead or missing?",
        )
    )
    return text, [(f"{field} > 0", dead(field)), (f"{a}-{b}", years(a, b))]


def i_flag_lost(rng: random.Random) -> tuple[str, Labelled]:
    name, adj, code = rng.choice(FLAGS)
    text = rng.choice(
        (
            f"How many casualties of {adj}-flagged ships ended in a total loss?",
            f"How many ships flying the flag of {name} were total losses?",
        )
    )
    return text, [
        ("total loss", consequence("total loss")),
        (f"ship flag {code}", flagged_ship(code)),
    ]


def i_flag_very(rng: random.Random) -> tuple[str, Labelled]:
    name, _, code = rng.choice(FLAGS)
    a, b = _span(rng)
    text = f"How many very serious casualties involved ships registered in {name} from {a} to {b}?"
    return text, [
        ("very serious", severity("Very serious")),
        (f"flag {code}", flagged(code)),
        (
            f"{a}-{b}",
            years(a, b),
        ),
    ]


def i_type_half(rng: random.Random) -> tuple[str, Labelled]:
    family, plural, singular = _type(rng, ["bulk", "tanker", "general cargo", "fishing"])
    y, half = rng.randint(1995, 2019), rng.choice(("first", "second"))
    first, last = (1, 6) if half == "first" else (7, 12)
    text = f"How many {singular} casualties happened in the {half} half of {y}?"
    return text, [_t(family), (f"{y} {half} half", months(y, first, last))]


def i_month(rng: random.Random) -> tuple[str, Labelled]:
    y, m = rng.randint(1995, 2019), rng.randint(1, 12)
    text = rng.choice(
        (
            f"How many marine casualties were recorded in {calendar.month_name[m]} {y}?",
            f"What is the number of ship casualties in {calendar.month_name[m]} {y}?",
        )
    )
    return text, [(f"{y}-{m:02d}", months(y, m, m))]


def i_flag_type_life(rng: random.Random) -> tuple[str, Labelled]:
    family, plural, _ = _type(rng, ["fishing", "general cargo", "bulk", "passenger", "tanker"])
    name, adj, code = rng.choice(FLAGS)
    text = f"How many casualties of {adj}-flagged {plural} led to deaths or missing people?"
    return text, [
        _t(family),
        ("loss of life", f.loss_of_life),
        (
            f"ship flag {code}",
            flagged_ship(code),
        ),
    ]


def i_class_very(rng: random.Random) -> tuple[str, Labelled]:
    society = rng.choice(list(f.SOCIETIES))
    text = f"How many casualties of ships classed by {society} were very serious?"
    return text, [
        ("very serious", severity("Very serious")),
        (
            f"class {society}",
            f.classed_by(society),
        ),
    ]


def i_two_flags(rng: random.Random) -> tuple[str, Labelled]:
    (n1, _, c1), (n2, _, c2) = rng.sample(FLAGS[:20], 2)
    decade, (a, b) = rng.choice(list(DECADES.items()))
    text = f"How many casualties in {decade} involved ships flagged in {n1} or {n2}?"
    return text, [
        (f"flag {c1} or {c2}", lambda r: c1 in r["flags"] or c2 in r["flags"]),
        (
            f"{a}-{b}",
            years(a, b),
        ),
    ]


# fmt: off
IMO: list[Builder] = [
    i_type_decade, i_flag_type_since, i_type_lost, i_type_life, i_flag_event, i_event_year,
    i_type_event, i_class, i_several, i_pollution, i_severity, i_tonnage, i_people, i_flag_lost,
    i_flag_very, i_type_half, i_month, i_flag_type_life, i_class_very, i_two_flags,
]
# fmt: on
