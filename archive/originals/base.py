"""What every originals store shares: the interface, its errors, and safe file names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_BUCKET = re.compile(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")

#: Longest wait for one storage check (BOSUN_ARCHIVE_TIMEOUT_S overrides it).
TIMEOUT_S = 5.0
#: Storage requests one citation check runs at once.
CONCURRENCY = 16


class ArchivePathError(ValueError):
    """A path that would leave the archive."""


class StorageUnavailable(OSError):
    """The storage did not answer (down, refusing, slower than its timeout, or denying access).

    An :class:`OSError`, so the citation check takes the fault matrix's ``archive.missing``
    degrade row for it, as for a lost mount."""


class OriginalsConfigError(ValueError):
    """An archive location that cannot be used (bad URL, client library not installed)."""


def safe_name(name: str) -> str:
    """A file name with no directory parts or unusual characters."""
    cleaned = _UNSAFE.sub("_", Path(name).name).strip("._")
    return cleaned[:120] or "original"


@dataclass(frozen=True)
class S3Location:
    """``s3://bucket/prefix`` taken apart."""

    bucket: str
    prefix: str  # no leading or trailing slash; "" for the bucket's root

    @classmethod
    def parse(cls, url: str) -> S3Location:
        parts = urlsplit(url)
        if parts.scheme != "s3" or parts.query or parts.fragment:
            raise OriginalsConfigError(f"an archive URL looks like s3://bucket/prefix, got {url!r}")
        if not _BUCKET.fullmatch(parts.netloc or ""):
            raise OriginalsConfigError(f"not an S3 bucket name: {parts.netloc[:63]!r}")
        prefix = parts.path.strip("/")
        if any(not segment or segment in (".", "..") for segment in prefix.split("/") if prefix):
            raise OriginalsConfigError(f"not a usable key prefix: {prefix[:100]!r}")
        return cls(parts.netloc, prefix)

    @property
    def url(self) -> str:
        return f"s3://{self.bucket}/{self.prefix}" if self.prefix else f"s3://{self.bucket}"

    def key(self, relative: str) -> str:
        return f"{self.prefix}/{relative}" if self.prefix else relative


class Originals(Protocol):
    """Where the originals citations resolve to, addressed by relative archive paths (what
    ``documents.archive_path`` holds). Writes are idempotent; checks may run concurrently."""

    @property
    def location(self) -> str:
        """Where the originals are: a folder, or ``s3://bucket/prefix``."""
        ...

    def put(self, kind: str, doc_id: str, name: str, data: bytes) -> str:
        """Store ``data`` (once: an identical copy already stored is not written again) and
        return its archive path. Blocking: call it from a thread in async code."""
        ...

    async def all_exist(self, relatives: list[str]) -> list[bool]:
        """Whether each entry exists; :class:`StorageUnavailable` (an OSError) when the
        storage cannot say."""
        ...

    def delete(self, relatives: Sequence[str]) -> int:
        """Remove these entries (a missing one is no error); how many were removed (object
        storage: how many were deleted, as S3 answers alike for a key that was not there)."""
        ...

    def download_url(self, relative: str, *, ttl_s: int) -> str | None:
        """A link the storage itself serves, valid ``ttl_s`` seconds (S3: pre-signed GET), or
        None where the web app serves the file (the local folder, behind its signed links)."""
        ...

    def close(self) -> None:
        """Release clients and threads."""
        ...
