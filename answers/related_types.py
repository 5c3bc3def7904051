"""What a count of ships by type leaves out, said apart.

A count of "bulk carriers" counts the records whose own type name says so ("Bulk Carrier",
"Bulk Dry (general, ore) Carrier"); the records the archive files in the same family under a
type named otherwise ("Ore Carrier", "Cement Carrier") are not guessed in or out silently but
named with their counts, so the reader sees both (:func:`archive.vessel_types.own_words`).
"""

from __future__ import annotations

#: Related types named, the most frequent first.
SHOWN = 5


def related_line(noun: str, related: list[tuple[str, int]]) -> str:
    """The note on ``related`` (type name, records), the :data:`SHOWN` most frequent named."""
    shown = ", ".join(f"{name} {n:,}" for name, n in related[:SHOWN])
    shown += ", …" if len(related) > SHOWN else ""
    return (
        "Counted by the ship type the records carry; not counted above: "
        f"{sum(n for _, n in related):,} more such {noun} of related types named otherwise "
        f"({shown})."
    )
