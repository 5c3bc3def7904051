"""Count question set 2's question builders: each draws its slots and a phrasing with ``rng``
and returns the question (NTSB ones with ``{acc}`` for the noun) and its labelled tests.

The tests are ``count2_fields.py``'s; the definitions are in ``make_count_questions2.py``.
"""

from __future__ import annotations

import calendar
import random
from collections.abc import Callable

import count2_fields as f
import count2_slots as slots
from count2_fields import Test

Labelled = list[tuple[str, Test]]
Builder = Callable[[random.Random], tuple[str, Labelled]]


def _years(rng: random.Random, lo: int, hi: int, span: tuple[int, int]) -> tuple[int, int]:
    first = rng.randint(lo, hi - span[0])
    return first, min(hi, first + rng.randint(*span))


def n_region(rng: random.Random) -> tuple[str, Labelled]:
    name, states = rng.choice(list(slots.REGIONS.items()))
    a, b = _years(rng, 2010, 2014, (1, 3))
    text = rng.choice(
        (
            f"How many {{acc}} were there in {name} between {a} and {b}?",
            f"From {a} through {b}, how many {{acc}} happened in {name}?",
        )
    )
    return text, [
        (f"state in {', '.join(states)}", slots.in_states(*states)),
        (f"{a}-{b}", slots.ntsb_year(a, b)),
    ]


def n_make_fatal_since(rng: random.Random) -> tuple[str, Labelled]:
    make, y = rng.choice(list(f.MAKES)), rng.randint(2011, 2014)
    text = rng.choice(
        (
            f"Since {y}, how many {make} {{acc}} involved at least one fatality?",
            f"How many fatal accidents involving {make} aircraft have there been since {y}?",
        )
    )
    return text, [
        (f"make {make}", f.of_make(make)),
        ("fatal", slots.injuries("fatal")),
        (
            f">= {y}",
            slots.ntsb_year(y, 2016),
        ),
    ]


def n_heli_half(rng: random.Random) -> tuple[str, Labelled]:
    y, half = rng.choice(slots.NTSB_YEARS), rng.choice(("first", "second"))
    months = (1, 6) if half == "first" else (7, 12)
    text = rng.choice(
        (
            f"How many helicopter {{acc}} were recorded in the {half} half of {y}?",
            f"In the {half} half of {y}, how many {{acc}} involved a helicopter?",
        )
    )
    return text, [
        ("HELI", f.of_category("HELI")),
        (f"{y} {half} half", slots.ntsb_months(y, *months)),
    ]


def n_model_state(rng: random.Random) -> tuple[str, Labelled]:
    model, state = rng.choice(list(f.MODELS)), rng.choice(slots.STATES[:16])
    text = rng.choice(
        (
            f"How many {model} {{acc}} occurred in {state}?",
            f"In {state}, how many {{acc}} involved a {model}?",
        )
    )
    return text, [(f"model {model}", f.of_model(model)), (f"state {state}", slots.in_states(state))]


def n_model_years(rng: random.Random) -> tuple[str, Labelled]:
    model = rng.choice(list(f.MODELS))
    a, b = _years(rng, 2010, 2015, (1, 3))
    text = rng.choice(
        (
            f"What's the number of {model} {{acc}} from {a} to {b}?",
            f"How many {{acc}} involving a {model} happened between {a} and {b}?",
        )
    )
    return text, [(f"model {model}", f.of_model(model)), (f"{a}-{b}", slots.ntsb_year(a, b))]


def n_category(rng: random.Random) -> tuple[str, Labelled]:
    kind = rng.choice(list(slots.CATEGORIES))
    a, b = _years(rng, 2010, 2015, (1, 5))
    text = rng.choice(
        (
            f"How many {{acc}} involved a {kind} between {a} and {b}?",
            f"How many {kind} {{acc}} are on record from {a} to {b}?",
        )
    )
    code = slots.CATEGORIES[kind]
    return text, [(code, f.of_category(code)), (f"{a}-{b}", slots.ntsb_year(a, b))]


def n_no_injuries(rng: random.Random) -> tuple[str, Labelled]:
    state, y = rng.choice(slots.STATES[:20]), rng.choice(slots.NTSB_YEARS)
    text = rng.choice(
        (
            f"How many airplane {{acc}} in {state} in {y} ended with no one hurt?",
            f"In {y}, how many {{acc}} involving airplanes in {state} caused no injuries at all?",
        )
    )
    return text, [
        ("AIR", f.of_category("AIR")),
        (f"state {state}", slots.in_states(state)),
        (
            f"{y}",
            slots.ntsb_year(y, y),
        ),
        ("no injuries", slots.injuries("none")),
    ]


def n_imc_state(rng: random.Random) -> tuple[str, Labelled]:
    state = rng.choice(slots.STATES[:20])
    a, b = _years(rng, 2010, 2014, (2, 4))
    text = rng.choice(
        (
            f"How many {{acc}} in instrument meteorological conditions were there in {state}"
            f" from {a} to {b}?",
            f"In {state}, how many {{acc}} happened in IMC between {a} and {b}?",
        )
    )
    return text, [
        ("IMC", slots.weather("IMC")),
        (f"state {state}", slots.in_states(state)),
        (
            f"{a}-{b}",
            slots.ntsb_year(a, b),
        ),
    ]


def n_destroyed(rng: random.Random) -> tuple[str, Labelled]:
    if rng.random() < 0.5:
        y = rng.choice(slots.NTSB_YEARS)
        text = f"How many {{acc}} in {y} left an aircraft destroyed?"
        return text, [("destroyed", slots.destroyed), (f"{y}", slots.ntsb_year(y, y))]
    state = rng.choice(slots.STATES[:12])
    text = f"How many {{acc}} in {state} resulted in a destroyed aircraft?"
    return text, [("destroyed", slots.destroyed), (f"state {state}", slots.in_states(state))]


def n_aerial(rng: random.Random) -> tuple[str, Labelled]:
    if rng.random() < 0.5:
        state = rng.choice(slots.STATES[:30])
        text = f"How many crop-dusting (aerial application) {{acc}} happened in {state}?"
        return text, [
            ("aerial application", slots.aerial_application),
            (f"state {state}", slots.in_states(state)),
        ]
    y = rng.choice(slots.NTSB_YEARS)
    text = f"How many aerial application {{acc}} were there in {y}?"
    return text, [("aerial application", slots.aerial_application), (f"{y}", slots.ntsb_year(y, y))]


def n_instructional(rng: random.Random) -> tuple[str, Labelled]:
    label = ("instructional purpose INST", f.has_part("purpose", "INST"))
    if rng.random() < 0.5:
        y = rng.choice(slots.NTSB_YEARS)
        return f"How many {{acc}} on instructional flights happened in {y}?", [
            label,
            (f"{y}", slots.ntsb_year(y, y)),
        ]
    state = rng.choice(slots.STATES[:16])
    return f"How many training-flight {{acc}} were there in {state}?", [
        label,
        (f"state {state}", slots.in_states(state)),
    ]


def n_part(rng: random.Random) -> tuple[str, Labelled]:
    a, b = _years(rng, 2010, 2015, (1, 4))
    if rng.random() < 0.5:
        text = f"How many Part 121 (airline) {{acc}} happened between {a} and {b}?"
        return text, [
            ("far_part 121", f.has_part("far_part", "121")),
            (f"{a}-{b}", slots.ntsb_year(a, b)),
        ]
    text = rng.choice(
        (
            f"How many fatal Part 135 (commuter and on-demand) accidents were there from {a}"
            f" to {b}?",
            f"Between {a} and {b}, how many charter or commuter (Part 135) {{acc}} were fatal?",
        )
    )
    return text, [
        ("far_part 135", f.has_part("far_part", "135")),
        ("fatal", slots.injuries("fatal")),
        (
            f"{a}-{b}",
            slots.ntsb_year(a, b),
        ),
    ]


def n_month(rng: random.Random) -> tuple[str, Labelled]:
    y, m = rng.choice(slots.NTSB_YEARS), rng.randint(1, 12)
    month = calendar.month_name[m]
    if rng.random() < 0.5:
        text = rng.choice(
            (
                f"How many {{acc}} happened in {month} {y}?",
                f"What was the number of {{acc}} in {month} {y}?",
            )
        )
        return text, [(f"{y}-{m:02d}", slots.ntsb_months(y, m, m))]
    last = min(12, m + 2)
    text = f"How many {{acc}} occurred between {month} and {calendar.month_name[last]} {y}?"
    return text, [(f"{y}-{m:02d}..{last:02d}", slots.ntsb_months(y, m, last))]


def n_quarter_serious(rng: random.Random) -> tuple[str, Labelled]:
    y, q = rng.choice(slots.NTSB_YEARS), rng.randint(1, 4)
    nth = slots.ORDINAL[q - 1]
    text = rng.choice(
        (
            f"How many {{acc}} in the {nth} quarter of {y} involved serious injuries?",
            f"In Q{q} {y}, how many {{acc}} left someone seriously injured?",
        )
    )
    return text, [
        ("serious", slots.injuries("serious")),
        (f"{y} Q{q}", slots.ntsb_months(y, 3 * q - 2, 3 * q)),
    ]


def n_deadly(rng: random.Random) -> tuple[str, Labelled]:
    k = rng.choice((2, 3, 4))
    a, b = _years(rng, 2010, 2015, (1, 5))
    text = rng.choice(
        (
            f"How many {{acc}} killed {k} or more people between {a} and {b}?",
            f"In how many accidents from {a} to {b} did at least {k} people die?",
        )
    )
    return text, [
        (f"fatal >= {k}", slots.injuries("fatal", k)),
        (f"{a}-{b}", slots.ntsb_year(a, b)),
    ]


def n_several(rng: random.Random) -> tuple[str, Labelled]:
    a, b = _years(rng, 2010, 2015, (0, 3))
    when = f"in {a}" if a == b else f"between {a} and {b}"
    text = rng.choice(
        (
            f"How many {{acc}} {when} involved two or more aircraft?",
            f"How many {{acc}} with more than one aircraft involved happened {when}?",
        )
    )
    return text, [("several aircraft", slots.several_aircraft), (f"{a}-{b}", slots.ntsb_year(a, b))]


def n_weekend(rng: random.Random) -> tuple[str, Labelled]:
    state, y = rng.choice(slots.STATES[:12]), rng.choice(slots.NTSB_YEARS)
    text = rng.choice(
        (
            f"How many {{acc}} in {state} happened on a weekend in {y}?",
            f"In {y}, how many weekend {{acc}} (Saturday or Sunday) were there in {state}?",
        )
    )
    return text, [
        ("weekend", slots.weekend),
        (f"state {state}", slots.in_states(state)),
        (
            f"{y}",
            slots.ntsb_year(y, y),
        ),
    ]


def n_heli_make(rng: random.Random) -> tuple[str, Labelled]:
    make = rng.choice(("Robinson", "Bell", "Enstrom"))
    a, b = _years(rng, 2010, 2015, (1, 4))
    text = f"How many {make} helicopter {{acc}} were there between {a} and {b}?"
    return text, [
        (f"make {make}", f.of_make(make)),
        ("HELI", f.of_category("HELI")),
        (
            f"{a}-{b}",
            slots.ntsb_year(a, b),
        ),
    ]


def n_minor_only(rng: random.Random) -> tuple[str, Labelled]:
    state = rng.choice(slots.STATES[:30])
    text = rng.choice(
        (
            f"In how many {state} {{acc}} was the worst injury a minor one?",
            f"How many {{acc}} in {state} had only minor injuries (nobody killed or seriously"
            " hurt)?",
        )
    )
    return text, [
        ("minor only", slots.injuries("minor only")),
        (f"state {state}", slots.in_states(state)),
    ]


def n_two_states(rng: random.Random) -> tuple[str, Labelled]:
    s1, s2 = rng.sample(slots.STATES[:30], 2)
    y = rng.choice(slots.NTSB_YEARS)
    text = f"How many {{acc}} happened in {s1} or {s2} in {y}?"
    return text, [
        (f"state in {s1}, {s2}", slots.in_states(s1, s2)),
        (f"{y}", slots.ntsb_year(y, y)),
    ]


def n_personal_fatal(rng: random.Random) -> tuple[str, Labelled]:
    y = rng.choice(slots.NTSB_YEARS)
    text = rng.choice(
        (
            f"How many fatal {{acc}} on personal flights happened in {y}?",
            f"In {y}, how many personal (private, non-commercial) flights ended in a fatal"
            " accident?",
        )
    )
    return text, [
        ("purpose PERS", f.has_part("purpose", "PERS")),
        ("fatal", slots.injuries("fatal")),
        (
            f"{y}",
            slots.ntsb_year(y, y),
        ),
    ]


def n_make_state_years(rng: random.Random) -> tuple[str, Labelled]:
    make, state = rng.choice(list(f.MAKES)[:8]), rng.choice(slots.STATES[:12])
    a, b = _years(rng, 2010, 2014, (1, 3))
    text = f"How many {make} {{acc}} were there in {state} from {a} to {b}?"
    return text, [
        (f"make {make}", f.of_make(make)),
        (f"state {state}", slots.in_states(state)),
        (
            f"{a}-{b}",
            slots.ntsb_year(a, b),
        ),
    ]


def n_heli_fatal_state(rng: random.Random) -> tuple[str, Labelled]:
    state = rng.choice(slots.STATES[:16])
    kind, code = rng.choice((("helicopter", "HELI"), ("airplane", "AIR")))
    text = f"How many fatal {kind} {{acc}} were there in {state}?"
    return text, [
        (code, f.of_category(code)),
        ("fatal", slots.injuries("fatal")),
        (
            f"state {state}",
            slots.in_states(state),
        ),
    ]


def n_vmc_make(rng: random.Random) -> tuple[str, Labelled]:
    make = rng.choice(list(f.MAKES)[:10])
    y = rng.choice(slots.NTSB_YEARS)
    text = f"How many {make} {{acc}} in {y} happened in visual meteorological conditions?"
    return text, [
        (f"make {make}", f.of_make(make)),
        ("VMC", slots.weather("VMC")),
        (f"{y}", slots.ntsb_year(y, y)),
    ]


# fmt: off
NTSB: list[Builder] = [
    n_region, n_make_fatal_since, n_heli_half, n_model_state, n_model_years, n_category,
    n_no_injuries, n_imc_state, n_destroyed, n_aerial, n_instructional, n_part, n_month,
    n_quarter_serious, n_deadly, n_several, n_weekend, n_heli_make, n_minor_only, n_two_states,
    n_personal_fatal, n_make_state_years, n_heli_fatal_state, n_vmc_make,
]
# fmt: on
