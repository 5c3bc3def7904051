"""Nested checks of a click correction (adapt.memory_fit.Fitted) as the feedback simulation's
NTSB questions make them: most opened documents already first, a few dozen not."""

from __future__ import annotations

from adapt.memory_fit import Fitted


def nested_check(*, first: int, fell: int, rose: int, sank: int, still: int) -> Fitted:
    """``first`` questions whose opened document was first, ``fell`` of them pushed to second
    place; then ``rose`` questions not yet first lifted by 0.3, ``sank`` lowered by 0.1 and
    ``still`` unchanged (all from 0.5)."""
    before = [1.0] * first + [0.5] * (rose + sank + still)
    after = [0.63] * fell + [1.0] * (first - fell) + [0.8] * rose + [0.4] * sank + [0.5] * still
    return Fitted(None, before, after)
