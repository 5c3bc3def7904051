"""Questions that ask for records by their fields ("Which accidents happened since November
2014?", "Show me the casualties of ships flagged in Panama"): the set is the archive's records
whose fields match, whatever the relevance cutoff makes of the question's few words. A set the
fields select is in the archive when it holds a record; the cutoff only judges what the words
are about, and here the words name nothing but the kind of record and the filters.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date

from answers.counting import plan_for
from archive.store.counts import RecordQuery

# The archive's kinds of record a question may ask for, as a noun anywhere in it.
_AIR_RECORDS = re.compile(
    r"\b(?:accidents?|crash(?:es)?|incidents?|mishaps?|ntsb\s+(?:records?|reports?))\b",
    re.IGNORECASE,
)
_SEA_RECORDS = re.compile(
    r"\b(?:casualt(?:y|ies)|shipwrecks?|imo\s+(?:records?|casualt(?:y|ies)))\b", re.IGNORECASE
)
_BARE = RecordQuery(kind="ntsb_report")
# Words that say a question is about a ship: a registered name alone may be a word ("Pride",
# "Africa" are ships of the IMO records too).
_SHIP_WORDS = re.compile(
    r"\b(?:ships?|vessels?|boats?|casualt(?:y|ies)|m/?v|tankers?|carriers?|ferr(?:y|ies)"
    r"|trawlers?|tugs?|yachts?|crew|master|voyage|sank|sunk|aground|grounding|collision)\b",
    re.IGNORECASE,
)


def record_set_query(question: str, dates: dict[str, str]) -> RecordQuery | None:
    """The records ``question`` asks for by their fields: its own words' fields (place, make,
    category, weather, flag, vessel type, years) and the conversation's ``dates`` (the active
    ``date_from`` / ``date_to`` filters, ISO, which replace the words' years). None when it
    names no kind of record the archive holds, or no field to select them by."""
    air = _AIR_RECORDS.search(question)
    sea = _SEA_RECORDS.search(question)
    if air is None and sea is None:
        return None
    query_only = plan_for(question, sea=air is None).query
    if dates.get("date_from") or dates.get("date_to"):
        query_only = replace(
            query_only,
            date_from=_day(dates.get("date_from")),
            date_to=_day(dates.get("date_to")),
        )
    selects = replace(query_only, kind=_BARE.kind) != _BARE
    return query_only if selects else None


def about_named_ship(question: str, *, dated: bool) -> bool:
    """Whether ``question``, which names a registered ship, asks about that ship's records: it
    also sets a date (``dated``: "What happened to the Ethnos on July 31, 2005?") or speaks of
    ships ("the casualty of the Ethnos"). "What is the plot of Pride and Prejudice?" names the
    ship PRIDE and asks nothing of it."""
    return dated or bool(_SHIP_WORDS.search(question))


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value[:10]) if value else None
