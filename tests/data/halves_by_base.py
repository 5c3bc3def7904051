"""The split of the hand-written injection sets F and G into ``dev`` and ``held_back``: by base
(every row of one base falls on the same side), half and half within each (language, family) cell,
ranked by a recorded seed. One function, so a new set splits the way the others did."""

from __future__ import annotations

import hashlib


def halves(bases: list[tuple[str, str, str]], seed: str) -> dict[str, str]:
    """Base id -> ``dev`` or ``held_back`` (``bases``: id, language, family). The bases of a cell
    are sorted by sha256(f"{seed}:{id}"); the first half is ``dev``. A cell with an odd count gives
    its extra base to the side its language has fewer of so far; where the language is even, to
    the side the whole label has fewer of (dev on a tie), so each language and the label differ by
    one base at most."""
    cells: dict[tuple[str, str], list[str]] = {}
    for base, language, family in bases:
        cells.setdefault((language, family), []).append(base)
    side: dict[str, str] = {}
    lead: dict[str, int] = {}  # dev minus held_back, per language
    for language, family in sorted(cells):
        ranked = sorted(
            cells[language, family],
            key=lambda b: hashlib.sha256(f"{seed}:{b}".encode()).hexdigest(),
        )
        half = len(ranked) // 2
        if len(ranked) % 2:
            own = lead.get(language, 0)
            half += own < 0 or (own == 0 and sum(lead.values()) <= 0)
        lead[language] = lead.get(language, 0) + half - (len(ranked) - half)
        for i, base in enumerate(ranked):
            side[base] = "dev" if i < half else "held_back"
    return side
