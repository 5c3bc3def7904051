"""Structural filters from the user's words: vessels, IMO numbers, vessel families, classification
societies, aircraft registrations, reports, years.

The active filters are plain data (:class:`Filters`) so a checkpointer keeps them per conversation;
each turn :func:`resolve` starts from them, applies what the message clears or names, and reports a
filter it cannot apply instead of dropping it (the search is never silently widened).
"""

from __future__ import annotations

import asyncio
import calendar
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Generic, TypeVar

from rapidfuzz import fuzz, process
from typing_extensions import TypedDict  # pydantic (Studio schemas) needs it on 3.11

from archive.store.search_filters import SearchFilters
from archive.store.vessels import RegisteredVessel
from archive.vessel_types import class_society, families_in, society_in, vessel_family
from tools import prompts
from tools.dates import date_range, year_in_passing
from tools.vessels import UnknownVessel, VesselMatch, resolve_vessel

T = TypeVar("T")


class VesselRef(TypedDict):
    """A registered vessel a filter names."""

    key: str  # registry key (IMO number, or "name:<NAME>")
    name: str
    imo: str | None


class Filters(TypedDict, total=False):
    """The active structural filters of a conversation (absent key = not filtered)."""

    vessels: list[VesselRef]  # documents naming any of these vessels
    vessel_families: list[str]  # archive.vessel_types families ("bulk carrier"), any of them
    class_society: str  # archive.vessel_types society ("Lloyd's Register")
    registration: str  # an aircraft registration ("N3424Y")
    report_no: str  # single-report mode
    date_from: str  # ISO date, inclusive
    date_to: str  # ISO date, inclusive


class FilterRequest(TypedDict, total=False):
    """Filters asked for outside the message text (command-line flags, API callers)."""

    vessel: str  # a vessel name (fuzzy) or IMO number
    report: str  # a report number


REPORT_NO = re.compile(r"\b([A-Z]{3}\d{2}[A-Z]{2}\d{3})\b", re.IGNORECASE)
#: A US civil aircraft registration ("N3424Y", "N62QC"), written in capitals; "N1" and "N2"
#: (engine speeds) are too short to be one.
REGISTRATION = re.compile(r"(?<![\w-])(N[1-9]\d{1,4}[A-Z]{0,2})(?![\w-])")
IMO_NUMBER = re.compile(r"\bIMO\s*(?:no\.?|number|#)?\s*:?\s*(\d{7})\b", re.IGNORECASE)
BARE_NUMBER = re.compile(r"(?<![\w.-])(\d{7})(?![\w.-])")
#: Words that introduce a vessel name: "MV Nordic Star", "the vessel Baltic Trader".
VESSEL_CUE = re.compile(
    r"\b(?:M/?V|M/?T|S/?S|vessel|ship)\s+"
    r"((?:[A-Z][\w'-]*|\d+)(?:\s+(?:[A-Z][\w'-]*|[IVX]+|\d+)){0,3})"
)

_CLEAR_ALL = re.compile(
    r"\b(?:clear|reset|remove|drop)\s+(?:all\s+)?(?:the\s+)?filters?\b|\bno\s+filters?\b"
    r"|\bwhole\s+archive\b",
    re.IGNORECASE,
)
_CLEAR_VESSEL = re.compile(r"\b(?:any|all|every|other)\s+(?:vessels?|ships?)\b", re.IGNORECASE)
_CLEAR_AIRCRAFT = re.compile(
    r"\b(?:any|all|every|other)\s+(?:aircraft|air ?planes?|planes?|registrations?)\b", re.IGNORECASE
)
_CLEAR_REPORT = re.compile(r"\b(?:any|all|every|other)\s+reports?\b", re.IGNORECASE)
_CLEAR_DATE = re.compile(
    r"\b(?:any|all)\s+(?:dates?|years?|time|periods?)\b|\bany\s+time\b", re.IGNORECASE
)

#: Words that are written capitalised and are no misspelt vessel name ("August" is not "AUGUSTA").
_CALENDAR_WORDS = frozenset(w.casefold() for w in (*calendar.month_name[1:], *calendar.day_name))
#: A fuzzy name match in free text must score at least this (typos: "Nordc Star").
TEXT_FUZZY_ACCEPT = 90.0


@dataclass
class Resolution:
    """The filters after this message, what changed, and what could not be applied."""

    filters: Filters
    notes: list[str] = field(default_factory=list)  # human-readable changes, for traces and chat
    problem: str | None = None  # a requested filter that matched nothing
    ranked_year: int | None = None  # a year mentioned in passing: ranks, does not filter


class Refreshed(Generic[T]):
    """A value loaded through ``load`` and kept ``ttl_s`` seconds (one per graph)."""

    def __init__(self, load: Callable[[], Awaitable[T]], *, ttl_s: float = 60.0) -> None:
        self._load = load
        self._ttl_s = ttl_s
        self._value: T | None = None
        self._loaded_at = 0.0
        self._lock = asyncio.Lock()

    async def get(self) -> T:
        async with self._lock:
            now = time.monotonic()
            if self._value is None or now - self._loaded_at > self._ttl_s:
                self._value = await self._load()
                self._loaded_at = now
            return self._value


class VesselRegistry(Refreshed[list[RegisteredVessel]]):
    """The registry, loaded through ``load`` and kept ``ttl_s`` seconds (one per graph)."""

    async def vessels(self) -> list[RegisteredVessel]:
        return await self.get()


def clear(filters: Filters, text: str) -> tuple[Filters, list[str]]:
    """``filters`` without what ``text`` asks to clear ("clear filters", "any vessel", ...)."""
    if _CLEAR_ALL.search(text):
        return Filters(), ["cleared all filters"] if filters else []
    out = Filters(**filters)
    notes: list[str] = []
    vessel_keys = ("vessels", "vessel_families", "class_society")
    if _CLEAR_VESSEL.search(text) and (out.keys() & set(vessel_keys)):
        for key in vessel_keys:
            out.pop(key, None)  # type: ignore[misc]
        notes.append("cleared the vessel filter")
    if _CLEAR_AIRCRAFT.search(text) and "registration" in out:
        del out["registration"]
        notes.append("cleared the registration filter")
    if _CLEAR_REPORT.search(text) and "report_no" in out:
        del out["report_no"]
        notes.append("cleared the report filter")
    if _CLEAR_DATE.search(text) and out.keys() & {"date_from", "date_to"}:
        out.pop("date_from", None)
        out.pop("date_to", None)
        notes.append("cleared the date filter")
    return out, notes


_FILLER = frozenset(
    "please pls now then ok okay and the a all filter filters search again start over".split()  # noqa: SIM905
)


def only_clears(text: str) -> bool:
    """Whether ``text`` does nothing but clear filters ("clear filters", "any vessel please")."""
    rest = text
    for pattern in (_CLEAR_ALL, _CLEAR_VESSEL, _CLEAR_AIRCRAFT, _CLEAR_REPORT, _CLEAR_DATE):
        rest, n = pattern.subn(" ", rest)
        if n:
            text = ""  # something was cleared
    words = re.findall(r"[a-z0-9]+", rest.lower())
    return text == "" and all(w in _FILLER for w in words)


@dataclass
class _Named:
    """Vessels found in a text so far: each registry vessel once, and the names not found."""

    matches: list[VesselMatch] = field(default_factory=list)
    unknown: list[UnknownVessel] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def add(self, match: VesselMatch) -> None:
        fresh = tuple(v for v in match.vessels if v.key not in self.seen)
        if fresh:
            self.seen.update(v.key for v in fresh)
            self.matches.append(VesselMatch(match.query, fresh, match.score))

    def resolve(self, wanted: str, registry: Sequence[RegisteredVessel]) -> None:
        try:
            self.add(resolve_vessel(wanted, registry))
        except UnknownVessel as err:
            self.unknown.append(err)


def named_vessels(
    text: str, registry: Sequence[RegisteredVessel]
) -> tuple[list[VesselMatch], list[UnknownVessel]]:
    """Vessels ``text`` names: IMO numbers, registry names (exact or close), cued unknown names."""
    named = _Named()
    for imo in IMO_NUMBER.findall(text):
        named.resolve(f"IMO {imo}", registry)
    known_imos = {v.imo for v in registry if v.imo}
    for number in BARE_NUMBER.findall(text):
        if number in known_imos:
            named.resolve(f"IMO {number}", registry)
    covered = _spelled(text, registry, named)
    for cue in VESSEL_CUE.finditer(text):
        if not _overlaps(cue.span(1), covered):
            named.resolve(cue.group(1), registry)
    return named.matches, named.unknown


def _spelled(
    text: str, registry: Sequence[RegisteredVessel], named: _Named
) -> list[tuple[int, int]]:
    """Registry names written exactly or nearly so; the longest spans win, then the best scores.
    Returns the spans they cover."""
    spotted = sorted(_spelled_names(text, registry), key=lambda s: (s[1][0] - s[1][1], -s[2]))
    covered: list[tuple[int, int]] = []
    for name, span, score in spotted:
        if _overlaps(span, covered):
            continue
        covered.append(span)
        written = text[span[0] : span[1]]
        named.add(VesselMatch(written, tuple(v for v in registry if v.name == name), score))
    return covered


def _overlaps(span: tuple[int, int], spans: Sequence[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in spans)


def _plausible(written: str, name: str) -> bool:
    """Whether ``written`` names the vessel rather than using a word: short one-word names
    ("Star", "Fortune") count only when written capitalised; longer names in any case."""
    if " " in name.strip() or len(name) >= 8 or any(ch.isdigit() for ch in name):
        return True
    return written[:1].isupper()


def _spelled_names(
    text: str, registry: Sequence[RegisteredVessel]
) -> list[tuple[str, tuple[int, int], float]]:
    """(registry name, span, score) for each run of words that spells a name exactly (100) or
    closely (one or two typos in a name of six or more characters)."""
    by_folded = {v.name.casefold(): v.name for v in registry}
    longer = [folded for folded in by_folded if len(folded) >= 6]
    sizes = sorted({len(folded.split()) for folded in by_folded})
    words = list(re.finditer(r"[\w'-]+", text))
    found: list[tuple[str, tuple[int, int], float]] = []
    for size in sizes:
        for i in range(len(words) - size + 1):
            span = (words[i].start(), words[i + size - 1].end())
            window = text[span[0] : span[1]]
            folded = window.casefold()
            if folded in by_folded:
                if _plausible(window, by_folded[folded]):
                    found.append((by_folded[folded], span, 100.0))
                continue
            if not window[:1].isupper() or len(window) < 6 or folded in _CALENDAR_WORDS:
                continue  # a misspelt name is still written capitalised; "August" is a month
            close = process.extractOne(
                folded, longer, scorer=fuzz.ratio, score_cutoff=TEXT_FUZZY_ACCEPT
            )
            if close is not None:
                found.append((by_folded[close[0]], span, float(close[1])))
    return found


def vessel_type_filters(
    text: str, registry: Sequence[RegisteredVessel]
) -> tuple[Filters, list[str]]:
    """The vessel families and classification society ``text`` names, among those of the
    registered vessels (an archive without tankers takes "tanker" as a word), with notes."""
    filters = Filters()
    notes: list[str] = []
    families = {v.vessel_family or vessel_family(v.vessel_type) for v in registry}
    societies = {v.class_society or class_society(v.vessel_class) for v in registry}
    named = families_in(text)
    if named and (wanted := [f for f in named[0] if f in families]):
        filters["vessel_families"] = wanted
        notes.append(f"vessel type: {named[1]!r} -> {' or '.join(wanted)}")
    society = society_in(text)
    if society and society[0] in societies:
        filters["class_society"] = society[0]
        notes.append(f"classification society: {society[1]!r} -> {society[0]}")
    return filters, notes


def resolve(
    text: str,
    current: Filters,
    registry: Sequence[RegisteredVessel],
    request: FilterRequest | None = None,
    today: date | None = None,
) -> Resolution:
    """The filters for this message: ``current`` minus what it clears plus what it names
    (relative dates read against ``today``, default the clock's)."""
    filters, notes = clear(current, text)
    matches, unknown = named_vessels(text, registry)
    request = request or {}
    if request.get("vessel"):
        try:
            matches.append(resolve_vessel(request["vessel"], registry))
        except UnknownVessel as err:
            unknown.append(err)
    if unknown:
        return Resolution(current, notes, _unknown_vessel(unknown[0]))
    if matches:
        refs = {
            v.key: VesselRef(key=v.key, name=v.name, imo=v.imo) for m in matches for v in m.vessels
        }
        filters["vessels"] = list(refs.values())
        notes.append("vessel: " + "; ".join(m.describe() for m in matches))

    types, type_notes = vessel_type_filters(text, registry)
    filters.update(types)
    notes.extend(type_notes)

    if registration := (m.group(1) if (m := REGISTRATION.search(text)) else None):
        filters["registration"] = registration
        notes.append(f"aircraft registration: {registration}")

    report = request.get("report") or (m.group(1) if (m := REPORT_NO.search(text)) else None)
    if report:
        filters["report_no"] = report.strip().upper()
        notes.append(f"report: {filters['report_no']} (single-report mode)")

    in_passing = year_in_passing(text, today)
    if in_passing is not None:
        notes.append(f"year {in_passing}: mentioned in passing, ranks (not a filter)")
    elif (years := date_range(text, today)) is not None:
        _set_dates(filters, *years)
        notes.append(f"dates: {describe_dates(filters)}")
    return Resolution(filters, notes, ranked_year=in_passing)


def _unknown_vessel(missing: UnknownVessel) -> str:
    names = ", ".join(missing.suggestions)
    hint = prompts.UNKNOWN_VESSEL_HINT.format(names=names) if missing.suggestions else ""
    return prompts.UNKNOWN_VESSEL.format(name=missing.name, hint=hint)


def _set_dates(filters: Filters, start: date | None, end: date | None) -> None:
    filters.pop("date_from", None)
    filters.pop("date_to", None)
    if start:
        filters["date_from"] = start.isoformat()
    if end:
        filters["date_to"] = end.isoformat()


def describe_dates(filters: Filters) -> str:
    start, end = filters.get("date_from"), filters.get("date_to")
    if start and end:
        return f"{start} to {end}"
    if start:
        return f"from {start}"
    return f"until {end}" if end else "any"


def describe(filters: Filters) -> str:
    """The filters in one line for people (and the answering model)."""
    parts: list[str] = []
    if filters.get("vessels"):
        parts.append(
            "vessel "
            + ", ".join(
                f"{v['name']} (IMO {v['imo']})" if v.get("imo") else v["name"]
                for v in filters["vessels"]
            )
        )
    if filters.get("vessel_families"):
        parts.append(f"type {' or '.join(filters['vessel_families'])}")
    if filters.get("class_society"):
        parts.append(f"class {filters['class_society']}")
    if filters.get("registration"):
        parts.append(f"registration {filters['registration']}")
    if filters.get("report_no"):
        parts.append(f"report {filters['report_no']}")
    if filters.get("date_from") or filters.get("date_to"):
        parts.append(f"dates {describe_dates(filters)}")
    return "; ".join(parts) if parts else prompts.NO_FILTERS


async def to_search_filters(
    filters: Filters, vessel_documents: Callable[[list[str]], Awaitable[list[str]]]
) -> SearchFilters:
    """SQL filters for ``filters``; vessels become the ids of the documents that name them."""
    doc_ids: tuple[str, ...] | None = None
    if filters.get("vessels"):
        doc_ids = tuple(await vessel_documents([v["key"] for v in filters["vessels"]]))
    return SearchFilters(
        doc_ids=doc_ids,
        vessel_families=tuple(filters.get("vessel_families", ())),
        class_society=filters.get("class_society"),
        registration=filters.get("registration"),
        report_no=filters.get("report_no"),
        date_from=date.fromisoformat(filters["date_from"]) if filters.get("date_from") else None,
        date_to=date.fromisoformat(filters["date_to"]) if filters.get("date_to") else None,
    )
