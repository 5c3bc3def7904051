"""The writer against real PostgreSQL: a document larger than a batch is committed slice by slice
(a cancelled run leaves it partly stored, a rerun embeds only the rest), and a document the
database refuses is one line of the report while the documents around it are stored."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.loaders.text import text_document
from archive.ingest.model import SourceDocument
from archive.ingest.writer import WriteReport, write_documents
from archive.store.documents import PARTIAL
from tests.fakes.clients import CountingEmbeddings

pytestmark = pytest.mark.integration

SLICE = 16


@pytest.fixture
async def svc(settings: Settings, request: pytest.FixtureRequest) -> AsyncIterator[Services]:
    name = f"{settings.collection}_{request.node.name[:20].lower()}"
    async with open_services(settings, collection=name) as opened:
        yield opened


def _doc(name: str, sentences: int, origin: str = "") -> SourceDocument:
    body = "\n\n".join(
        f"Paragraph {n} of {name}: the bilge pump number {n} was inspected and its seal renewed "
        f"after the alarm sounded on watch {n}, and the chief recorded the readings in the log."
        for n in range(sentences)
    )
    doc = text_document(name, body, original=body.encode())
    doc.origin = origin or f"/archive/{name}"
    return doc


class Embedder:
    """Hashing vectors of the collection's size; ``hold_at``: the call that waits for ever (the
    run is cancelled there); ``refuse``: texts holding it get a vector the database refuses."""

    def __init__(self, dim: int, hold_at: int | None = None, refuse: str = "") -> None:
        self.model = CountingEmbeddings(dim)
        self.hold_at, self.refuse = hold_at, refuse
        self.texts = 0
        self.calls = 0
        self.holding = asyncio.Event()

    async def __call__(self, texts: list[str]) -> Sequence[Sequence[float]]:
        self.calls += 1
        if self.calls == self.hold_at:
            self.holding.set()
            await asyncio.Event().wait()
        self.texts += len(texts)
        return [
            [0.5, 0.5, 0.5] if self.refuse and self.refuse in t else self.model._vector(t)
            for t in texts
        ]


async def _stored(svc: Services, source_id: str) -> dict[str, Any]:
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT d.content_hash, d.chunk_count, count(c.chunk_id) AS chunks,"
            " count(DISTINCT c.chunk_id) AS distinct_chunks"
            " FROM documents d LEFT JOIN chunks c USING (doc_id) WHERE d.source_id = %s"
            " GROUP BY d.content_hash, d.chunk_count",
            (source_id,),
        )
        row = await cur.fetchone()
    return dict(row) if row else {}


async def _write(svc: Services, docs: list[SourceDocument], embed: Embedder) -> WriteReport:
    return await write_documents(
        docs, svc.store, svc.embeddings, svc.archive, batch_chunks=SLICE, embed=embed, depth=1
    )


async def test_a_large_document_commits_slice_by_slice_and_a_rerun_continues_it(
    svc: Services,
) -> None:
    dim = len(svc.embeddings.embed_query("x"))
    small, big, after = _doc("small.txt", 2), _doc("big.txt", 600), _doc("after.txt", 2)
    embed = Embedder(dim, hold_at=4)
    run = asyncio.ensure_future(_write(svc, [small, big, after], embed))
    await asyncio.wait_for(embed.holding.wait(), timeout=300)
    await asyncio.sleep(0.2)  # the batches before the held one are committed by now
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    for doc in (small, after):  # the documents beside the large one are not held back
        assert (await _stored(svc, doc.source_id))["content_hash"] == doc.content_hash
    partial = await _stored(svc, "big.txt")
    assert partial["content_hash"] == PARTIAL + big.content_hash
    assert 0 < partial["chunks"] < partial["chunk_count"]

    rest = Embedder(dim)
    report = await _write(svc, [small, big, after], rest)
    done = await _stored(svc, "big.txt")
    assert done["content_hash"] == big.content_hash
    assert done["chunks"] == done["distinct_chunks"] == done["chunk_count"]
    assert rest.texts == done["chunk_count"] - partial["chunks"]  # only what was missing
    assert (report.added, report.unchanged, report.errors) == (1, 2, [])
    assert max(rest.calls, 1) >= (rest.texts + SLICE - 1) // SLICE


async def test_a_document_the_database_refuses_is_one_report_line(svc: Services) -> None:
    dim = len(svc.embeddings.embed_query("x"))
    bad = _doc("refused.txt", 3, origin="/mail/refused.txt")
    bad.sections[0] = type(bad.sections[0])("body", bad.sections[0].text + " REFUSE-ME")
    docs = [_doc("before.txt", 3), bad, _doc("after.txt", 3)]
    for attempt in range(2):  # a rerun fails on the same file only, the rest is unchanged
        report = await _write(svc, docs, Embedder(dim, refuse="REFUSE-ME"))
        assert [(Path(e.path).name, e.reason.split(":")[0]) for e in report.errors] == [
            ("refused.txt", "not stored")
        ]
        assert "DataError" in report.errors[0].reason or "Data" in report.errors[0].reason
        assert (report.added, report.unchanged) == ((2, 0) if attempt == 0 else (0, 2))
    assert await _stored(svc, "refused.txt") == {}
    for name in ("before.txt", "after.txt"):
        assert (await _stored(svc, name))["chunks"] > 0
