"""Checking an answer's ``[C:<chunk id>]`` markers against this turn's retrieval and the archive."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NotRequired

from typing_extensions import TypedDict  # pydantic (Studio schemas) needs it on 3.11

from archive.store.passages import Passage
from text.sentences import sentences

#: A citation marker, tolerating whitespace and case: ``[C:3f9a1c0b7e21]``, ``[ c : 3F9A... ]``.
MARKER = re.compile(r"\[\s*C\s*:\s*([^\[\]\n]{0,64}?)\s*\]", re.IGNORECASE)
CHUNK_ID = re.compile(r"[0-9a-f]{12}")
#: Why a retrieved citation was rejected when its original is not in the archive.
MISSING = "original missing from the archive"
#: Longest snippet kept with a citation.
SNIPPET_CHARS = 280
#: More than this share of invalid markers flags the answer.
FLAG_SHARE = 0.5


class Citation(TypedDict):
    """What a client needs to render and open a citation (stored with the answer)."""

    id: str  # chunk id, 12 hex
    number: int  # 1-based, in order of first appearance in the answer
    source_id: str
    doc_id: str
    kind: str
    title: str
    subject: str | None
    date: str | None
    sender: str | None
    section: str | None
    page: int | None
    archive_path: str
    snippet: str  # the cited passage's opening, whitespace collapsed (what a preview shows)
    lineage: NotRequired[str | None]  # "survey.pdf, p. 5 — attached to 'RE: …' from …, date"
    parent_id: NotRequired[str | None]  # an attachment's message (its source id)


@dataclass
class CitationCheck:
    """An answer after validation."""

    text: str  # invalid markers stripped, valid ones written canonically
    citations: list[Citation] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)  # the distinct rejected marker ids
    reasons: dict[str, str] = field(default_factory=dict)  # rejected id -> why

    @property
    def total(self) -> int:
        return len(self.citations) + len(self.invalid)

    @property
    def uncited(self) -> bool:
        """No valid citation at all: nothing in the answer can be checked."""
        return not self.citations

    @property
    def flagged(self) -> bool:
        """Uncited, or more than :data:`FLAG_SHARE` of the markers invalid."""
        return self.uncited or len(self.invalid) > FLAG_SHARE * self.total

    def summary(self) -> dict[str, object]:
        return {
            "total": self.total,
            "valid": len(self.citations),
            "invalid": len(self.invalid),
            "flagged": self.flagged,
            "uncited": self.uncited,
            "rejected": dict(self.reasons),
        }


_LEADING_MARKERS = re.compile(r"^(?:\s*\[\s*C\s*:[^\[\]\n]{0,64}\])+", re.IGNORECASE)
#: A statement has at least this many words (shorter lines are headings or connectives).
STATEMENT_WORDS = 4


def uncited_statements(text: str) -> list[str]:
    """The statements of ``text`` that carry no marker: sentences of at least
    :data:`STATEMENT_WORDS` words that are not a question or a heading (ending in ":"). Markers
    placed after the full stop ("... replaced. [C:…]") count for the sentence before them."""
    pieces = [s for line in text.splitlines() for s in sentences(line)]
    statements: list[str] = []
    for piece in pieces:
        lead = _LEADING_MARKERS.match(piece)
        if lead and statements:
            statements[-1] += " " + lead.group(0)
            piece = piece[lead.end() :].strip()
        if piece:
            statements.append(piece)
    return [
        s
        for s in statements
        if not MARKER.search(s)
        and len(re.findall(r"\w+", s)) >= STATEMENT_WORDS
        and not s.rstrip().endswith(("?", ":"))
    ]


def marker_ids(text: str) -> list[str]:
    """The distinct marker contents of ``text``, in order (not yet validated)."""
    return list(dict.fromkeys(m.group(1).strip().lower() for m in MARKER.finditer(text)))


def citation_of(record: Passage, number: int) -> Citation:
    return Citation(
        id=record["chunk_id"],
        number=number,
        source_id=record["source_id"],
        doc_id=record["doc_id"],
        kind=record["kind"],
        title=record["title"],
        subject=record.get("subject"),
        date=record.get("date"),
        sender=record.get("sender"),
        section=record.get("section"),
        page=record.get("page"),
        archive_path=record["archive_path"],
        snippet=snippet(record.get("text") or ""),
        lineage=lineage(record),
        parent_id=record.get("parent_id"),
    )


def lineage(record: Passage) -> str | None:
    """Where a passage sits when that is more than its document: the file, its page (and that
    OCR read it), the message it was attached to — ``survey.pdf, p. 5 (OCR) — attached to
    "RE: Hatch inspection" from captain@…, 2024-01-15``; None for a plain message or record."""
    attached = record["kind"] == "attachment" and bool(record.get("parent_id"))
    if not attached and not record.get("ocr"):
        return None
    line = record["title"]
    if record.get("page"):
        line += f", p. {record['page']}"
    if record.get("ocr"):
        line += " (OCR)"
    if attached:
        origin = ", ".join(str(x) for x in (record.get("sender"), record.get("date")) if x)
        line += f' — attached to "{record.get("subject") or "(no subject)"}"'
        line += f" from {origin}" if origin else ""
    return line


def snippet(text: str) -> str:
    """At most :data:`SNIPPET_CHARS` of ``text``, whitespace collapsed."""
    text = " ".join(text.split())
    return text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1].rstrip() + "…"


async def validate(
    text: str,
    retrieved: Mapping[str, Passage],
    all_exist: Callable[[list[str]], Awaitable[Sequence[bool]]],
) -> CitationCheck:
    """Keep markers that are 12 hex, were retrieved this turn and whose original is archived.

    Archive checks run concurrently (``all_exist``); rejected markers are removed from the text.
    """
    reasons: dict[str, str] = {}
    candidates: list[str] = []
    for raw in marker_ids(text):
        if not CHUNK_ID.fullmatch(raw):
            reasons[raw] = "malformed"
        elif raw not in retrieved:
            reasons[raw] = "not retrieved"
        else:
            candidates.append(raw)
    paths = [retrieved[cid]["archive_path"] for cid in candidates]
    present = list(await all_exist(paths)) if paths else []
    valid: list[str] = []
    for cid, ok in zip(candidates, present, strict=True):
        if ok:
            valid.append(cid)
        else:
            reasons[cid] = MISSING
    cleaned = _rewrite(text, set(valid))
    return CitationCheck(
        text=cleaned,
        citations=[citation_of(retrieved[cid], n) for n, cid in enumerate(valid, start=1)],
        invalid=list(reasons),
        reasons=reasons,
    )


def _rewrite(text: str, valid: set[str]) -> str:
    """Canonical markers for valid ids; invalid ones and immediate repeats removed."""
    out: list[str] = []
    pos = 0
    last_id: str | None = None  # the id of the marker just before, when nothing separates them
    for match in MARKER.finditer(text):
        cid = match.group(1).strip().lower()
        between = text[pos : match.start()]
        if between.strip():
            last_id = None
        if cid in valid and cid != last_id:
            out.append(between)
            out.append(f"[C:{cid}]")
            last_id = cid
        else:
            out.append(between.rstrip(" \t"))  # drop the marker and the space before it
        pos = match.end()
    out.append(text[pos:])
    return "".join(out).strip()


def render_answer(text: str, citations: Sequence[Citation]) -> str:
    """The answer as every client shows it: numbered citations ``[1]`` and a source list (title,
    date, sender, section or page, archive path)."""
    lines = [number_markers(text, citations).strip()]
    if citations:
        lines.append("\nSources:")
        for c in citations:
            section = c.get("section") if c.get("section") != "body" else None
            page = f"p. {c['page']}" if c.get("page") else None
            details = " · ".join(
                str(x) for x in (c.get("date"), c.get("sender"), section, page) if x
            )
            if c.get("lineage"):  # an attachment or OCR'd page: where it came from says it all
                lines.append(f"  [{c['number']}] {c.get('lineage')}")
            else:
                lines.append(
                    f"  [{c['number']}] {c['title']}" + (f" — {details}" if details else "")
                )
            lines.append(f"      {c['archive_path']}")
    return "\n".join(lines)


def number_markers(text: str, citations: Sequence[Citation]) -> str:
    """``text`` with each ``[C:<id>]`` replaced by its citation number, ``[1]``, ``[2]``..."""
    numbers = {c["id"]: c["number"] for c in citations}

    def number(match: re.Match[str]) -> str:
        cid = match.group(1).strip().lower()
        return f"[{numbers[cid]}]" if cid in numbers else ""

    return MARKER.sub(number, text)
