"""Email loader: .eml, mbox, maildir, attachments, quoting, malformed input."""

from __future__ import annotations

import mailbox
from collections import Counter
from datetime import date
from email.message import EmailMessage
from pathlib import Path

import pytest

from archive.ingest.discover import load_paths
from archive.ingest.loaders.email import (
    html_to_text,
    load_eml,
    load_mbox,
    parse_message,
)
from archive.ingest.loaders.maildir import load_maildir
from archive.ingest.model import LoadError, SourceDocument

REPLY = b"""\
From: Captain Ahab <ahab@pequod.example>
To: ops@fleet.example
Subject: Re: Cylinder crack on Nordic Star
Date: Mon, 15 Jan 2024 09:30:00 +0000
Message-ID: <reply-2@pequod.example>
In-Reply-To: <reply-1@fleet.example>
References: <root-0@fleet.example> <reply-1@fleet.example>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="XX"

--XX
Content-Type: text/plain; charset=utf-8

The crack in cylinder 3 was welded in Rotterdam.

On Sun, 14 Jan 2024 at 10:00, Ops <ops@fleet.example>
wrote:
> What happened to cylinder 3?
> Please report.
--XX
Content-Type: text/plain; name="engine-log.txt"
Content-Disposition: attachment; filename="engine-log.txt"

ME cylinder 3 liner temperature high at 0400.
--XX
Content-Type: image/png; name="crack.png"
Content-Disposition: attachment; filename="crack.png"
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--XX
Content-Type: application/pkcs7-signature; name="smime.p7s"
Content-Disposition: attachment; filename="smime.p7s"

c2lnbmF0dXJl
--XX
Content-Type: text/plain; charset=us-ascii
Content-Disposition: inline

_______________________________________________
Fleet-ops mailing list -- fleet-ops@lists.example
To unsubscribe send an email to fleet-ops-leave@lists.example
--XX--
"""

HTML_ONLY = b"""\
From: "Chief Engineer" <chief@nordic.example>
Subject: Bunker report
Date: Tue, 16 Jan 2024 12:00:00 +0100
Message-ID: <html-1@nordic.example>
Content-Type: text/html; charset=utf-8

<html><head><style>p {color: red}</style><script>alert(1)</script></head>
<body><p>Bunkering <b>completed</b> at 14:00.</p><ul><li>HFO 320 t</li><li>MGO 40 t</li></ul>
<blockquote>Old quoted request</blockquote></body></html>
"""


def _message(subject: str, message_id: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "ops@fleet.example"
    msg["Subject"] = subject
    msg["Date"] = "Wed, 17 Jan 2024 08:00:00 +0000"
    msg["Message-ID"] = f"<{message_id}>"
    msg.set_content(body)
    return msg


def _docs(results: list[SourceDocument | LoadError]) -> list[SourceDocument]:
    return [r for r in results if isinstance(r, SourceDocument)]


def test_reply_with_attachments(tmp_path: Path) -> None:
    path = tmp_path / "reply.eml"
    path.write_bytes(REPLY)
    message, *attachments = _docs(list(load_eml(path)))

    assert message.kind == "email"
    assert message.source_id == message.message_id == "reply-2@pequod.example"
    assert message.thread_id == "root-0@fleet.example"
    assert (message.title, message.subject) == ("Re: Cylinder crack on Nordic Star",) * 2
    assert message.sender == "ahab@pequod.example"
    assert message.date == date(2024, 1, 15)
    assert message.original == REPLY
    assert message.archive_name == "reply-2_pequod.example.eml"
    assert message.metadata["in_reply_to"] == "reply-1@fleet.example"
    assert message.metadata["references"] == "root-0@fleet.example reply-1@fleet.example"
    assert message.metadata["to"] == "ops@fleet.example"
    assert [s.text for s in message.sections] == [
        "The crack in cylinder 3 was welded in Rotterdam."
    ]

    # The image and the signature are listed on the message, not indexed as passages.
    assert [a.title for a in attachments] == ["engine-log.txt"]
    assert message.metadata["attachments"] == (
        "smime.p7s (signature, application/pkcs7-signature); crack.png (image, image/png, 8 bytes)"
    )
    (log,) = attachments
    assert log.kind == "attachment"
    assert log.source_id == "reply-2@pequod.example/engine-log.txt"
    assert log.parent_id == message.source_id
    assert log.thread_id == message.thread_id
    assert (log.sender, log.date, log.subject) == (message.sender, message.date, message.subject)
    assert log.embedding_mode == "full"
    assert log.sections[0].text == "ME cylinder 3 liner temperature high at 0400."
    assert log.original == b"ME cylinder 3 liner temperature high at 0400."


def test_html_only_body_is_converted(tmp_path: Path) -> None:
    (message,) = parse_message(HTML_ONLY)
    assert message.sections[0].text == "Bunkering completed at 14:00.\n\n- HFO 320 t\n- MGO 40 t"
    assert message.sender == "chief@nordic.example"
    assert message.metadata["from_name"] == "Chief Engineer"
    assert message.thread_id == "html-1@nordic.example"  # no references: its own thread


def test_html_to_text_drops_script_and_style_and_marks_quotes() -> None:
    text = html_to_text("<style>x{}</style><div>a&amp;b</div><blockquote><p>old</p></blockquote>")
    assert text == "a&b\n> old"


def test_missing_message_id_gets_a_stable_synthetic_id() -> None:
    raw = b"From: a@b.example\nSubject: hi\n\nbody text\n"
    first, second = parse_message(raw)[0], parse_message(raw)[0]
    assert first.source_id == second.source_id
    assert first.source_id.startswith("synthetic-")
    assert first.date is None
    assert first.title == "hi"


def test_mbox_with_two_messages(tmp_path: Path) -> None:
    path = tmp_path / "ops.mbox"
    box = mailbox.mbox(path)
    box.add(_message("First", "m1@x.example", "Engine room flooding drill."))
    box.add(_message("Second", "m2@x.example", "Drill completed."))
    box.close()

    docs = _docs(list(load_mbox(path)))
    assert [(d.source_id, d.title) for d in docs] == [
        ("m1@x.example", "First"),
        ("m2@x.example", "Second"),
    ]
    assert docs[1].sections[0].text == "Drill completed."


def test_maildir_reads_cur_and_new_and_skips_tmp(tmp_path: Path) -> None:
    root = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (root / sub).mkdir(parents=True)
    (root / "cur" / "1:2,S").write_bytes(_message("Old", "old@x", "seen").as_bytes())
    (root / "new" / "2").write_bytes(_message("New", "new@x", "unseen").as_bytes())
    (root / "tmp" / "3").write_bytes(_message("Partial", "tmp@x", "writing").as_bytes())
    (root / "cur" / ".hidden").write_bytes(b"junk")

    docs = _docs(list(load_maildir(root)))
    assert sorted(d.title for d in docs) == ["New", "Old"]
    assert sorted(d.title for d in _docs(list(load_paths([tmp_path])))) == ["New", "Old"]


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (bytes(range(256)) * 3, "does not start with headers"),
        (b"Just some notes\nwithout any headers\n", "does not start with headers"),
        (b"Subject: only a subject\n\nbody\n", "no From or Message-ID header"),
        (b"", "empty file"),
    ],
)
def test_malformed_email_is_a_load_error(tmp_path: Path, raw: bytes, reason: str) -> None:
    (tmp_path / "bad.eml").write_bytes(raw)
    (tmp_path / "good.eml").write_bytes(_message("Fine", "ok@x", "all good").as_bytes())

    results = list(load_paths([tmp_path]))
    errors = [r for r in results if isinstance(r, LoadError)]
    assert [Path(e.path).name for e in errors] == ["bad.eml"]
    assert reason in errors[0].reason
    assert [d.title for d in _docs(results)] == ["Fine"]


def test_reply_quotes_never_dominate() -> None:
    raw = (
        b"From: a@x\nMessage-ID: <q@x>\n\nShort answer.\n\n"
        b"-----Original Message-----\nFrom: b@x\nSent: today\n\nLong original text.\n"
    )
    assert parse_message(raw)[0].sections[0].text == "Short answer."
    only_quotes = b"From: a@x\nMessage-ID: <q2@x>\n\n> all quoted\n> still quoted\n"
    assert parse_message(only_quotes)[0].sections[0].text == "> all quoted\n> still quoted"


@pytest.mark.shared_data
def test_usrp_users_messages_and_threads(shared_data: Path) -> None:
    files = sorted((shared_data / "email" / "usrp-users").glob("*.eml"))[:50]
    docs = _docs(list(load_paths(files)))
    emails = [d for d in docs if d.kind == "email"]

    assert len(emails) == 50
    assert all(d.message_id and d.thread_id and d.date and d.sender for d in emails)
    for d in emails:
        references = d.metadata.get("references", "").split()
        expected = references[0] if references else d.metadata.get("in_reply_to", d.source_id)
        assert d.thread_id == expected
    assert max(Counter(d.thread_id for d in emails).values()) > 1  # some threads resolved
    assert all("mailing list --" not in s.text for d in emails for s in d.sections)
    assert all(a.parent_id in {e.source_id for e in emails} for a in docs if a.kind == "attachment")


@pytest.mark.shared_data
def test_notmuch_maildirs(shared_data: Path) -> None:
    results = list(load_paths([shared_data / "email" / "notmuch"]))
    emails = [d for d in _docs(results) if d.kind == "email"]
    assert not [r for r in results if isinstance(r, LoadError)]
    assert len(emails) == 263
    assert len({d.source_id for d in emails}) == 228  # the corpus repeats 35 messages
    assert sum(d.thread_id != d.source_id for d in emails) > 100
