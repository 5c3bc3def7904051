"""The originals store: copies of ingested files, the ones citations resolve to and downloads
serve. One interface (:class:`Originals`), two stores: a local folder (the default) and
S3-compatible object storage (``BOSUN_ARCHIVE_URL=s3://bucket/prefix``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from archive.originals.base import (
    CONCURRENCY,
    TIMEOUT_S,
    ArchivePathError,
    Originals,
    OriginalsConfigError,
    S3Location,
    StorageUnavailable,
    safe_name,
)
from archive.originals.local import LocalOriginals

__all__ = [
    "ArchivePathError",
    "LocalOriginals",
    "Originals",
    "OriginalsConfigError",
    "S3Location",
    "StorageUnavailable",
    "open_originals",
    "release",
    "safe_name",
]

logger = logging.getLogger(__name__)


def open_originals(
    url: str | None,
    folder: Path,
    *,
    endpoint_url: str | None = None,
    region: str | None = None,
    timeout_s: float = TIMEOUT_S,
) -> Originals:
    """The folder when ``url`` is None, else the object storage at ``s3://bucket/prefix``
    (:class:`OriginalsConfigError` when boto3 is not installed). Nothing is contacted here."""
    if not url:
        return LocalOriginals(folder)
    where = S3Location.parse(url)
    try:
        from archive.originals.s3 import S3Originals, s3_client
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("boto3", "botocore"):
            raise
        raise OriginalsConfigError(
            f"BOSUN_ARCHIVE_URL={where.url} needs boto3, which is not installed: "
            "pip install 'bosun[s3]'"
        ) from None
    client = s3_client(
        endpoint_url=endpoint_url, region=region, timeout_s=timeout_s, pool=CONCURRENCY
    )
    return S3Originals(where, client, timeout_s=timeout_s, concurrency=CONCURRENCY)


@dataclass(frozen=True)
class Released:
    """What :func:`release` removed, and what it had to leave (the storage failed)."""

    removed: int
    left: tuple[str, ...]


def release(originals: Originals, paths: Sequence[str]) -> Released:
    """Remove the originals no document cites any more (``bosun delete``, after its commit). A
    storage failure leaves them (unreferenced, harmless) with a warning, never the command's
    database work undone."""
    try:
        return Released(originals.delete(paths), ())
    except StorageUnavailable as err:
        logger.warning("%d originals left in %s: %s", len(paths), originals.location, err)
        return Released(0, tuple(paths))
