"""Every citation traced email → attachment → page: a passage from an attachment names the
message it came with in the stream's payload, the citation detail and the source list, and the
message itself downloads beside the attachment."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.pipeline import ingest_paths
from tests.integration.server_harness import ask, serve

pytestmark = pytest.mark.integration

MAIL = Path(__file__).resolve().parents[2] / "examples" / "archive" / "fleet-mail"
QUESTION = "What did the jacket cooling water log record for the Nordic Star main engine?"


@pytest.fixture(scope="module")
async def client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    own = dataclasses.replace(settings, collection=f"lineage_{uuid.uuid4().hex[:8]}")
    async with open_services(own) as services:
        store, embeddings, archive = services.store, services.embeddings, services.archive
        report = await ingest_paths([MAIL], store, embeddings, archive, progress=False)
        assert not report.errors
    async with serve(own) as http:
        yield http


async def test_an_attachment_citation_names_its_message_and_offers_both_files(
    client: httpx.AsyncClient,
) -> None:
    events = dict(await ask(client, QUESTION))
    cited = [c for c in events["citations"]["citations"] if c["kind"] == "attachment"]
    assert cited, events["citations"]
    attachment = cited[0]
    assert attachment["lineage"].startswith('jacket-water-log.txt — attached to "')
    assert attachment["lineage"].endswith("from technical@bosun-shipping.example, 2025-01-13")
    detail = (await client.get(f"/api/citations/{attachment['chunk_id']}")).json()
    parent = detail["parent"]
    assert parent["subject"].startswith("RE:") and parent["chunk_id"]
    message = await client.get(parent["download_url"])
    file = await client.get(detail["download_url"])
    assert message.status_code == file.status_code == 200
    assert b"Content-Disposition: attachment" in message.content  # the whole .eml
    assert file.content.startswith(b"Jacket cooling water log")  # the attachment alone
    plain = [c for c in events["citations"]["citations"] if c["kind"] == "email"]
    assert all(c["lineage"] is None for c in plain)  # a message is its own lineage
