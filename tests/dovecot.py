"""A real IMAP server for the sync tests: Debian's dovecot-imapd on 127.0.0.1, configured in a
throw-away folder (mail as maildir, one passwd-file user), stopped at the end."""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from imapclient import IMAPClient

USER = "fleet"
PASSWORD = "s3cret-imap-pass"

_CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 0
first_valid_gid = 0
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
"""


def available() -> bool:
    return all(
        shutil.which(tool, path=f"{os.environ.get('PATH', '')}:/usr/sbin:/usr/bin")
        for tool in ("dovecot", "doveadm")
    )


@dataclass
class Dovecot:
    root: Path
    port: int

    @property
    def config(self) -> Path:
        return self.root / "dovecot.conf"

    def client(self) -> IMAPClient:
        client = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=30)
        client.login(USER, PASSWORD)
        return client

    def doveadm(self, *args: str) -> str:
        done = subprocess.run(
            ["doveadm", "-c", str(self.config), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:
            raise RuntimeError(f"doveadm {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def kick(self) -> None:
        """Drop every open session of the user, as a server restart or a network cut would."""
        self.doveadm("kick", USER)

    def stop(self) -> None:
        subprocess.run(["doveadm", "-c", str(self.config), "stop"], capture_output=True, timeout=30)


@contextlib.contextmanager
def running() -> Iterator[Dovecot]:
    """A started server in a fresh folder every process can reach (dovecot's own users
    cannot enter pytest's private temp folders), stopped and removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="bosun-dovecot-"))
    try:
        server = start(root)
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def start(root: Path) -> Dovecot:
    """Configure and start dovecot under ``root``; as root, it runs its processes as the
    package's own users (it refuses to log in or deliver as root)."""
    for sub in ("run", "state", "home"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)
    if os.geteuid() == 0:
        internal, login = "dovecot", "dovenull"
        mail_user = pwd.getpwnam("dovecot")
        uid, gid = mail_user.pw_uid, mail_user.pw_gid
        os.chown(root / "home", uid, gid)
    else:
        me = pwd.getpwuid(os.getuid())
        internal = login = me.pw_name
        uid, gid = me.pw_uid, me.pw_gid
    port = _free_port()
    (root / "users").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    server = Dovecot(root, port)
    server.config.write_text(
        _CONFIG.format(
            root=root,
            internal=internal,
            internal_group=_group_of(internal),
            login=login,
            uid=uid,
            gid=gid,
            port=port,
        )
    )
    subprocess.run(["dovecot", "-c", str(server.config)], check=True, timeout=30)
    deadline = time.monotonic() + 20
    while True:
        try:
            server.client().logout()
            return server
        except OSError:
            if time.monotonic() > deadline:
                log = root / "dovecot.log"
                raise RuntimeError(f"dovecot did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)


def _group_of(user: str) -> str:
    return grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
