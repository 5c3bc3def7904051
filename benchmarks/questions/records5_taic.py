"""TAIC reports for record sets 5: a report's mode, year and heading, and occurrence groups."""

from __future__ import annotations

import re
from pathlib import Path

from records5_fields import Cond, Record, search

TAIC_DIR = Path("maritime") / "taic_reports"

TAIC_MODES = {"0": "aviation", "1": "rail", "2": "marine"}
_BOILERPLATE = re.compile(r"(?:The )?Transport Accident Investigation Commission is", re.I)
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
#: A heading ends with the occurrence's date ("9 March 2013"); what follows is cover residue.
_DATE = re.compile(rf"\b\d{{1,2}}\s+(?:{_MONTHS})\s+\d{{4}}")
#: Occurrence groups of each mode, read from a report's heading (its title block).
TAIC_KINDS: dict[str, dict[str, str]] = {
    "aviation": {
        "terrain": r"impact with terrain|collision with terrain|into terrain|loss of control",
        "power": r"power (?:loss|decrease)|engine (?:power|failure|fuel|control)|forced landing",
        "break-up": r"break[- ]?up|mast[- ]?bump|rotor blade failure",
        "separation": r"separation|airspace|near[- ]collision|mid-air|runway incursion"
        r"|air traffic",
        "gear": r"landing gear",
        "fire": r"\bfire\b",
    },
    "rail": {
        "signal": r"\bsignal|\bSPAD\b|wrong[- ]?rout|track (?:occupation|warrant)|limit of track"
        r"|safe[- ]?working|worksite|work area|wrong line|overran|near collision"
        r"|nearly struck|potential collision",
        "crossing": r"level crossing|pedestrian",
        "derailment": r"derail|roll-? ?over",
        "fire": r"\bfire\b",
    },
    "marine": {
        "grounding": r"grounding|aground|contact with (?:rock|seabed)|uncharted rock",
        "collision": r"\bcollision|contact with (?!rock|seabed)|breakaway",
        "fatality": r"fatal|person overboard|enclosed space",
        "capsize": r"capsiz|sinking|founder|flooding|loss of the fishing vessel|submersion",
        "fire": r"\bfire\b",
    },
}
_TAIC_KIND_RES = {
    mode: {k: re.compile(v, re.IGNORECASE) for k, v in kinds.items()}
    for mode, kinds in TAIC_KINDS.items()
}
#: A report without an inquiry number in its heading (suppressed, or another state's report
#: filed with TAIC's): a question's set may not hold one, since whether it counts is unclear.
_INQUIRY = re.compile(r"\b(?:Report|Inquiry|inquiry|report)\s+(?:[AMR]O\s*-?\s*)?\d")


def read_taic(data: Path) -> list[Record]:
    """Each TAIC report: ``id``, ``year``, ``mode`` (by its number) and ``heading``."""
    out: list[Record] = []
    for path in sorted((data / TAIC_DIR).glob("*.txt")):
        year, number = path.stem.split("_")
        text = path.read_text(encoding="utf-8", errors="replace")
        heading = " ".join(_BOILERPLATE.split(text, maxsplit=1)[0].split())[:600]
        date = _DATE.search(heading)
        heading = heading[: date.end()] if date else heading
        out.append(
            {"id": path.stem, "year": int(year), "mode": TAIC_MODES[number[0]], "heading": heading}
        )
    return out


def taic_kinds(record: Record) -> set[str]:
    """The occurrence groups a report's heading falls in."""
    groups = _TAIC_KIND_RES[str(record["mode"])]
    return {k for k, found in groups.items() if found.search(str(record["heading"]))}


def taic_unclear(record: Record) -> bool:
    """Whether the report lacks an inquiry number (see ``_INQUIRY``) or is suppressed."""
    heading = str(record["heading"])
    return "suppressed" in heading or not _INQUIRY.search(heading)


def taic_years(first: int, last: int) -> Cond:
    return Cond(f"{first}-{last}", lambda r: first <= int(r["year"]) <= last)


def taic_mode(mode: str) -> Cond:
    return Cond(f"mode {mode}", lambda r: r["mode"] == mode)


def taic_heading(rule: str, pattern: str) -> Cond:
    """The report's heading has these words (a tolerance set)."""
    found = search(pattern)
    return Cond(f"heading {rule}", lambda r: found(str(r["heading"])), exact=False)
