"""Resolving a vessel named by a user against the registry: exact IMO, else fuzzy name match."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from archive.store.vessels import RegisteredVessel

ACCEPT = 85.0  # a fuzzy match scoring at least this is taken
MARGIN = 5.0  # ...when it beats the runner-up by this much

_IMO = re.compile(r"^(?:IMO\s*)?(\d{7})$", re.IGNORECASE)


class UnknownVessel(ValueError):
    """No registered vessel matches the name; carries the closest names as suggestions."""

    def __init__(self, name: str, suggestions: Sequence[str]) -> None:
        hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"no vessel named {name!r} in the archive.{hint}")
        self.name = name
        self.suggestions = list(suggestions)


@dataclass(frozen=True)
class VesselMatch:
    """The vessels a user's name resolved to, and how."""

    query: str
    vessels: tuple[RegisteredVessel, ...]
    score: float  # 100 for exact matches

    def describe(self) -> str:
        names = ", ".join(f"{v.name} (IMO {v.imo})" if v.imo else v.name for v in self.vessels[:3])
        return f"vessel {self.query!r} -> {names}"


def resolve_vessel(name: str, registry: Sequence[RegisteredVessel]) -> VesselMatch:
    """The registered vessel(s) ``name`` refers to; raises :class:`UnknownVessel` if none."""
    wanted = name.strip()
    imo = _IMO.match(wanted)
    if imo:
        hits = tuple(v for v in registry if v.imo == imo.group(1))
        if hits:
            return VesselMatch(wanted, hits, 100.0)
        raise UnknownVessel(wanted, [])
    exact = tuple(v for v in registry if v.name.upper() == wanted.upper())
    if exact:
        return VesselMatch(wanted, exact, 100.0)
    names = sorted({v.name.upper() for v in registry})
    ranked = process.extract(wanted.upper(), names, scorer=fuzz.ratio, limit=3)
    if ranked:
        best, score, _ = ranked[0]
        runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
        if score >= ACCEPT and score - runner_up >= MARGIN:
            return VesselMatch(wanted, tuple(v for v in registry if v.name.upper() == best), score)
    raise UnknownVessel(wanted, [n for n, s, _ in ranked if s >= 60])
