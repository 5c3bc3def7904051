"""Vessel types as families and classification societies, whatever the source's spelling.

One deterministic table serves ingest (a record's "BULK CARRIER", "Bulk carrier" or "Bulk Dry
(general, ore) Carrier" is stored as the family ``bulk carrier``) and questions ("groundings of
bulk carriers" filters on that family). Matching is case-insensitive and ordered: the first rule
that matches wins, so the same text always gives the same answer.
"""

from __future__ import annotations

import re

# (family, pattern over a source's type name), most specific first: an OBO "Bulk Dry / Oil
# Carrier" is a bulk carrier, a "Passenger / Ro-Ro Cargo Ship" a ro-ro passenger ship.
_TYPE_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (family, re.compile(pattern, re.IGNORECASE))
    for family, pattern in (
        ("bulk carrier", r"bulk|\bore carrier|\bobo\b|cement carrier|aggregates carrier|woodchip"),
        ("ro-ro passenger ship", r"passenger.*ro-?ro|ro-?ro.*(passenger|ferry)|ro-?pax"),
        ("ro-ro cargo ship", r"ro-?ro|roll-on|vehicles? carrier|car carrier"),
        ("tanker", r"tanker|tank ship|\bfso\b|\bfpso\b"),
        ("container ship", r"container"),
        ("passenger ship", r"passenger|cruise|ferry"),
        ("fishing vessel", r"fish|trawler|seiner|longliner|\bfishing"),
        ("refrigerated cargo ship", r"refrigerated|reefer"),
        ("tug", r"\btug|towing|pushing|pusher"),
        ("offshore vessel", r"offshore|supply|anchor handling"),
        ("dredger", r"dredg"),
        ("yacht", r"yacht|pleasure"),
        ("research vessel", r"research|survey"),
        ("general cargo ship", r"general cargo|cargo"),
    )
)

# (family, pattern over a source's type name): the types that name the family in their own words
# ("Bulk Carrier", "Bulk Dry (general, ore) Carrier"). The family also holds related types the
# records name otherwise ("Ore Carrier", "Cement Carrier", "Stern Trawler", "FPSO"): a count
# counts the whole family, as a ship's type makes it one (an ore carrier is a bulk carrier), and
# says which of its records are of the related types. Written in the regex subset Python and
# PostgreSQL share (no \b), so SQL lists on the same patterns.
_OWN_WORDS: dict[str, str] = {
    "bulk carrier": r"bulk",
    "ro-ro passenger ship": r"passenger.*ro-?ro|ro-?ro.*passenger|ro-?pax",
    "ro-ro cargo ship": r"ro-?ro|roll-on",
    "tanker": r"tanker|tank ship",
    "container ship": r"container",
    "passenger ship": r"passenger",
    "fishing vessel": r"fish",
    "refrigerated cargo ship": r"refrigerated|reefer",
    "tug": r"tug",
    "offshore vessel": r"offshore|off-shore",
    "dredger": r"dredg",
    "yacht": r"yacht",
    "research vessel": r"research",
    "general cargo ship": r"general cargo",
}

# (families, pattern over a question's words): what a user calls each family.
_QUESTION_RULES: tuple[tuple[tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (families, re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.IGNORECASE))
    for families, pattern in (
        (("bulk carrier",), r"bulk[\s-]*carriers?|bulkers?|ore carriers?"),
        (("ro-ro passenger ship",), r"ro-?pax(?:es)?|ro-?ro (?:passenger )?ferr(?:y|ies)"),
        (
            ("ro-ro cargo ship", "ro-ro passenger ship"),
            r"ro-?ro(?:s| ships?| vessels?| cargo ships?)?|car carriers?|vehicle carriers?",
        ),
        (("tanker",), r"(?:oil |chemical |product |products |gas |crude )?tankers?"),
        (("container ship",), r"container (?:ships?|vessels?|carriers?)|box ?ships?"),
        (
            ("passenger ship", "ro-ro passenger ship"),
            r"passenger (?:ships?|vessels?)|ferr(?:y|ies)|cruise (?:ships?|liners?)",
        ),
        (("fishing vessel",), r"fishing (?:vessels?|boats?|ships?)|trawlers?|fishing"),
        (("refrigerated cargo ship",), r"reefers?|refrigerated cargo ships?"),
        (("tug",), r"tugs?|tug ?boats?|towing vessels?"),
        (("offshore vessel",), r"offshore (?:supply )?(?:vessels?|ships?)|supply vessels?"),
        (("dredger",), r"dredgers?"),
        (("yacht",), r"yachts?|pleasure craft"),
        (("research vessel",), r"research (?:vessels?|ships?)"),
        (("general cargo ship",), r"general cargo(?: ships?| vessels?)?"),
    )
)

# (society, pattern over its names and codes). Codes are matched as upper-case whole words
# (case-sensitive), full names in any case.
_SOCIETIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("Lloyd's Register", r"(?i:\blloyd['’`]?s\b(?:\s+register)?)|\bLR\b"),
        ("American Bureau of Shipping", r"(?i:american bureau of shipping)|\bABS\b"),
        ("DNV", r"(?i:det norske veritas|\bdnv(?:[\s-]?gl)?\b)"),
        ("Germanischer Lloyd", r"(?i:germanischer lloyd)|\bGL\b"),
        ("Bureau Veritas", r"(?i:bureau veritas)|\bBV\b"),
        ("ClassNK", r"(?i:nippon kaiji kyokai|\bclass\s?nk\b)|\bNKK?\b"),
        ("RINA", r"(?i:\brina\b|registro italiano navale)"),
        ("Korean Register", r"(?i:korean register)|\bKRS?\b"),
        ("China Classification Society", r"(?i:china classification society)|\bCCS\b"),
        ("Indian Register of Shipping", r"(?i:indian register)|\bIRS\b"),
        ("Russian Maritime Register of Shipping", r"(?i:russian maritime register)|\bRMRS\b"),
        ("Polish Register of Shipping", r"(?i:polish register|polski rejestr)|\bPRS\b"),
        ("Croatian Register of Shipping", r"(?i:croatian register)|\bCRS\b"),
        ("Turkish Lloyd", r"(?i:turkish lloyd)"),
    )
)


def vessel_family(vessel_type: str | None) -> str | None:
    """The family of a source's type name ("BULK CARRIER" -> "bulk carrier"); None if unknown."""
    if not vessel_type:
        return None
    for family, pattern in _TYPE_RULES:
        if pattern.search(vessel_type):
            return family
    return None


def class_society(name: str | None) -> str | None:
    """The society a source's class entry names ("DNV GL AS (DNVGL)" -> "DNV"); None if none."""
    if not name:
        return None
    for society, pattern in _SOCIETIES:
        if pattern.search(name):
            return society
    return None


def families_in(text: str) -> tuple[tuple[str, ...], str] | None:
    """The families a question names and the words it used ("bulk carriers"), first rule
    first; None when it names none."""
    for families, pattern in _QUESTION_RULES:
        match = pattern.search(text)
        if match:
            return families, match[0]
    return None


def society_in(text: str) -> tuple[str, str] | None:
    """The classification society a question names and the words it used; None if none."""
    for society, pattern in _SOCIETIES:
        match = pattern.search(text)
        if match:
            return society, match[0]
    return None


def type_words(text: str) -> list[str]:
    """Every span of ``text`` that names a vessel family ("bulk carrier", "tankers", "tug")."""
    return [m[0] for _, pattern in _QUESTION_RULES for m in pattern.finditer(text)]


def own_words(families: tuple[str, ...]) -> str:
    """One case-insensitive pattern (Python and PostgreSQL alike) over a record's type name that
    holds when the type names one of ``families`` in its own words; "" for no family."""
    return "|".join(f"(?:{_OWN_WORDS[f]})" for f in families if f in _OWN_WORDS)
