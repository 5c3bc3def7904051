"""`bosun archive migrate --to s3://bucket/prefix`: move a collection's originals from the local
folder into object storage (see :mod:`archive.originals.migrate`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from agent.errors import UsageError
from agent.settings import Settings
from agent.wiring import open_services, originals_of
from archive.originals import LocalOriginals, OriginalsConfigError, S3Location


def add_archive_parser(subparsers: Any) -> argparse.ArgumentParser:
    archive = subparsers.add_parser("archive", help="where the originals are kept")
    actions = archive.add_subparsers(dest="action", required=True)
    migrate = actions.add_parser(
        "migrate",
        help="copy the local originals into object storage and switch the collection over",
        description="Copies every original the collection cites from BOSUN_HOME/archive into "
        "S3-compatible storage (credentials, region and endpoint from the AWS_* variables or "
        "AWS_PROFILE), verifies each copy's size and sha256, and switches the collection over "
        "once all are there. Run it again after an interruption: copies already verified are "
        "skipped. The local copies are left in place.",
    )
    migrate.add_argument("--to", required=True, metavar="s3://BUCKET/PREFIX")
    migrate.add_argument("--json", action="store_true")
    return archive


async def run_archive(settings: Settings, args: argparse.Namespace) -> int:
    """`bosun archive migrate`: the exit status is 0 once the collection reads from the target,
    1 when originals are missing from the local folder (nothing switched)."""
    from archive.originals.migrate import migrate_originals
    from archive.originals.s3 import S3Originals

    try:
        url = S3Location.parse(args.to).url
    except OriginalsConfigError as err:
        raise UsageError(f"--to: {err}") from None
    target = originals_of(settings, url)
    assert isinstance(target, S3Originals)
    source = LocalOriginals(settings.archive_dir)
    try:
        async with open_services(settings, originals=source, calibrated=False) as services:
            report = await migrate_originals(services.store, source, target)
    finally:
        target.close()
    summary = {
        "target": report.target,
        "originals": report.originals,
        "copied": report.copied,
        "already_there": report.present,
        "bytes_copied": report.bytes_copied,
        "missing": report.missing,
        "switched": report.switched,
    }
    if args.json:
        _say(json.dumps(summary, indent=2))
    elif report.already:
        _say(f"the collection already keeps its originals in {url}")
    else:
        _say(
            f"{report.copied} originals copied ({report.bytes_copied} bytes), "
            f"{report.present} already there, {len(report.missing)} missing locally"
        )
        for path in report.missing:
            sys.stderr.write(f"  missing: {path}\n")
        if report.switched:
            _say(f"switched: the collection reads its originals from {url}; set")
            _say(f"BOSUN_ARCHIVE_URL={url} on every machine that serves or ingests it")
        else:
            _say("not switched: restore the missing files (or delete their documents) and rerun")
    return 0 if report.switched else 1


def _say(line: str) -> None:
    sys.stdout.write(line + "\n")
