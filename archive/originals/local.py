"""The default originals store: a folder under BOSUN_HOME, paths ``<kind>/<doc_id>/<name>``;
the web app serves its files behind HMAC-signed links."""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from archive.originals.base import ArchivePathError, safe_name


class LocalOriginals:
    """A folder of originals addressed by relative paths ``<kind>/<doc_id>/<name>``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def location(self) -> str:
        return str(self.root)

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

    def delete(self, relatives: Sequence[str]) -> int:
        """Remove these files and the folders they leave empty."""
        removed = 0
        for relative in relatives:
            try:
                path = self.resolve(relative)
            except ArchivePathError:
                continue
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed += 1
            root = self.root.resolve()
            for parent in path.parents:
                if parent == root or not parent.is_relative_to(root):
                    break
                try:
                    parent.rmdir()
                except OSError:  # not empty (or gone): the folder stays
                    break
        return removed

    def download_url(self, relative: str, *, ttl_s: int) -> str | None:
        return None  # the web app serves the folder (agent.server.signing)

    def close(self) -> None:
        return None
