"""BOSUN_ADAPT_EVERY_S and BOSUN_ADAPT_MIN_NEW_LABELS: off by default, bad values refused."""

from __future__ import annotations

import pytest

from agent.adapt_schedule import MIN_NEW_LABELS, adapt_schedule
from agent.errors import SettingsError


def test_the_schedule_is_off_unless_asked_for() -> None:
    assert not adapt_schedule({}).on
    assert not adapt_schedule({"BOSUN_ADAPT_EVERY_S": "0"}).on
    schedule = adapt_schedule({"BOSUN_ADAPT_EVERY_S": "3600", "BOSUN_ADAPT_MIN_NEW_LABELS": "20"})
    assert schedule.on and schedule.every_s == 3600 and schedule.min_new_labels == 20
    assert adapt_schedule({"BOSUN_ADAPT_EVERY_S": "60"}).min_new_labels == MIN_NEW_LABELS


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BOSUN_ADAPT_EVERY_S", "-1"),
        ("BOSUN_ADAPT_EVERY_S", "soon"),
        ("BOSUN_ADAPT_MIN_NEW_LABELS", "0"),
    ],
)
def test_a_bad_value_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        adapt_schedule({name: value})
