"""The warm ask process's stamps, and a client that goes away mid-turn cancelling its turn."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest

from agent.settings import Settings
from agent.warm.address import code_stamp, environment_stamp, name_of
from agent.warm.process import WarmProcess


def test_the_environment_stamp_ignores_the_shell_but_not_settings() -> None:
    env = {"BOSUN_HOME": "/h", "PWD": "/a", "OLDPWD": "/b", "_": "/usr/bin/x", "SHLVL": "1"}
    moved = {**env, "PWD": "/elsewhere", "OLDPWD": "/a", "_": "/usr/bin/y", "SHLVL": "2"}
    assert environment_stamp(moved) == environment_stamp(env)
    assert environment_stamp({**env, "BOSUN_CHAT_MODEL": "x"}) != environment_stamp(env)
    assert environment_stamp({**env, "PYTHONPATH": "/other"}) != environment_stamp(env)


def test_the_code_stamp_changes_with_a_changed_added_or_removed_file(tmp_path: Path) -> None:
    module = tmp_path / "agent" / "cli.py"
    module.parent.mkdir()
    module.write_text("x = 1\n")
    os.utime(module, ns=(1_000_000_000, 1_000_000_000))
    first = code_stamp(tmp_path)
    assert code_stamp(tmp_path) == first
    os.utime(module, ns=(2_000_000_000, 2_000_000_000))
    touched = code_stamp(tmp_path)
    assert touched != first
    (tmp_path / "agent" / "new.py").write_bytes(b"")
    os.utime(tmp_path / "agent" / "new.py", ns=(1_000_000_000, 1_000_000_000))
    assert code_stamp(tmp_path) != touched
    (tmp_path / "agent" / "new.py").unlink()
    assert code_stamp(tmp_path) == touched
    (tmp_path / "agent" / "__pycache__").mkdir()
    (tmp_path / "agent" / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"")
    assert code_stamp(tmp_path) == touched  # compiled files are not code changes


def test_every_package_of_bosun_is_in_the_code_stamp() -> None:
    import tomllib

    from agent.warm.address import PACKAGES, ROOT

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    top = {name.split(".")[0] for name in declared["packages"]}
    assert top <= set(PACKAGES)  # text/ too: an edit there is a code change


def test_each_home_has_its_own_socket(tmp_path: Path) -> None:
    assert name_of(tmp_path / "a") != name_of(tmp_path / "b")
    assert name_of(tmp_path / "a").startswith("\0")  # abstract: no file is left behind


def test_a_client_that_goes_away_cancels_its_turn(tmp_path: Path) -> None:
    cancelled = []

    class Slow(WarmProcess):
        async def read_version(self) -> dict[str, str]:
            return {}  # the archive did not change: no reopening

        async def _ask(self, argv: object) -> int:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                cancelled.append(True)
                raise
            return 0

    async def scenario() -> int | None:
        process = Slow(Settings(home=tmp_path), "env", "code")
        ours, theirs = socket.socketpair()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        loop = asyncio.get_running_loop()
        loop.call_later(0.2, theirs.close)  # the client is interrupted mid-turn
        status = await process.answer(["ask", "q"], reader, writer)
        writer.close()
        return status

    assert asyncio.run(scenario()) is None
    assert cancelled == [True]


@pytest.mark.parametrize("request_", [{"environment": "other", "code": "code"}, {"code": "x"}])
def test_a_request_from_another_environment_or_code_is_refused(
    tmp_path: Path, request_: dict[str, str]
) -> None:
    process = WarmProcess(Settings(home=tmp_path), "env", "code")
    refusal = process.refusal(request_)
    assert refusal is not None and refusal.startswith("another ")
