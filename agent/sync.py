"""`bosun sync imap://USER@HOST:PORT/FOLDER`: keep the archive in step with a live mailbox, once
from the command line or on a schedule inside `bosun serve` (BOSUN_SYNC_MAILBOXES).

The password (or app token) comes from BOSUN_IMAP_PASSWORD or the file BOSUN_IMAP_PASSWORD_FILE
names, never from the command line; it is never printed or logged. BOSUN_IMAP_CA_FILE trusts a
private certificate authority for imaps:// and STARTTLS.
"""

import argparse
import asyncio
import json
import logging
import os
import ssl
import sys
from collections.abc import Mapping
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

from agent.arguments import printable
from agent.errors import UsageError
from agent.settings import Settings
from agent.wiring import open_services
from archive.ingest.progress import wanted
from archive.mailbox.address import Mailbox, MailboxError, parse_mailbox
from archive.mailbox.session import Session
from archive.mailbox.state import sync_lock
from archive.mailbox.sync import SyncReport, sync_mailbox

logger = logging.getLogger(__name__)

INTERVAL_S = 900  # BOSUN_SYNC_INTERVAL_S default: a scheduled sync every 15 minutes


def add_sync_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``sync`` sub-command to the CLI's sub-parsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sync",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help="sync a live IMAP mailbox into the archive (new, deleted, moved messages)",
    )
    parser.add_argument("url", help="imaps://USER@HOST[:PORT]/FOLDER (imap:// to loopback)")
    parser.add_argument(
        "--folder", action="append", default=[], help="another folder to sync (repeatable)"
    )
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--json", action="store_true")
    return parser


def password(environ: Mapping[str, str]) -> str:
    """The mailbox password from the environment (a file's first line, or the variable)."""
    path = environ.get("BOSUN_IMAP_PASSWORD_FILE")
    if path:
        try:
            return Path(path).read_text(encoding="utf-8").splitlines()[0]
        except (OSError, IndexError, UnicodeError) as err:
            raise UsageError(f"BOSUN_IMAP_PASSWORD_FILE: cannot read a password ({err})") from err
    value = environ.get("BOSUN_IMAP_PASSWORD")
    if not value:
        raise UsageError("set BOSUN_IMAP_PASSWORD or BOSUN_IMAP_PASSWORD_FILE for the mailbox")
    return value


def connector(mailbox: Mailbox, environ: Mapping[str, str]) -> "partial[Session]":
    """What opens a logged-in session (again after a dropped connection)."""
    ca_file = environ.get("BOSUN_IMAP_CA_FILE")
    context = ssl.create_default_context(cafile=ca_file) if ca_file else None
    return partial(Session, mailbox, password(environ), ssl_context=context)


async def run_sync(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``bosun sync``; returns the exit status."""
    try:
        mailbox = parse_mailbox(args.url, tuple(args.folder))
    except MailboxError as err:
        raise UsageError(str(err)) from err
    connect = connector(mailbox, os.environ)
    async with open_services(settings) as services:
        async with sync_lock(services.store, mailbox.key, wait=False) as free:
            if not free:
                sys.stderr.write(f"waiting for the sync of {mailbox.key} already running\n")
        async with sync_lock(services.store, mailbox.key, wait=True):
            report = await sync_mailbox(
                mailbox,
                connect,
                services.store,
                services.embeddings,
                services.archive,
                progress=wanted(not args.no_progress, json_output=args.json),
            )
    sys.stdout.write(_format(report, as_json=args.json) + "\n")
    if report.interrupted:
        return 130
    return 0


def _format(report: SyncReport, *, as_json: bool) -> str:
    if as_json:
        return json.dumps({**asdict(report), "seconds": round(report.seconds, 2)}, indent=2)
    lines = [f"synced {report.mailbox} in {report.seconds:.1f} s"]
    for name, f in report.folders.items():
        lines.append(
            f"  {printable(name)}: {f.fetched} fetched ({f.added} new documents, "
            f"{f.unchanged} already archived), {f.gone} gone, {f.flags_changed} flag changes"
            + (" — UIDVALIDITY changed: folder read again" if f.resynced else "")
        )
        lines.extend(f"    skipped UID {x['uid']}: {printable(str(x['reason']))}" for x in f.failed)
    lines.append(
        f"  {report.deleted} messages deleted from the archive, {report.kept_moved} kept "
        f"(held by another synced folder), {report.digests} thread digests redone"
    )
    if report.reconnects:
        lines.append(f"  {report.reconnects} dropped connections resumed")
    if report.interrupted:
        lines.append("interrupted: what is committed stays; run the same sync to finish")
    return "\n".join(lines)


def scheduled(environ: Mapping[str, str]) -> tuple[list[Mailbox], float]:
    """The mailboxes ``bosun serve`` keeps in sync (BOSUN_SYNC_MAILBOXES, space-separated
    URLs) and the seconds between syncs (BOSUN_SYNC_INTERVAL_S); checked at start-up."""
    urls = environ.get("BOSUN_SYNC_MAILBOXES", "").split()
    try:
        mailboxes = [parse_mailbox(url) for url in urls]
    except MailboxError as err:
        raise UsageError(f"BOSUN_SYNC_MAILBOXES: {err}") from err
    raw = environ.get("BOSUN_SYNC_INTERVAL_S", str(INTERVAL_S))
    try:
        interval = float(raw)
    except ValueError:
        interval = 0.0
    if interval < 1:
        raise UsageError(f"BOSUN_SYNC_INTERVAL_S must be a number of seconds >= 1, got {raw!r}")
    if mailboxes:
        password(environ)  # fail at start-up, not at the first sync
    return mailboxes, interval


async def sync_forever(
    settings: Settings, mailboxes: list[Mailbox], interval: float, environ: Mapping[str, str]
) -> None:
    """``bosun serve``'s schedule: each mailbox synced every ``interval`` seconds, skipped while
    another process syncs it; a failed sync is logged and tried again at the next tick."""
    async with open_services(settings) as services:
        while True:
            for mailbox in mailboxes:
                async with sync_lock(services.store, mailbox.key, wait=False) as free:
                    if not free:
                        logger.info("sync of %s skipped: another process runs it", mailbox.key)
                        continue
                    try:
                        report = await sync_mailbox(
                            mailbox,
                            connector(mailbox, environ),
                            services.store,
                            services.embeddings,
                            services.archive,
                        )
                    except (MailboxError, UsageError, OSError) as err:
                        logger.warning("scheduled sync of %s failed: %s", mailbox.key, err)
                        continue
                    logger.info(
                        "scheduled sync of %s: %s", mailbox.key, _format(report, as_json=True)
                    )
            await asyncio.sleep(interval)
