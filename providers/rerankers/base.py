"""What every reranker is: the protocol, its error, and the text it reads for a passage."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, runtime_checkable

from archive.store.passages import Passage
from providers.scrub import scrub_secrets

#: Candidates a reranker orders per search unless the run says otherwise: the rerank budget
#: (<= 100 ms p50 on 2 cores) and what the shipped feature reranker was fitted on.
POOL = 40


class RerankError(Exception):
    """The reranker could not score the documents; the message is safe to log."""


@runtime_checkable
class Reranker(Protocol):
    """Scores documents against a query; higher is more relevant."""

    name: str  # provider and model, for logs and traces
    default_cutoff: float  # best score below this: nothing relevant was found
    default_floor: float  # passages below this are noise (the best one always stays)
    pool: int  # candidates it orders per search (POOL; a reranker `bosun adapt` fitted: its own)

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Passage] | None = None,
    ) -> list[float]:
        """Relevance in [0, 1] of each document, in the order given.

        ``candidates`` (optional, same order and length as ``documents``) carry the retrieval scores
        and fields; rerankers that use them are faster and better with them, the others ignore them.
        Raises :class:`RerankError` on any provider failure.
        """
        ...


def failure(name: str, err: BaseException, secrets: Sequence[str | None] = ()) -> str:
    """A log-safe one-line description of a provider failure (keys and credentials scrubbed)."""
    return scrub_secrets(f"{name} failed: {type(err).__name__}: {err}", secrets)[:500]


def rerank_text(passage: Passage) -> str:
    """What a reranker reads for a passage: its title and subject on the first line, then the text.

    (The seed pipeline's prefix: it lets the reranker tell apart incidents with similar wording;
    the feature weights were trained on exactly this form.)
    """
    head = " | ".join(part for part in (passage["title"], passage["subject"]) if part)
    return f"{head}\n{passage['text']}" if head else passage["text"]


def document_of(passage: Passage, position: int) -> Hashable:
    """What groups passages into documents: the stored document id, else the source id, else
    the passage's own position (a document of its own)."""
    return passage["doc_id"] or passage["source_id"] or position
