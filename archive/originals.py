"""The archive: copies of ingested originals, the files citations resolve to."""

from __future__ import annotations

import asyncio
import os
import re
import tempfile
from pathlib import Path

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class ArchivePathError(ValueError):
    """A path that would leave the archive folder."""


def safe_name(name: str) -> str:
    """A file name with no directory parts or unusual characters."""
    cleaned = _UNSAFE.sub("_", Path(name).name).strip("._")
    return cleaned[:120] or "original"


class Archive:
    """A folder of originals addressed by relative paths ``<kind>/<doc_id>/<name>``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def put(self, kind: str, doc_id: str, name: str, data: bytes) -> str:
        """Store ``data`` (atomically) and return its archive path."""
        relative = f"{safe_name(kind)}/{safe_name(doc_id)}/{safe_name(name)}"
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists() and target.stat().st_size == len(data) and target.read_bytes() == data:
            return relative
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".part-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
        return relative

    def resolve(self, relative: str) -> Path:
        """The absolute path of an archive entry; rejects anything outside the archive."""
        root = self.root.resolve()
        path = (root / relative).resolve()
        if not relative or Path(relative).is_absolute() or not path.is_relative_to(root):
            raise ArchivePathError(f"not an archive path: {relative!r}")
        return path

    def exists(self, relative: str) -> bool:
        """The entry is a readable file (an unreadable original cannot be served either)."""
        try:
            path = self.resolve(relative)
        except ArchivePathError:
            return False
        return path.is_file() and os.access(path, os.R_OK)

    async def all_exist(self, relatives: list[str]) -> list[bool]:
        """Check many entries concurrently (storage may be slow or remote)."""
        return list(await asyncio.gather(*(asyncio.to_thread(self.exists, r) for r in relatives)))
