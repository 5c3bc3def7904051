"""Mailbox addresses: what they name, and when a password may cross the network."""

from pathlib import Path

import pytest

from agent.errors import UsageError
from agent.sync import password, scheduled
from archive.mailbox.address import MailboxError, parse_mailbox


def test_an_address_names_user_host_port_and_folders() -> None:
    box = parse_mailbox("imaps://ops%40fleet.example@mail.example/Fleet%20Ops", ("Archive",))
    assert (box.user, box.host, box.port, box.tls) == (
        "ops@fleet.example",
        "mail.example",
        993,
        True,
    )
    assert box.folders == ("Fleet Ops", "Archive")
    assert box.key == "ops@fleet.example@mail.example:993"
    assert parse_mailbox("imap://ops@127.0.0.1").folders == ("INBOX",)
    assert parse_mailbox("imap://ops@127.0.0.1").port == 143


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("imaps://ops:hunter2@mail.example/INBOX", "BOSUN_IMAP_PASSWORD"),
        ("https://mail.example/INBOX", "not an IMAP address"),
        ("imap://mail.example/INBOX", "needs a user and a host"),
        ("imap://ops@mail.example:99999/INBOX", "bad port"),
    ],
)
def test_bad_addresses_are_refused_with_the_reason(url: str, reason: str) -> None:
    with pytest.raises(MailboxError, match=reason) as err:
        parse_mailbox(url)
    assert "hunter2" not in str(err.value)


def test_plain_imap_only_to_loopback_unless_upgraded() -> None:
    assert parse_mailbox("imap://ops@127.0.0.1").transport(starttls_offered=False) == (
        "plain-loopback"
    )
    assert parse_mailbox("imap://ops@[::1]").transport(starttls_offered=False) == "plain-loopback"
    remote = parse_mailbox("imap://ops@192.0.2.10")
    assert remote.transport(starttls_offered=True) == "starttls"
    with pytest.raises(MailboxError, match="imaps://"):
        remote.transport(starttls_offered=False)
    assert parse_mailbox("imaps://ops@192.0.2.10").transport(starttls_offered=False) == "tls"


def test_the_password_comes_from_a_file_or_the_environment(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("from-file\nignored\n")
    assert password({"BOSUN_IMAP_PASSWORD_FILE": str(secret), "BOSUN_IMAP_PASSWORD": "x"}) == (
        "from-file"
    )
    assert password({"BOSUN_IMAP_PASSWORD": "from-env"}) == "from-env"
    with pytest.raises(UsageError, match="BOSUN_IMAP_PASSWORD"):
        password({})
    with pytest.raises(UsageError, match="cannot read"):
        password({"BOSUN_IMAP_PASSWORD_FILE": str(tmp_path / "missing")})


def test_the_schedule_is_checked_at_start_up() -> None:
    assert scheduled({}) == ([], 900.0)
    boxes, interval = scheduled(
        {
            "BOSUN_SYNC_MAILBOXES": "imap://a@127.0.0.1/INBOX imaps://b@mail.example/Ops",
            "BOSUN_SYNC_INTERVAL_S": "60",
            "BOSUN_IMAP_PASSWORD": "x",
        }
    )
    assert [b.key for b in boxes] == ["a@127.0.0.1:143", "b@mail.example:993"] and interval == 60
    with pytest.raises(UsageError, match="BOSUN_SYNC_INTERVAL_S"):
        scheduled({"BOSUN_SYNC_INTERVAL_S": "0"})
    with pytest.raises(UsageError, match="BOSUN_IMAP_PASSWORD"):
        scheduled({"BOSUN_SYNC_MAILBOXES": "imap://a@127.0.0.1/INBOX"})
