"""Where a home's warm process listens and what it must match: the standard library only, so
the forwarding client costs nothing to import.

The socket is in Linux's abstract namespace (no file to leave behind, no path-length limit),
named after the home; the process answers only its own user (``SO_PEERCRED``). A request
carries a stamp of the client's environment and of the code on disk: a process started from
another environment, or before the code changed, refuses it and exits, and the client answers
cold (the environment carries every setting: nothing else decides how a turn runs)."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import sys
from collections.abc import Mapping
from pathlib import Path

#: Variables that change between commands of one shell without changing what a turn does.
VOLATILE = frozenset({"_", "OLDPWD", "PWD", "SHLVL", "COLUMNS", "LINES"})
#: The packages whose files make the code stamp (all of Bosun's own code).
PACKAGES = (
    "agent",
    "adapt",
    "graph",
    "tools",
    "answers",
    "checkpoints",
    "providers",
    "archive",
    "text",
)
ROOT = Path(__file__).resolve().parents[2]
SUPPORTED = sys.platform.startswith("linux")


def home_of(environ: Mapping[str, str]) -> Path:
    """BOSUN_HOME as :class:`agent.settings.Settings` resolves it."""
    home = environ.get("BOSUN_HOME")
    if not home:
        import platformdirs

        home = platformdirs.user_data_dir("bosun")
    return Path(home).expanduser().resolve()


def name_of(home: Path) -> str:
    """The abstract socket name of ``home``'s warm process (for this user)."""
    digest = hashlib.sha256(str(home).encode()).hexdigest()[:24]
    return f"\0bosun-warm-ask-{os.getuid()}-{digest}"


def environment_stamp(environ: Mapping[str, str]) -> str:
    """A digest of every variable but the volatile ones, and of the interpreter."""
    kept = sorted((k, v) for k, v in environ.items() if k not in VOLATILE)
    text = json.dumps([sys.executable, kept])
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def code_stamp(root: Path = ROOT) -> str:
    """The newest modification time and the number of Bosun's own files under ``root`` (a
    changed, added or removed module changes it)."""
    newest, count = 0, 0
    stack = [root / package for package in PACKAGES if (root / package).is_dir()]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(Path(entry.path))
                elif not entry.name.endswith(".pyc"):
                    newest = max(newest, entry.stat().st_mtime_ns)
                    count += 1
    return f"{newest}-{count}"


def peer(sock: socket.socket) -> tuple[int, int]:
    """The process id and user id at the other end of a Unix socket."""
    creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    pid, uid, _gid = struct.unpack("3i", creds)
    return int(pid), int(uid)
