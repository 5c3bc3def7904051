"""Retrieved candidates as plain data: what the search tool's artifact and the graph state hold."""

from __future__ import annotations

from datetime import date

from typing_extensions import TypedDict  # pydantic (Studio schemas) needs it on 3.11

from archive.store.passages import Passage
from tools.hybrid import Candidate


class CandidateRecord(TypedDict):
    """One retrieved passage with its scores (JSON-safe; no vector)."""

    chunk_id: str  # 12 hex, the only id shown to a model
    doc_id: str
    kind: str
    source_id: str
    title: str
    text: str
    section: str | None
    page: int | None
    date: str | None  # ISO date
    sender: str | None
    subject: str | None
    thread_id: str | None
    vessel_name: str | None
    imo: str | None
    report_no: str | None
    archive_path: str
    embedding_mode: str  # full | summary | metadata_only
    summary: str
    bm25: float
    cosine: float
    score: float  # fused retrieval score
    rerank: float | None  # reranker relevance in [0, 1]; None when not reranked


def record_of(candidate: Candidate) -> CandidateRecord:
    p = candidate.passage
    return CandidateRecord(
        chunk_id=p.chunk_id,
        doc_id=p.doc_id,
        kind=p.kind,
        source_id=p.source_id,
        title=p.title,
        text=p.text,
        section=p.section,
        page=p.page,
        date=p.date.isoformat() if p.date else None,
        sender=p.sender,
        subject=p.subject,
        thread_id=p.thread_id,
        vessel_name=p.vessel_name,
        imo=p.imo,
        report_no=p.report_no,
        archive_path=p.archive_path,
        embedding_mode=p.embedding_mode,
        summary=p.summary,
        bm25=float(candidate.bm25),
        cosine=float(candidate.cosine),
        score=float(candidate.score),
        rerank=None,
    )


def candidate_of(record: CandidateRecord) -> Candidate:
    """A :class:`Candidate` again (without its vector), for code that reads candidates."""
    passage = Passage(
        chunk_id=record["chunk_id"],
        doc_id=record["doc_id"],
        kind=record["kind"],
        source_id=record["source_id"],
        title=record["title"],
        text=record["text"],
        section=record["section"],
        page=record["page"],
        date=date.fromisoformat(record["date"]) if record["date"] else None,
        sender=record["sender"],
        subject=record["subject"],
        thread_id=record["thread_id"],
        vessel_name=record["vessel_name"],
        imo=record["imo"],
        report_no=record["report_no"],
        archive_path=record["archive_path"],
        embedding_mode=record["embedding_mode"],
        summary=record["summary"],
    )
    return Candidate(passage, record["bm25"], record["cosine"], record["score"])
