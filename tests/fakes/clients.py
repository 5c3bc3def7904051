"""In-memory stand-ins for what the graph talks to, each counting its calls."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from archive.store.passages import Passage
from archive.store.search_filters import SearchFilters
from archive.store.vessels import ArchiveExamples, RegisteredVessel
from providers.rerankers import RerankError
from tools.hybrid import Retrieval
from tools.retrieval_config import RetrievalConfig
from tools.topics import TopicDecision, TopicRetrieval


def passage(
    chunk_id: str,
    text: str,
    *,
    doc_id: str | None = None,
    title: str = "Untitled",
    kind: str = "ntsb_report",
    vessel_keys: Sequence[str] = (),
    **fields: Any,
) -> Passage:
    """A stored passage with sensible defaults (``vessel_keys`` are kept by the backend)."""
    doc = doc_id or f"d{chunk_id[1:]}"
    values: dict[str, Any] = {
        "chunk_id": chunk_id,
        "doc_id": doc,
        "kind": kind,
        "source_id": f"SRC-{doc}",
        "title": title,
        "text": text,
        "section": None,
        "page": None,
        "date": None,
        "sender": None,
        "subject": None,
        "thread_id": None,
        "vessel_name": None,
        "imo": None,
        "report_no": None,
        "archive_path": f"{kind}/{doc}/original.txt",
        "embedding_mode": "full",
        "summary": "",
        "bm25": 0.0,
        "cosine": 0.0,
        "score": 0.0,
        "rerank": None,
    }
    values.update(fields)
    if isinstance(values["date"], date):
        values["date"] = values["date"].isoformat()
    return Passage(**values)  # type: ignore[typeddict-item]


_STOP = {
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "and",
    "or",
    "to",
    "is",
    "was",
    "what",
    "how",
    "did",
    "does",
    "do",
    "about",
    "with",
    "for",
    "by",
    "at",
    "be",
    "were",
    "are",
    "any",
    "which",
}


def _words(text: str) -> set[str]:
    """Content words (a few stop words dropped)."""
    return set(re.findall(r"[a-z0-9]+", text.lower())) - _STOP


@dataclass
class FakeBackend:
    """Term-overlap retrieval over a few passages, with the registry and filter semantics."""

    passages: list[Passage] = field(default_factory=list)
    registry: list[RegisteredVessel] = field(default_factory=list)
    vessel_docs: dict[str, list[str]] = field(default_factory=dict)  # vessel key -> doc ids
    calls: list[str] = field(default_factory=list)  # "retrieve", "vessels", "count", ...
    queries: list[tuple[str, SearchFilters]] = field(default_factory=list)
    topics: dict[str, set[str]] = field(default_factory=dict)  # topic name -> chunk ids

    def _admits(self, p: Passage, f: SearchFilters) -> bool:
        day = date.fromisoformat(p["date"]) if p["date"] else None
        return (
            (f.doc_ids is None or p["doc_id"] in f.doc_ids)
            and (f.report_no is None or p["report_no"] == f.report_no)
            and (f.vessel_type is None or p.get("vessel_type") == f.vessel_type)
            and (f.date_from is None or (day is not None and day >= f.date_from))
            and (f.date_to is None or (day is not None and day <= f.date_to))
            and (f.registration is None or p.get("registration") == f.registration)
        )

    async def retrieve(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> Retrieval:
        self.calls.append("retrieve")
        self.queries.append((query, filters))
        terms = _words(query)
        scored = []
        for p in self.passages:
            if not self._admits(p, filters):
                continue
            overlap = len(terms & _words(p["title"] + " " + p["text"]))
            if overlap:
                cosine = overlap / (len(terms) or 1)
                scored.append(
                    Passage(
                        **{**p, "bm25": float(overlap), "cosine": cosine, "score": float(overlap)}
                    )
                )
        scored.sort(key=lambda c: (-c["score"], c["chunk_id"]))
        return Retrieval(scored[: options.results()], {"retrieve": 0.1})

    async def retrieve_topics(
        self, query: str, filters: SearchFilters, options: RetrievalConfig
    ) -> TopicRetrieval:
        """Topics whose every word is in the query restrict retrieval to their chunks ("strict");
        no such topic, or no hit under them: searched without the topic filter ("dropped")."""
        self.calls.append("retrieve_topics")
        words = _words(query)
        names = [n for n in self.topics if _words(n) <= words]
        chunks = {c for n in names for c in self.topics[n]}
        if chunks:
            result = await self.retrieve(query, filters, options)
            result.candidates = [c for c in result.candidates if c["chunk_id"] in chunks]
            if result.candidates:
                strict = TopicDecision(
                    stage="topics",
                    decision="strict",
                    threshold=0.5,
                    topics=names,
                    chunks=len(chunks),
                    scope="chunk",
                    hits=len(result.candidates),
                )
                return TopicRetrieval(result, [strict], [])
        result = await self.retrieve(query, filters, options)
        dropped = TopicDecision(
            stage="topics",
            decision="dropped",
            threshold=None,
            topics=[],
            chunks=0,
            scope="chunk",
            hits=len(result.candidates),
        )
        return TopicRetrieval(result, [dropped], [])

    async def held(self, words: Sequence[str]) -> set[str]:
        """The words some passage writes as a whole word, case aside ("PA-28", not "PA28")."""
        self.calls.append("held")
        written = {
            w
            for p in self.passages
            for w in re.findall(r"[a-z0-9-]+", f"{p['title']} {p['text']}".lower())
        }
        return {w for w in words if w.lower() in written}

    async def vessels(self) -> list[RegisteredVessel]:
        self.calls.append("vessels")
        return list(self.registry)

    async def vessel_documents(self, keys: Sequence[str]) -> list[str]:
        self.calls.append("vessel_documents")
        return sorted({d for k in keys for d in self.vessel_docs.get(k, [])})

    async def count(self, filters: SearchFilters) -> int:
        self.calls.append("count")
        return sum(self._admits(p, filters) for p in self.passages)

    async def examples(self) -> ArchiveExamples:
        """As the store picks them: the report with the most passages, the vessel the most
        documents name."""
        self.calls.append("examples")
        reports: dict[str, int] = {}
        for p in self.passages:
            if p["report_no"]:
                reports[p["report_no"]] = reports.get(p["report_no"], 0) + 1
        named = {v.key: len(self.vessel_docs.get(v.key, [])) for v in self.registry}
        vessels = sorted(self.registry, key=lambda v: (-named[v.key], v.name))
        return ArchiveExamples(
            documents=len({p["doc_id"] for p in self.passages}),
            report_no=min(reports, key=lambda r: (-reports[r], r)) if reports else None,
            vessel=vessels[0].name if vessels and named[vessels[0].key] else None,
        )


class CountingEmbeddings(Embeddings):
    """Deterministic bag-of-words hashing vectors; counts every call."""

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def _vector(self, text: str) -> list[float]:
        v = np.zeros(self.dim)
        for word in _words(text):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        norm = np.linalg.norm(v)
        return list(v / norm) if norm else list(v)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self._vector(text)


class FailingEmbeddings(Embeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("embedding service down (api_key=sk-secret-123456789012345)")

    def embed_query(self, text: str) -> list[float]:
        raise RuntimeError("embedding service down")


@dataclass
class FakeReranker:
    """Scores by term overlap with the question, scaled to [0, 1]; or fails on demand."""

    name: str = "fake-reranker"
    default_cutoff: float = 0.1
    default_floor: float = 0.2
    pool: int = 40
    fail: bool = False
    calls: int = 0

    async def rerank(
        self, query: str, documents: Sequence[str], *, candidates: Sequence[Passage] | None = None
    ) -> list[float]:
        self.calls += 1
        if self.fail:
            # What a provider raises: its failure with the secret already scrubbed.
            raise RerankError("reranker unavailable: Bearer [redacted]")
        terms = _words(query)
        return [len(terms & _words(d)) / (len(terms) or 1) for d in documents]


@dataclass
class FakeArchive:
    """Archive paths that exist; records each ``all_exist`` call."""

    present: set[str] | None = None  # None: everything exists
    calls: list[list[str]] = field(default_factory=list)

    async def all_exist(self, relatives: list[str]) -> list[bool]:
        self.calls.append(list(relatives))
        return [self.present is None or r in self.present for r in relatives]


def fleet_fixture() -> tuple[list[Passage], list[RegisteredVessel], dict[str, list[str]]]:
    """Two vessels, an NTSB report, a few passages."""
    nordic = RegisteredVessel("9234567", "NORDIC STAR", "9234567", "Bulk Carrier", "DNV")
    baltic = RegisteredVessel("9345678", "BALTIC TRADER", "9345678", "Oil Tanker", "ABS")
    passages = [
        passage(
            "a00000000001",
            "A cylinder liner crack was found on the main engine of Nordic "
            "Star during the inspection in Rotterdam. The liner was replaced and the engine "
            "tested.",
            doc_id="da0000000001",
            title="Main engine cylinder crack",
            kind="email",
            subject="RE: Cylinder crack ME unit 3",
            sender="chief@nordic.example",
            date=date(2019, 5, 2),
            thread_id="<t1@x>",
            vessel_name="NORDIC STAR",
        ),
        passage(
            "a00000000002",
            "Baltic Trader reported a ballast pump leak in the engine room. "
            "The pump seal was renewed by the crew.",
            doc_id="da0000000002",
            title="Ballast pump leak",
            kind="email",
            subject="Ballast pump leak",
            date=date(2021, 3, 9),
            vessel_name="BALTIC TRADER",
        ),
        passage(
            "a00000000003",
            "The pilot did not maintain airspeed during the approach and the "
            "airplane stalled. The probable cause was the pilot's failure to maintain "
            "airspeed.",
            doc_id="da0000000003",
            title="NTSB CEN22LA359",
            report_no="CEN22LA359",
            section="Probable Cause",
            date=date(2022, 6, 1),
        ),
        passage(
            "a00000000004",
            "The pilot reported a loss of engine power after takeoff; the "
            "airplane landed in a field.",
            doc_id="da0000000003",
            title="NTSB CEN22LA359",
            report_no="CEN22LA359",
            section="Analysis",
            date=date(2022, 6, 1),
        ),
    ]
    docs = {"9234567": ["da0000000001"], "9345678": ["da0000000002"]}
    return passages, [nordic, baltic], docs
