"""What a document must be before the writer embeds and stores it, whatever loader made it: every
text storable (no NUL, no lone surrogate), display fields (title, subject, sender, file names,
vessel names) without bidi controls, and each passage read for planted instructions.

The writer (:mod:`archive.ingest.writer`) calls :func:`admitted` on every document it receives
and :func:`marked` on every chunk it cuts, so a new loader cannot forget either.
"""

from __future__ import annotations

from dataclasses import replace

from archive.ingest.model import Chunk, Section, SourceDocument, Vessel
from text.injection import instructions_in
from text.storable import displayable, storable


def _maybe(value: str | None) -> str | None:
    return None if value is None else storable(value)


def _shown(value: str | None) -> str | None:
    return None if value is None else displayable(value)


def admitted(doc: SourceDocument) -> SourceDocument:
    """``doc`` with every string made storable and its display fields displayable (see the
    module docstring). Natural ids are cleaned the same way everywhere (a parent's source id
    and its attachments' ``parent_id``), so they still match."""
    return replace(
        doc,
        source_id=storable(doc.source_id),
        title=displayable(doc.title),
        sections=[Section(displayable(s.name), storable(s.text), s.page) for s in doc.sections],
        archive_name=displayable(doc.archive_name),
        sender=_shown(doc.sender),
        subject=_shown(doc.subject),
        message_id=_maybe(doc.message_id),
        thread_id=_maybe(doc.thread_id),
        parent_id=_maybe(doc.parent_id),
        report_no=_shown(doc.report_no),
        vessels=[
            Vessel(
                displayable(v.name), _maybe(v.imo), _shown(v.vessel_type), _shown(v.vessel_class)
            )
            for v in doc.vessels
        ],
        summary=storable(doc.summary),
        metadata={storable(k): storable(v) for k, v in doc.metadata.items()},
    )


def marked(
    doc: SourceDocument, chunks: list[Chunk], beside: tuple[str, ...] | None = None
) -> list[Chunk]:
    """``chunks`` with the planted instructions each one holds named (:mod:`text.injection`):
    in its own text, or in what is shown beside it (the document's title, subject and context
    summary; ``beside``: those already read)."""
    if beside is None:
        beside = shown_beside(doc.title, doc.subject, doc.summary)
    out = []
    for chunk in chunks:
        found = instructions_of(chunk.text, beside)
        out.append(replace(chunk, instructions=found) if found else chunk)
    return out


def shown_beside(title: str, subject: str | None, summary: str | None) -> tuple[str, ...]:
    """The planted instructions in what is shown beside each passage of a document."""
    return instructions_in("\n".join(filter(None, (title, subject, summary))))


def instructions_of(text: str, beside: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A passage's mark: the instructions in its text and in what is shown beside it."""
    return tuple(dict.fromkeys((*instructions_in(text), *beside)))
