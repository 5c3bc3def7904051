"""A collection's originals store on real PostgreSQL and the S3 emulator: the collection records
where its originals are (every machine must agree), `bosun archive migrate` copies a local
archive resumably with verified copies and switches only when complete, `bosun delete` removes
originals no document cites any more, and a re-ingest uploads nothing."""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agent.archive_command import run_archive
from agent.cli import _delete
from agent.settings import Settings
from agent.wiring import open_services, originals_of
from archive.ingest.model import Section, SourceDocument
from archive.ingest.pipeline import ingest_documents
from archive.originals import LocalOriginals, OriginalsConfigError
from archive.originals.migrate import copy_one
from archive.originals.s3 import S3Originals
from archive.store.locks import ingest_stage
from archive.store.schema import StoreError
from tests.integration.test_conversation_postgres import fixture_documents
from tests.s3_server import CREDENTIALS, S3Server, s3_server

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    with s3_server(tmp_path_factory.mktemp("moto") / "moto.log") as running:
        yield running


@pytest.fixture(autouse=True)
def _aws(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)


def machine(settings: Settings, server: S3Server, url: str | None = None) -> Settings:
    """A fresh BOSUN_HOME and collection on the session's database, the emulator as endpoint."""
    home = Path(tempfile.mkdtemp(prefix="bosun-originals-"))
    return dataclasses.replace(
        settings,
        home=home,
        database_url=settings.database_uri(),
        collection=f"orig_{uuid.uuid4().hex[:8]}",
        archive_url=url,
        s3_endpoint_url=server.endpoint,
    )


async def migrate(settings: Settings, url: str, capsys: pytest.CaptureFixture[str]) -> Any:
    capsys.readouterr()
    status = await run_archive(settings, argparse.Namespace(action="migrate", to=url, json=True))
    return status, json.loads(capsys.readouterr().out)


async def cited_paths(settings: Settings) -> list[str]:
    local = LocalOriginals(settings.archive_dir)
    async with (
        open_services(settings, originals=local) as svc,
        svc.store.pool.connection() as conn,
    ):
        cur = await conn.execute("SELECT DISTINCT archive_path FROM documents ORDER BY 1")
        return [r["archive_path"] for r in await cur.fetchall()]


async def test_migrate_copies_verifies_resumes_and_switches_only_when_complete(
    settings: Settings, server: S3Server, capsys: pytest.CaptureFixture[str]
) -> None:
    local = machine(settings, server)
    async with open_services(local) as svc:
        report = await ingest_documents(
            fixture_documents(), svc.store, svc.embeddings, svc.archive, progress=False
        )
        assert not report.errors and isinstance(svc.archive, LocalOriginals)
    paths = await cited_paths(local)
    assert len(paths) == 3
    url = server.url("migrated")
    target = originals_of(local, url)
    assert isinstance(target, S3Originals)

    # One original lost locally: everything else is copied, nothing is switched.
    lost = local.archive_dir / paths[0]
    kept_bytes = lost.read_bytes()
    lost.unlink()
    status, first = await migrate(local, url, capsys)
    assert status == 1 and not first["switched"] and first["missing"] == [paths[0]]
    assert first["copied"] == len(paths) - 1
    async with open_services(local) as svc:  # still the local folder's collection
        assert isinstance(svc.archive, LocalOriginals)
    with pytest.raises(OriginalsConfigError, match="archive migrate --to"):
        async with open_services(dataclasses.replace(local, archive_url=url)):
            pass

    # Restored, and one copy in the storage damaged: the rerun copies those two only. An ingest
    # that opened the collection before the switch may not write it afterwards.
    lost.write_bytes(kept_bytes)
    damaged = f"migrated/{paths[1]}"
    server.client().put_object(Bucket=server.bucket, Key=damaged, Body=b"not the original")
    async with open_services(local) as stale:
        status, second = await migrate(local, url, capsys)
        with pytest.raises(StoreError, match=f"now keeps its originals in {url}"):
            async with ingest_stage(stale.store, exclusive=False):
                pass
    assert status == 0 and second["switched"] and second["missing"] == []
    assert (second["copied"], second["already_there"]) == (2, len(paths) - 2)
    for path in paths:
        data = (local.archive_dir / path).read_bytes()
        head = target.head(path)
        assert head is not None and head["ContentLength"] == len(data)
        assert head["Metadata"]["sha256"] == hashlib.sha256(data).hexdigest()

    status, third = await migrate(local, url, capsys)
    assert status == 0 and third["switched"] and third["copied"] == 0

    # Switched: the collection opens on the storage only, and every citation target is there.
    switched = dataclasses.replace(local, archive_url=url)
    async with open_services(switched) as svc:
        assert svc.archive.location == url
        assert await svc.archive.all_exist(paths) == [True] * len(paths)
    with pytest.raises(OriginalsConfigError, match=f"BOSUN_ARCHIVE_URL={url}"):
        async with open_services(local):
            pass
    with pytest.raises(OriginalsConfigError, match="not BOSUN_ARCHIVE_URL"):
        async with open_services(dataclasses.replace(local, archive_url=server.url("other"))):
            pass
    target.close()


async def test_copy_one_skips_a_verified_copy(settings: Settings, server: S3Server) -> None:
    local = machine(settings, server)
    source = LocalOriginals(local.archive_dir)
    path = source.put("email", "f00000000001", "a.eml", b"an original")
    target = originals_of(local, server.url("copy-one"))
    assert isinstance(target, S3Originals)
    assert copy_one(path, source, target) == ("copied", 11)
    assert copy_one(path, source, target) == ("present", 11)
    assert copy_one("email/f00000000002/gone.eml", source, target) == ("missing", 0)
    target.close()


def attachment(source_id: str, data: bytes) -> SourceDocument:
    return SourceDocument(
        kind="attachment",
        source_id=source_id,
        title=f"Attachment {source_id}",
        sections=[Section("body", f"Bunker delivery note {source_id}: 412 tonnes of VLSFO.")],
        original=data,
        archive_name="bdn.pdf",
        parent_id=None,
    )


async def test_delete_removes_originals_no_document_cites_and_reingest_uploads_nothing(
    settings: Settings, server: S3Server, capsys: pytest.CaptureFixture[str]
) -> None:
    url = server.url("deletes")
    remote = machine(settings, server, url)
    shared = b"%PDF-1.4 one bunker delivery note, attached twice"
    docs = [*fixture_documents(), attachment("bdn-a", shared), attachment("bdn-b", shared)]
    async with open_services(remote) as svc:
        assert isinstance(svc.archive, S3Originals)
        await ingest_documents(docs, svc.store, svc.embeddings, svc.archive, progress=False)
        stored = server.keys("deletes/")
        assert len(stored) == len(docs) - 1  # the two attachments share one object
        uploads: list[str] = []
        svc.archive.client.meta.events.register(
            "provide-client-params.s3.PutObject", lambda params, **_: uploads.append(params["Key"])
        )
        again = await ingest_documents(docs, svc.store, svc.embeddings, svc.archive, progress=False)
        assert again.unchanged == len(docs) and uploads == []

        shared_key = f"deletes/{hashlib.sha256(shared).hexdigest()}/bdn.pdf"
        capsys.readouterr()
        await _delete(svc, argparse.Namespace(source_ids=["bdn-a"], json=True))
        assert json.loads(capsys.readouterr().out)["originals_removed"] == 0  # bdn-b cites it
        assert shared_key in server.keys("deletes/")
        gone = ["bdn-b", "<kd-2@kestrel.example>"]
        await _delete(svc, argparse.Namespace(source_ids=gone, json=True))
        left = server.keys("deletes/")
        assert shared_key not in left and not any(k.endswith("/kd-2.eml") for k in left)
        assert {k for k in stored if k != shared_key and not k.endswith("/kd-2.eml")} <= set(left)


async def test_delete_while_the_storage_is_down_deletes_the_documents_and_says_what_is_left(
    settings: Settings, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with s3_server(tmp_path / "moto.log") as down:
        remote = machine(settings, down, down.url("outage"))
        async with open_services(remote) as svc:
            await ingest_documents(
                fixture_documents(), svc.store, svc.embeddings, svc.archive, progress=False
            )
            down.stop()
            capsys.readouterr()
            status = await _delete(
                svc, argparse.Namespace(source_ids=["<kd-2@kestrel.example>"], json=True)
            )
            summary = json.loads(capsys.readouterr().out)
            assert status == 1 and summary["documents"] == 1  # the index no longer cites it
            assert summary["originals_removed"] == 0 and len(summary["originals_left"]) == 1
            assert summary["originals_left"][0].endswith("/kd-2.eml")
