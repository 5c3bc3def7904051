"""The HTTP side of benchmarks/feedback_simulation.py: `bosun serve` and `bosun adapt` as
subprocesses, and a simulated user's client on the server's real routes (chat, citations,
downloads, feedback, threads)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import httpx

from agent.evaluation.beir import BeirDataset
from benchmarks.simulated_users import Action, Ledger, Shown, UserModel

ROOT = Path(__file__).resolve().parents[1]


def bosun(*args: str, env: dict[str, str]) -> dict[str, Any]:
    """One `bosun` command with ``--json``; its object (stderr passes through)."""
    done = subprocess.run(
        [sys.executable, "-m", "agent.cli", *args, "--json"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bosun {' '.join(args)} failed with exit code {done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(env: dict[str, str], log: Path, startup_s: float = 300.0) -> Iterator[str]:
    """`bosun serve` on a free loopback port with ``env``; its URL once ``/api/health`` answers,
    stopped (SIGTERM, then SIGKILL) afterwards."""
    port = free_port()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_s
        while not _healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"bosun serve did not start (log: {log})")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/health", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def sse_frames(body: str) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) of each server-sent event of a streamed chat answer."""
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        lines = block.split("\n")
        names = [line[6:].strip() for line in lines if line.startswith("event:")]
        data = [line[5:].strip() for line in lines if line.startswith("data:")]
        if data:
            events.append((names[0] if names else "message", json.loads("\n".join(data))))
    return events


class SimulatedUser:
    """One simulated user's HTTP client on a running server: ask, open, download, thumb."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def ask(self, question: str) -> tuple[dict[str, Any], list[Shown]]:
        """A new conversation's first turn: the ``final`` frame and the citations it showed."""
        response = await self.client.post("/api/chat", json={"message": question}, timeout=600)
        response.raise_for_status()
        frames = sse_frames(response.text)
        final = next((data for event, data in frames if event == "final"), None)
        if final is None:
            raise RuntimeError(f"the chat answered no final frame: {frames[-1:]}")
        final["thread_id"] = frames[0][1]["thread_id"]
        shown = [Shown(c["n"], c["chunk_id"], c["source_id"]) for c in final["citations"]]
        return final, shown

    async def act(self, action: Action, turn: dict[str, Any]) -> None:
        """Send one feedback event about ``turn`` through its route."""
        if action.kind == "thumb":
            response = await self.client.post(
                "/api/feedback",
                json={
                    "thread_id": turn["thread_id"],
                    "message_id": turn["message_id"],
                    "score": action.score,
                },
            )
        else:
            assert action.chunk_id is not None
            # As the page opens a citation: by its passage id alone (the server credits the
            # caller's latest answer that showed it).
            response = await self.client.get(f"/api/citations/{action.chunk_id}")
            if action.kind == "download" and response.is_success:
                response = await self.client.get(response.json()["download_url"])
        response.raise_for_status()

    async def forget_everything(self) -> int:
        """Delete every thread of this user (the feedback stored with them goes too)."""
        deleted = 0
        while threads := (await self.client.get("/api/threads")).json():
            for thread in threads:
                gone = await self.client.delete(f"/api/threads/{thread['thread_id']}")
                gone.raise_for_status()
                deleted += 1
        return deleted


@asynccontextmanager
async def user_on(url: str, key: str) -> AsyncIterator[SimulatedUser]:
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as client:
        yield SimulatedUser(client)


async def until(
    user: SimulatedUser,
    target: int,
    queue: Iterator[str],
    dataset: BeirDataset,
    model: UserModel,
    ledger: Ledger,
) -> bool:
    """Ask simulation queries and act on the answers until ``target`` events were sent (the
    last turn's remaining actions wait for the next call); False when the queries ran out."""
    while ledger.events < target:
        if not ledger.backlog:
            query_id = next(queue, None)
            if query_id is None:
                return False
            turn, shown = await user.ask(dataset.queries[query_id])
            ledger.answered(model.react(query_id, shown, dataset.qrels[query_id]), turn)
            continue
        action, turn = ledger.backlog.pop(0)
        await user.act(action, turn)
        ledger.record(action)
    return True
