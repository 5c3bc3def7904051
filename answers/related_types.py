"""Which records of a count of ships by type are of related types, said with the count.

A count of "bulk carriers" counts the whole family, as a ship's type makes it one: ore and
cement carriers are bulk carriers. The records whose type name says the family otherwise
("Ore Carrier", "Cement Carrier") are named with their counts after it, so a reader who means
only the ships typed "Bulk Carrier" sees how many to leave out
(:func:`archive.vessel_types.own_words`).
"""

from __future__ import annotations

#: Related types named, the most frequent first.
SHOWN = 5


def related_line(noun: str, related: list[tuple[str, int]]) -> str:
    """The note on ``related`` (type name, records), the :data:`SHOWN` most frequent named."""
    shown = ", ".join(f"{name} {n:,}" for name, n in related[:SHOWN])
    shown += ", …" if len(related) > SHOWN else ""
    return (
        f"Counted with them: {sum(n for _, n in related):,} {noun} of related types the records "
        f"name otherwise ({shown})."
    )
