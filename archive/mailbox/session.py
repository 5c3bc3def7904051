"""One IMAP session through imapclient: login under the mailbox's TLS policy, a folder's
identity (UIDVALIDITY, HIGHESTMODSEQ), its UIDs, flags and messages. Blocking calls: the sync
runs them in a thread."""

import logging
import socket
import ssl
from collections.abc import Iterable
from dataclasses import dataclass

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError, LoginError

from archive.mailbox.address import Mailbox, MailboxError

logger = logging.getLogger(__name__)

TIMEOUT_S = 60.0  # one socket operation; a dead server ends the session, never hangs it

# What a dropped or broken connection raises: the sync reconnects and resumes from its state.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    IMAPClientError,
    socket.error,
    ssl.SSLError,
    EOFError,
)


@dataclass(frozen=True)
class FolderView:
    """A folder as the server reports it on SELECT."""

    name: str
    uidvalidity: int
    highest_modseq: int | None  # None: the server has no CONDSTORE


class Session:
    """A logged-in session; use as a context manager so the connection is always closed."""

    def __init__(self, mailbox: Mailbox, password: str, *, ssl_context: ssl.SSLContext | None):
        self.mailbox = mailbox
        try:
            self._client = IMAPClient(
                mailbox.host,
                port=mailbox.port,
                ssl=mailbox.tls,
                ssl_context=ssl_context,
                timeout=TIMEOUT_S,
            )
        except (OSError, IMAPClientError) as err:
            raise MailboxError(f"cannot reach {mailbox.host}:{mailbox.port}: {err}") from err
        try:
            self._protect(ssl_context)
            self._client.login(mailbox.user, password)
        except LoginError as err:
            self.close()
            raise MailboxError(f"{mailbox.user}@{mailbox.host}: login refused") from err
        except BaseException:
            self.close()
            raise
        self.condstore = b"CONDSTORE" in self._client.capabilities()
        if self.condstore:
            self._client.enable("CONDSTORE")

    def _protect(self, ssl_context: ssl.SSLContext | None) -> None:
        offered = b"STARTTLS" in self._client.capabilities()
        if self.mailbox.transport(starttls_offered=offered and not self.mailbox.tls) == "starttls":
            self._client.starttls(ssl_context or ssl.create_default_context())

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Log out, or drop the socket when the server is already gone."""
        try:
            self._client.logout()
        except CONNECTION_ERRORS:
            self._client.shutdown()

    def folders(self) -> list[str]:
        """Every folder the account has (for a clear error on a missing one)."""
        return [name for _, _, name in self._client.list_folders()]

    def select(self, folder: str) -> FolderView:
        """Open ``folder`` read-only (nothing is marked \\Seen) and report its identity."""
        info = self._client.select_folder(folder, readonly=True)
        modseq = info.get(b"HIGHESTMODSEQ")
        return FolderView(
            name=folder,
            uidvalidity=int(info[b"UIDVALIDITY"]),
            highest_modseq=int(modseq) if self.condstore and modseq is not None else None,
        )

    def uids(self) -> list[int]:
        """The UIDs the selected folder holds now."""
        return sorted(int(uid) for uid in self._client.search("ALL"))

    def flags(self, uids: Iterable[int], changed_since: int | None = None) -> dict[int, set[str]]:
        """Flags of ``uids`` (only those changed since a MODSEQ, where given)."""
        wanted = list(uids)
        if not wanted:
            return {}
        modifiers = [f"CHANGEDSINCE {changed_since}"] if changed_since is not None else None
        rows = self._client.fetch(wanted, ["FLAGS"], modifiers=modifiers)
        return {int(uid): {_flag(f) for f in row.get(b"FLAGS", ())} for uid, row in rows.items()}

    def messages(self, uids: list[int]) -> dict[int, tuple[bytes, set[str]]]:
        """Raw RFC 822 bytes and flags of ``uids`` (BODY.PEEK: nothing is marked read)."""
        rows = self._client.fetch(uids, ["BODY.PEEK[]", "FLAGS"])
        return {
            int(uid): (bytes(row[b"BODY[]"]), {_flag(f) for f in row.get(b"FLAGS", ())})
            for uid, row in rows.items()
            if b"BODY[]" in row
        }


def _flag(flag: bytes | str) -> str:
    return flag.decode("ascii", "replace") if isinstance(flag, bytes) else flag
