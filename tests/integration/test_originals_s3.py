"""The object-storage originals store against a standalone S3 server on 127.0.0.1 (moto's
emulator), through the real boto3 client: put once by content, HEAD checks, pre-signed GETs
fetched over HTTP, delete, and an outage (the server stopped, or one that never answers)."""

from __future__ import annotations

import asyncio
import hashlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from archive.originals import StorageUnavailable, open_originals
from archive.originals.s3 import S3Originals
from graph.builder import Clients, build_graph
from graph.context import Context
from tests.fakes.clients import FakeBackend, FakeReranker, fleet_fixture
from tests.fault_matrix import assert_told
from tests.s3_server import CREDENTIALS, S3Server, s3_server

pytestmark = pytest.mark.integration

PDF = b"%PDF-1.4 the original report\n" * 40


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    with s3_server(tmp_path_factory.mktemp("moto") / "moto.log") as running:
        yield running


@pytest.fixture(autouse=True)
def _aws(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)


def store_on(server: S3Server, prefix: str, *, timeout_s: float = 5.0) -> S3Originals:
    opened = open_originals(
        server.url(prefix), Path("/nonexistent"), endpoint_url=server.endpoint, timeout_s=timeout_s
    )
    assert isinstance(opened, S3Originals)
    return opened


def count_calls(store: S3Originals, operation: str) -> list[str]:
    """Every ``operation`` (e.g. PutObject) the store's client sends, by key."""
    calls: list[str] = []

    def record(params: dict[str, Any], **_: Any) -> None:
        calls.append(params["Key"])

    store.client.meta.events.register(f"provide-client-params.s3.{operation}", record)
    return calls


def test_an_original_is_uploaded_once_keyed_by_its_content(server: S3Server) -> None:
    store = store_on(server, "once")
    puts = count_calls(store, "PutObject")
    first = store.put("ntsb_report", "a00000000001", "ERA25LA084.pdf", PDF)
    again = store.put("ntsb_report", "a00000000001", "ERA25LA084.pdf", PDF)
    shared = store.put("attachment", "b00000000002", "ERA25LA084.pdf", PDF)  # same bytes
    changed = store.put("ntsb_report", "a00000000001", "ERA25LA084.pdf", PDF + b"rev 2")

    assert first == again == shared == f"{hashlib.sha256(PDF).hexdigest()}/ERA25LA084.pdf"
    assert changed != first and changed.endswith("/ERA25LA084.pdf")
    assert puts == [f"once/{first}", f"once/{changed}"]  # two uploads for four puts
    assert server.keys("once/") == sorted(puts)
    head = server.client().head_object(Bucket=server.bucket, Key=f"once/{first}")
    assert head["ContentLength"] == len(PDF)
    assert head["Metadata"]["sha256"] == hashlib.sha256(PDF).hexdigest()
    store.close()


async def test_all_exist_heads_every_entry_concurrently(server: S3Server) -> None:
    store = store_on(server, "heads")
    paths = [store.put("email", f"{i:012x}", f"m{i}.eml", f"mail {i}".encode()) for i in range(40)]
    heads = count_calls(store, "HeadObject")
    asked = [*paths, "0" * 64 + "/missing.pdf", paths[3]]
    assert await store.all_exist(asked) == [True] * 40 + [False, True]
    assert sorted(heads) == sorted(f"heads/{p}" for p in asked)  # one HEAD per entry
    store.close()


def test_a_presigned_link_downloads_the_original_under_its_name(server: S3Server) -> None:
    store = store_on(server, "links")
    path = store.put("ntsb_report", "a00000000001", "ERA25LA084.pdf", PDF)
    url = store.download_url(path, ttl_s=300)

    got = httpx.get(url, timeout=10)
    assert got.status_code == 200 and got.content == PDF
    assert got.headers["content-disposition"] == 'attachment; filename="ERA25LA084.pdf"'
    assert url.startswith(f"{server.endpoint}/{server.bucket}/links/")  # the storage serves it
    store.close()


def test_a_presigned_link_carries_its_expiry_and_signature(server: S3Server) -> None:
    """What makes the link expire on AWS, MinIO or Ceph: SigV4 with X-Amz-Expires = the TTL
    (the emulator itself does not enforce it, so the URL's own terms are checked)."""
    store = store_on(server, "expiry")
    path = store.put("email", "c00000000003", "note.eml", b"Subject: hi\n\nbody")
    short, default = store.download_url(path, ttl_s=5), store.download_url(path, ttl_s=300)
    terms = [parse_qs(urlsplit(u).query) for u in (short, default)]
    assert [t["X-Amz-Expires"] for t in terms] == [["5"], ["300"]]
    assert all(t["X-Amz-Algorithm"] == ["AWS4-HMAC-SHA256"] for t in terms)
    assert all(len(t["X-Amz-Signature"][0]) == 64 for t in terms)
    assert CREDENTIALS["AWS_ACCESS_KEY_ID"] in terms[0]["X-Amz-Credential"][0]
    assert "bosun-test-secret" not in short  # the secret signs the link, never travels in it
    store.close()


async def test_delete_removes_the_object(server: S3Server) -> None:
    store = store_on(server, "gone")
    kept = store.put("email", "d00000000004", "kept.eml", b"kept")
    dropped = store.put("email", "d00000000005", "dropped.eml", b"dropped")
    assert store.delete([dropped, "0" * 64 + "/never-there.eml"]) == 2  # missing: no error
    assert await store.all_exist([kept, dropped]) == [True, False]
    async with httpx.AsyncClient(timeout=10) as http:
        gone = await http.get(store.download_url(dropped, ttl_s=60))
    assert gone.status_code in (403, 404)  # what S3 answers for a missing key
    assert server.keys("gone/") == [f"gone/{kept}"]
    store.close()


async def test_a_storage_outage_is_an_oserror_the_citation_check_degrades_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Server stopped: checks and uploads raise StorageUnavailable (an OSError); a turn's
    citations are removed and the answer flagged with the fault matrix's archive row."""
    with s3_server(tmp_path / "moto.log") as down:
        store = store_on(down, "outage", timeout_s=2.0)
        passages, registry, docs = fleet_fixture()
        for p in passages:  # every original the fixture's passages cite, really stored
            store.upload(p["archive_path"], f"original of {p['chunk_id']}".encode())
        up = await turn(store, passages, registry, docs)
        assert up["citations"] and not up["diagnostics"]["citation_check"]["flagged"]
        assert not any(n.startswith("archive storage") for n in up["diagnostics"]["degraded"])

        down.stop()
        with pytest.raises(StorageUnavailable) as raised:
            await store.all_exist([passages[0]["archive_path"]])
        assert isinstance(raised.value, OSError)
        with pytest.raises(StorageUnavailable):
            store.put("email", "e00000000006", "new.eml", b"while the storage is down")
        state = await turn(store, passages, registry, docs)
        assert state["citations"] == [] and state["diagnostics"]["citation_check"]["flagged"]
        notes = [
            n for n in state["diagnostics"]["degraded"] if n.startswith("archive storage failed")
        ]
        assert len(notes) == 1 and "citations removed" in notes[0]
        assert state["messages"][-1].text  # still an answer, flagged
        assert_told("archive.missing", state, caplog, None)  # the matrix row, logged once
        store.close()


async def test_a_storage_that_never_answers_fails_within_its_timeout() -> None:
    """A port that accepts and stays silent: the check gives up (one timeout for all the
    HEADs) with StorageUnavailable instead of holding the turn."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        silent.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(silent.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    endpoint = f"http://127.0.0.1:{silent.getsockname()[1]}"
    store = open_originals("s3://silent-bucket/p", Path("/x"), endpoint_url=endpoint, timeout_s=1)
    try:
        with pytest.raises(StorageUnavailable, match="did not answer 3 checks in 1 s"):
            await store.all_exist(["a/1.pdf", "a/2.pdf", "a/3.pdf"])
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        silent.close()
        store.close()


async def turn(store: S3Originals, passages: Any, registry: Any, docs: Any) -> dict[str, Any]:
    """One offline turn of the graph whose citation check asks ``store``."""
    clients = Clients(
        backend=FakeBackend(passages, registry, docs), archive=store, reranker=FakeReranker()
    )
    graph = build_graph(clients, checkpointer=InMemorySaver())
    state: dict[str, Any] = await asyncio.wait_for(
        graph.ainvoke(
            {"messages": [HumanMessage("How was the cylinder crack on Nordic Star resolved?")]},
            {"configurable": {"thread_id": "t"}},
            context=Context(),
        ),
        120,
    )
    return state


def test_credentials_and_region_come_from_a_named_profile(
    server: S3Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AWS_PROFILE as boto3 reads it: the profile's keys sign the requests, its region the
    links (no AWS_ACCESS_KEY_ID in the environment)."""
    for name in CREDENTIALS:
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "credentials").write_text(
        "[fleet]\naws_access_key_id = profile-key-id\naws_secret_access_key = profile-secret\n"
    )
    (tmp_path / "config").write_text("[profile fleet]\nregion = eu-north-1\n")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_PROFILE", "fleet")
    store = store_on(server, "profile")
    path = store.put("email", "f00000000007", "p.eml", b"through the profile")
    credential = parse_qs(urlsplit(store.download_url(path, ttl_s=60)).query)["X-Amz-Credential"]
    assert credential[0].startswith("profile-key-id/") and "/eu-north-1/s3/" in credential[0]
    assert (
        httpx.get(store.download_url(path, ttl_s=60), timeout=10).content == b"through the profile"
    )
    store.close()
