"""The cross-site guard, in front of every route (also LangGraph Server's under `langgraph dev`,
where this app is the outer one).

- Every request names an allowed ``Host`` (Starlette's TrustedHostMiddleware over the loopback
  names and ``BOSUN_PUBLIC_HOST``): a page on a rebinding domain (``evil.example`` resolving to
  127.0.0.1) reads nothing.
- Single-user local mode answers only on the loopback interface, whatever the server was told
  to bind (``langgraph dev --host 0.0.0.0`` has no start-up check of its own).
- A state-changing request (anything but GET/HEAD/OPTIONS) carries its body as
  ``application/json`` (a form or a ``text/plain`` fetch, which a browser sends cross-site without
  asking, is refused) and comes from the page's own origin by its ``Origin`` and
  ``Sec-Fetch-Site`` headers (or from ``BOSUN_ALLOWED_ORIGINS``); with API keys, a valid key
  authenticates a caller from anywhere. Clients that are not browsers send neither header.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from agent.server.auth import key_of, user_for_key
from agent.server.config import ServerConfig
from agent.server.runtime import config_of

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
#: ``Sec-Fetch-Site`` values of a request the page itself (or the person, typing) made.
OWN_SITE = {"same-origin", "none"}


class HostGuard:
    """TrustedHostMiddleware over the configured hosts, built on the first request (the server
    configuration is read at start-up, after the app is built)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._trusted: TrustedHostMiddleware | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if self._trusted is None:
            hosts = list(config_of(HTTPConnection(scope)).allowed_hosts)
            self._trusted = TrustedHostMiddleware(self.app, allowed_hosts=hosts, www_redirect=False)
        await self._trusted(scope, receive, send)


class CrossSiteGuard:
    """Refuses what :func:`refusal` names with ``{"detail": ...}``; passes the rest on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            connection = HTTPConnection(scope)
            refused = refusal(connection, config_of(connection))
            if refused is not None:
                status, detail = refused
                await JSONResponse({"detail": detail}, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def refusal(request: HTTPConnection, config: ServerConfig) -> tuple[int, str] | None:
    """``(status, reason)`` when the request must be refused, else None."""
    if config.local_mode and not is_loopback(request.scope.get("server")):
        return 403, (
            "single-user local mode answers only on the loopback interface: set "
            "BOSUN_API_KEYS to serve other machines"
        )
    method = request.scope.get("method", "GET")
    if method in SAFE_METHODS:
        return None
    headers = request.headers
    if has_body(headers) and not is_json(headers.get("content-type")):
        return 415, "the request body must be sent as application/json"
    if not config.local_mode and user_for_key(config, key_of(request)) is not None:
        return None  # authenticated by its key, wherever the caller runs
    origin = headers.get("origin")
    if origin is not None:
        if origin.rstrip("/").lower() in config.allowed_origins:
            return None
        if not same_origin(origin, headers.get("host")):
            return 403, "cross-origin request refused: only the Bosun page may send this"
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in OWN_SITE:
        return 403, f"cross-site request refused ({site}): only the Bosun page may send this"
    return None


def same_origin(origin: str, host: str | None) -> bool:
    """Whether ``origin`` (``scheme://host[:port]``, or ``null``) names the host the request was
    sent to (its ``Host`` header, checked against the allowed hosts already)."""
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or not host:
        return False
    default = {"http": ":80", "https": ":443"}[parts.scheme]
    netloc = parts.netloc.lower().removesuffix(default)
    return netloc == host.strip().lower().removesuffix(default)


def has_body(headers: Headers) -> bool:
    length = (headers.get("content-length") or "").strip()
    return bool(headers.get("transfer-encoding")) or length not in ("", "0")


def is_json(content_type: str | None) -> bool:
    media = (content_type or "").partition(";")[0].strip().lower()
    return media == "application/json"


def is_loopback(server: object) -> bool:
    """Whether the socket a request arrived on is local (loopback address or a Unix socket)."""
    if not isinstance(server, list | tuple) or len(server) != 2 or server[1] is None:
        return True  # no address (a Unix socket, an in-process call)
    host = str(server[0]).strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
