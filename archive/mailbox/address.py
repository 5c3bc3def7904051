"""`imap://USER@HOST:PORT/FOLDER` and `imaps://…`: what a mailbox is, and when plain IMAP is
allowed."""

import ipaddress
import socket
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urlsplit

Transport = Literal["tls", "starttls", "plain-loopback"]


class MailboxError(Exception):
    """A mailbox that cannot be used as given (address, TLS policy, login): one clear line."""


@dataclass(frozen=True)
class Mailbox:
    """One account on one IMAP server; ``folders``: those to sync (default INBOX)."""

    user: str
    host: str
    port: int
    tls: bool  # imaps:// (TLS from the first byte)
    folders: tuple[str, ...]

    @property
    def key(self) -> str:
        """The mailbox's name in the sync state: no password, no folder."""
        return f"{self.user}@{self.host}:{self.port}"

    def transport(self, starttls_offered: bool) -> Transport:
        """How the session is protected; plain IMAP only to a loopback address."""
        if self.tls:
            return "tls"
        if starttls_offered:
            return "starttls"
        if is_loopback(self.host):
            return "plain-loopback"
        raise MailboxError(
            f"imap://{self.host} offers no STARTTLS: use imaps:// (plain IMAP is allowed only "
            "to a loopback address)"
        )


def parse_mailbox(url: str, extra_folders: tuple[str, ...] = ()) -> Mailbox:
    """The mailbox an ``imap://`` or ``imaps://`` URL names; a password in the URL is refused
    (it would land in shell history and process lists)."""
    parts = urlsplit(url)
    if parts.scheme not in ("imap", "imaps"):
        raise MailboxError(f"not an IMAP address (imap:// or imaps://): {parts.scheme or url!r}")
    if parts.password is not None:
        raise MailboxError(
            "the address holds a password: set BOSUN_IMAP_PASSWORD or BOSUN_IMAP_PASSWORD_FILE"
        )
    if not parts.username or not parts.hostname:
        raise MailboxError("the address needs a user and a host: imap://USER@HOST:PORT/FOLDER")
    try:
        port = parts.port or (993 if parts.scheme == "imaps" else 143)
    except ValueError as err:
        raise MailboxError(f"bad port in the address: {err}") from err
    folder = unquote(parts.path.lstrip("/"))
    folders = tuple(dict.fromkeys(f for f in (folder, *extra_folders) if f)) or ("INBOX",)
    return Mailbox(
        user=unquote(parts.username),
        host=parts.hostname,
        port=port,
        tls=parts.scheme == "imaps",
        folders=folders,
    )


def is_loopback(host: str) -> bool:
    """Whether ``host`` is or resolves only to loopback addresses (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)
