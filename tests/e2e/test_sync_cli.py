"""`bosun sync` as a user runs it against a real IMAP server (dovecot on 127.0.0.1): the
password from a file is never echoed, a second sync reads nothing, an address that would send
the password in clear is refused, and `bosun serve` keeps the mailbox in sync on a schedule."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.settings import Settings
from tests import dovecot
from tests.e2e.harness import Bosun, free_port, offline_env, running_server

MESSAGES = (
    "16b5c037dd97b5fb12caf5843707f939f808b018.eml",
    "6367e1bf6c6c4d04946aa12bc034def148706980.eml",
    "d73d33501d2095d1219da2daedd98e0dd14305d3.eml",
)

pytestmark = pytest.mark.skipif(
    not dovecot.available(), reason="dovecot-imapd is not installed (.ci/run installs it)"
)


@pytest.fixture
def server(shared_data: Path) -> Iterator[dovecot.Dovecot]:
    with dovecot.running() as imap:
        with imap.client() as client:
            for name in MESSAGES:
                client.append("INBOX", (shared_data / "email" / "usrp-users" / name).read_bytes())
        yield imap


@pytest.fixture
def cli(settings: Settings, tmp_path: Path) -> Bosun:
    """The CLI on a collection of its own, the mailbox password in a file."""
    own = dataclasses.replace(settings, collection=f"sync_{uuid.uuid4().hex[:8]}")
    secret = tmp_path / "imap-password"
    secret.write_text(dovecot.PASSWORD + "\n")
    env = offline_env(own)
    env["BOSUN_IMAP_PASSWORD_FILE"] = str(secret)
    return Bosun(own, env)


def test_sync_twice_reads_only_what_is_new_and_never_shows_the_password(
    server: dovecot.Dovecot, cli: Bosun
) -> None:
    url = f"imap://{dovecot.USER}@127.0.0.1:{server.port}/INBOX"
    first = cli.run("sync", url, "--json")
    assert first.returncode == 0, first.stderr[-2000:]
    report = first.json()
    assert report["folders"]["INBOX"]["fetched"] == len(MESSAGES)
    assert report["folders"]["INBOX"]["added"] >= len(MESSAGES)
    second = cli.run("sync", url, "--json")
    assert second.json()["folders"]["INBOX"]["fetched"] == 0
    status = cli.run("status", "--json").json()
    assert status["documents"] >= len(MESSAGES) + 1  # the messages and their thread's digest
    for run in (first, second):
        assert dovecot.PASSWORD not in run.stdout + run.stderr


def test_sync_refuses_what_would_leak_the_password(cli: Bosun) -> None:
    in_url = cli.run("sync", "imaps://fleet:hunter2@mail.example/INBOX")
    assert in_url.returncode == 2 and "BOSUN_IMAP_PASSWORD" in in_url.stderr
    assert "hunter2" not in in_url.stdout + in_url.stderr
    no_secret = dict(cli.env)
    no_secret.pop("BOSUN_IMAP_PASSWORD_FILE")
    bare = Bosun(cli.settings, no_secret).run("sync", "imap://fleet@127.0.0.1:1/INBOX")
    assert bare.returncode == 2 and "BOSUN_IMAP_PASSWORD" in bare.stderr


def test_serve_syncs_the_mailbox_on_a_schedule(
    server: dovecot.Dovecot, cli: Bosun, tmp_path: Path
) -> None:
    env = dict(cli.env)
    env["BOSUN_SYNC_MAILBOXES"] = f"imap://{dovecot.USER}@127.0.0.1:{server.port}/INBOX"
    env["BOSUN_SYNC_INTERVAL_S"] = "1"
    port = free_port()
    command = [*cli.command, "serve", "--port", str(port)]
    with running_server(command, env, port, "/api/health", tmp_path / "serve.log", 120):
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            status = cli.run("status", "--json").json()
            if status["documents"] >= len(MESSAGES):
                break
            time.sleep(2)
        else:
            pytest.fail(f"serve did not sync: {(tmp_path / 'serve.log').read_text()[-2000:]}")
    assert dovecot.PASSWORD not in (tmp_path / "serve.log").read_text()
    bad = dict(env, BOSUN_SYNC_INTERVAL_S="soon")
    refused = subprocess.run(
        [*cli.command, "serve", "--port", str(free_port())],
        env=bad,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "BOSUN_SYNC_INTERVAL_S" in refused.stderr
    assert json.dumps(status)  # the status the schedule reached was read as JSON
