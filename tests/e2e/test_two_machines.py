"""Two machines simulated on one: two `bosun serve` processes with separate BOSUN_HOMEs, one
shared PostgreSQL and one S3 archive (moto's emulator on 127.0.0.1). A document ingested
through machine A is cited, verified and downloaded through machine B; a turn's thread opens
and continues on either; `bosun delete` on B removes the original from the storage. This is
the deployment docs/deployment.md describes, at its smallest."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from agent.server.signing import signed_url
from agent.settings import Settings
from tests.e2e.harness import ROOT, Bosun, free_port, offline_env, running_server
from tests.integration.server_harness import frames
from tests.s3_server import S3Server, s3_server

pytestmark = pytest.mark.e2e

QUESTION = "What was the probable cause of the ERA25LA084 accident?"
REPORT = ROOT / "examples" / "archive" / "ntsb" / "ERA25LA084.pdf"


@dataclass(frozen=True)
class Machine:
    """One machine: its own home, the shared database, collection and storage."""

    cli: Bosun
    url: str  # its `bosun serve`
    home: Path


@pytest.fixture(scope="module")
def storage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[S3Server]:
    with s3_server(tmp_path_factory.mktemp("moto") / "moto.log") as running:
        yield running


@pytest.fixture(scope="module")
def machines(
    settings: Settings, storage: S3Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Machine, Machine]]:
    collection = f"two_{uuid.uuid4().hex[:8]}"
    homes = [Path(tempfile.mkdtemp(prefix=f"bosun-machine-{n}-")) for n in "ab"]
    clis = []
    for home in homes:
        home.chmod(0o755)
        env = offline_env(settings)  # DATABASE_URL: the session's one PostgreSQL
        env.update(storage.env)
        env.update(
            BOSUN_HOME=str(home),
            BOSUN_COLLECTION=collection,
            BOSUN_ARCHIVE_URL=storage.url("fleet"),
        )
        clis.append(Bosun(settings, env))
    logs = tmp_path_factory.mktemp("serve")
    ports = [free_port(), free_port()]
    try:
        with (
            running_server(_serve(clis[0], ports[0]), clis[0].env, ports[0], "/api/health",
                           logs / "a.log", 120.0) as url_a,
            running_server(_serve(clis[1], ports[1]), clis[1].env, ports[1], "/api/health",
                           logs / "b.log", 120.0) as url_b,
        ):  # fmt: skip
            yield Machine(clis[0], url_a, homes[0]), Machine(clis[1], url_b, homes[1])
    finally:
        for home in homes:
            shutil.rmtree(home, ignore_errors=True)


def _serve(cli: Bosun, port: int) -> list[str]:
    return [*cli.command, "serve", "--port", str(port)]


@pytest.fixture(scope="module")
def ingested_on_a(
    machines: tuple[Machine, Machine], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    a, _ = machines
    folder = tmp_path_factory.mktemp("inbox")
    shutil.copy(REPORT, folder / REPORT.name)
    shutil.copytree(ROOT / "examples" / "archive" / "fleet-mail", folder / "fleet-mail")
    summary = a.cli.run("ingest", str(folder), "--json", timeout=600).json()
    assert summary["errors"] == [] and summary["added"] >= 6, summary
    return summary


def test_a_document_ingested_on_a_is_cited_verified_and_downloaded_on_b(
    machines: tuple[Machine, Machine], ingested_on_a: dict[str, Any], storage: S3Server
) -> None:
    a, b = machines
    assert not (a.home / "archive").exists()  # nothing kept on machine A's disk
    assert any(k.endswith("/ERA25LA084.pdf") for k in storage.keys("fleet/"))

    events = frames(httpx.post(f"{b.url}/api/chat", json={"message": QUESTION}, timeout=300).text)
    final = events[-1][1]
    assert events[-1][0] == "final", events[-1]
    cited = final["citations"]
    assert cited and not final["flagged"], final
    assert not any(n.startswith("archive storage") for n in final["degraded"]), final["degraded"]
    report = next(c for c in cited if c["source_id"] == "ERA25LA084")

    detail = httpx.get(f"{b.url}/api/citations/{report['chunk_id']}", timeout=30).json()
    link = detail["download_url"]
    assert link.startswith(f"{storage.endpoint}/{storage.bucket}/fleet/")  # pre-signed by B
    assert "X-Amz-Expires=300" in link
    original = httpx.get(link, timeout=30)
    assert original.status_code == 200 and original.content == REPORT.read_bytes()
    # B's own signed /api/files link (its secret) is refused: the storage serves the originals.
    secret = (b.home / "server-secret").read_bytes().strip()
    path = link.split(f"/{storage.bucket}/fleet/", 1)[1].split("?", 1)[0]
    local_link = signed_url(secret, path, user="local", ttl_s=60)
    refused = httpx.get(f"{b.url}{local_link}", timeout=10)
    assert refused.status_code == 404 and "object storage" in refused.text


def test_a_thread_opens_and_continues_on_either_machine(
    machines: tuple[Machine, Machine], ingested_on_a: dict[str, Any]
) -> None:
    a, b = machines
    thread = f"two-machines-{uuid.uuid4().hex[:6]}"
    first = frames(
        httpx.post(
            f"{a.url}/api/chat", json={"thread_id": thread, "message": QUESTION}, timeout=300
        ).text
    )[-1][1]
    on_b = httpx.get(f"{b.url}/api/threads/{thread}", timeout=30).json()
    user, answer = on_b["messages"]
    assert user["content"] == QUESTION and answer["id"] == first["message_id"]
    assert [c["chunk_id"] for c in answer["citations"]] == [
        c["chunk_id"] for c in first["citations"]
    ]
    assert all(c["download_url"].startswith("http://127.0.0.1:") for c in answer["citations"])

    follow = frames(
        httpx.post(
            f"{b.url}/api/chat",
            json={"thread_id": thread, "message": "Where did it happen?"},
            timeout=300,
        ).text
    )[-1][1]
    assert follow["filters"].get("report_no") == "ERA25LA084"  # carried over from machine A
    on_a = httpx.get(f"{a.url}/api/threads/{thread}", timeout=30).json()
    assert [m["role"] for m in on_a["messages"]] == ["user", "assistant", "user", "assistant"]


def test_delete_on_b_removes_the_original_from_the_storage(
    machines: tuple[Machine, Machine], ingested_on_a: dict[str, Any], storage: S3Server
) -> None:
    _, b = machines
    email = "ns-2025-001"  # 01-crack-report.eml, archived under its Message-ID
    assert any(email in k for k in storage.keys("fleet/"))
    status = b.cli.run("status", "--json").json()
    assert status["archive"] == storage.url("fleet")
    deleted = b.cli.run("delete", "ns-2025-001@nordicstar.example", "--json").json()
    assert deleted["documents"] >= 1 and deleted["originals_removed"] >= 1
    assert not any(email in k for k in storage.keys("fleet/"))
