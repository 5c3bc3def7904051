"""Signed download links: HMAC-SHA256 over the archive path and expiry, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
import time
from urllib.parse import urlencode


def signature(secret: bytes, path: str, expires: int, user: str) -> str:
    message = f"{path}\n{expires}\n{user}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def signed_url(secret: bytes, path: str, *, user: str, ttl_s: int, now: float | None = None) -> str:
    """``/api/files?path=..&exp=..&u=..&sig=..``, valid for ``ttl_s`` seconds. The link is the
    authorisation (a plain ``<a download>`` sends no API key); ``u`` is whose limits it counts."""
    expires = int(now if now is not None else time.time()) + ttl_s
    sig = signature(secret, path, expires, user)
    return "/api/files?" + urlencode({"path": path, "exp": expires, "u": user, "sig": sig})


def verify(
    secret: bytes, path: str, expires: str, user: str, sig: str, *, now: float | None = None
) -> bool:
    """True when ``sig`` signs these values and the link has not expired."""
    if not expires.isdigit() or int(expires) < (now if now is not None else time.time()):
        return False
    return hmac.compare_digest(signature(secret, path, int(expires), user), sig)
