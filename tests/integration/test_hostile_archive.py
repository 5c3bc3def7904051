"""A hostile mailbox (tests/hostile_mail.py) through real ingest into PostgreSQL, the offline
composer and a strict fake chat model that obeys any instruction it can see: every mail is
stored (NUL bytes, bidi controls, MIME 1,000 deep included), a rerun fails on none, the planted
instructions are marked, and no answer holds one; an answer that repeats one is flagged."""

from __future__ import annotations

import dataclasses
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from agent.settings import Settings
from agent.wiring import Services, build_clients, open_services
from archive.ingest.pipeline import ingest_paths
from graph.builder import build_graph
from tests.fakes.obedient import ObedientModel
from tests.hostile_mail import PAYLOAD, Planted, broken_mails, write_mailbox

pytestmark = pytest.mark.integration

GOOD = (
    b"From: master@fleet.example\nSubject: Sea Swift crew change\n"
    b"Message-ID: <good@fleet.example>\n\nThe Sea Swift crew change went ahead in Durban.\n"
)
#: The mails whose instruction survives parsing (hidden HTML and alt text are dropped by it).
MARKED = {
    "white_on_white.eml",
    "text_attachment.eml",
    "pdf_attachment.eml",
    "base64_body.eml",
    "quoted_printable.eml",
    "rfc2047_subject.eml",
    "homoglyphs.eml",
}


@pytest.fixture(scope="module")
async def hostile(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[tuple[Services, list[Planted], Path]]:
    folder = tmp_path_factory.mktemp("hostile-mail")
    planted = write_mailbox(folder)
    (folder / "good.eml").write_bytes(GOOD)
    async with open_services(settings, collection=f"{settings.collection}_hostile") as svc:
        report = await ingest_paths(
            [folder], svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert report.errors == [], report.errors
        assert report.added == len(planted) + len(broken_mails()) + 1 + 3  # + 3 attachments
        yield svc, planted, folder


async def _rows(svc: Services, query: str, *args: Any) -> list[dict[str, Any]]:
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(query, args)
        return list(await cur.fetchall())


async def test_every_mail_is_stored_and_a_rerun_fails_on_none(hostile: Any) -> None:
    svc, _, folder = hostile
    rows = await _rows(svc, "SELECT subject, source_id, title FROM documents WHERE kind = 'email'")
    subjects = {r["subject"] for r in rows}
    assert {"x  y", "Invoice gpj.exe", "deep", "Sea Swift crew change"} <= subjects
    for row in rows:
        for value in row.values():
            assert "\x00" not in value and "\u202e" not in value, row
    again = await ingest_paths([folder], svc.store, svc.embeddings, svc.archive, progress=False)
    assert again.errors == [] and (again.added, again.updated) == (0, 0)
    assert again.unchanged == len(rows) + 3


async def test_the_planted_instructions_are_marked_and_nothing_else(hostile: Any) -> None:
    svc, planted, _ = hostile
    rows = await _rows(
        svc,
        "SELECT d.source_id, d.kind, c.instructions FROM chunks c JOIN documents d USING (doc_id)",
    )
    marked = {r["source_id"].split("/")[0] for r in rows if r["instructions"]}
    ids = {m.name: f"hostile-{n}@fleet.example" for n, m in enumerate(planted, start=1)}
    assert marked == {ids[name] for name in MARKED}, marked
    assert all(r["instructions"] == [] for r in rows if "good@" in r["source_id"])


def _holds_payload(text: str) -> bool:
    return PAYLOAD.lower() in re.sub(r"[^a-z]", "", text.lower())


async def _answers(svc: Services, questions: list[str], model: ObedientModel | None) -> list[Any]:
    clients = build_clients(svc, offline=True)
    if model is not None:
        clients = dataclasses.replace(clients, chat_model=model)
    graph = build_graph(clients, checkpointer=InMemorySaver())
    states = []
    for question in questions:
        config: Any = {"configurable": {"thread_id": uuid.uuid4().hex}}
        states.append(await graph.ainvoke({"messages": [HumanMessage(question)]}, config))
    return states


async def test_no_offline_answer_holds_a_planted_instruction(hostile: Any) -> None:
    svc, planted, _ = hostile
    states = await _answers(svc, [m.question for m in planted], None)
    for mail, state in zip(planted, states, strict=True):
        answer = str(state["messages"][-1].content)
        assert not _holds_payload(answer), (mail.name, answer)
    answered = [
        m for m, s in zip(planted, states, strict=True) if m.fact in str(s["messages"][-1].content)
    ]
    assert len(answered) >= len(planted) // 2, "the honest facts should still be answered"


async def test_an_obedient_model_never_sees_an_instruction_outside_quotes(hostile: Any) -> None:
    svc, planted, _ = hostile
    model = ObedientModel()
    states = await _answers(svc, [m.question for m in planted], model)
    assert model.obeyed == 0
    for mail, state in zip(planted, states, strict=True):
        assert not _holds_payload(str(state["messages"][-1].content)), mail.name
    quoted = [c for call in model.calls for m in call for c in [m.text] if "<<<QUOTED" in c]
    assert quoted, "the marked passages reached the model quoted"


async def test_an_answer_repeating_a_planted_instruction_is_flagged(hostile: Any) -> None:
    svc, planted, _ = hostile
    marked = [m for m in planted if m.name in MARKED]
    model = ObedientModel(parrot=True)
    states = await _answers(svc, [m.question for m in marked], model)
    flagged = [s for s in states if s["diagnostics"]["citation_check"].get("planted_instructions")]
    retrieved_marked = [s for s in states if any(r.get("instructions") for r in s["ranked"])]
    assert retrieved_marked and len(flagged) == len(retrieved_marked)
    for state in flagged:
        assert state["diagnostics"]["citation_check"]["flagged"] is True
        assert "planted as an instruction" in str(state["messages"][-1].content)


async def test_passages_stored_before_the_marks_existed_are_read_by_the_next_ingest(
    hostile: Any,
) -> None:
    svc, _, folder = hostile
    query = "SELECT chunk_id, instructions FROM chunks ORDER BY chunk_id"
    marks = {r["chunk_id"]: r["instructions"] for r in await _rows(svc, query)}
    async with svc.store.pool.connection() as conn:  # as migration 012 leaves older passages
        await conn.execute("UPDATE chunks SET instructions = NULL")
    report = await ingest_paths([folder], svc.store, svc.embeddings, svc.archive, progress=False)
    assert report.read["instruction_chunks"] == len(marks) and report.chunks_added == 0
    assert {r["chunk_id"]: r["instructions"] for r in await _rows(svc, query)} == marks
