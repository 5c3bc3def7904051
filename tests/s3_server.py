"""A standalone S3 server on 127.0.0.1 for the tests: moto's ``moto_server``, an emulator (not
AWS, MinIO or Ceph), started on a free port and stopped by the test. The product talks to it
through the real boto3 client, as it would to any S3-compatible endpoint.

Known limits of the emulator: it does not check request signatures, so a pre-signed URL's
expiry and signature are not enforced by it (the tests check the URL carries them)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3
import httpx
from botocore.config import Config

#: Credentials the emulator accepts (any); never real ones.
CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "bosun-test-key",
    "AWS_SECRET_ACCESS_KEY": "bosun-test-secret",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class S3Server:
    """One running emulator and a bucket in it."""

    endpoint: str
    bucket: str
    proc: subprocess.Popen[bytes] = field(repr=False)

    @property
    def env(self) -> dict[str, str]:
        """What a process needs to reach it: the usual AWS variables."""
        return {**CREDENTIALS, "AWS_ENDPOINT_URL_S3": self.endpoint}

    def url(self, prefix: str) -> str:
        return f"s3://{self.bucket}/{prefix}"

    def client(self) -> Any:
        """A plain boto3 client for the test's own checks."""
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=CREDENTIALS["AWS_DEFAULT_REGION"],
            aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"}),
        )

    def keys(self, prefix: str = "") -> list[str]:
        listed = self.client().list_objects_v2(Bucket=self.bucket, Prefix=prefix)
        return sorted(item["Key"] for item in listed.get("Contents", []))

    def stop(self) -> None:
        """Stop the server (a storage outage): its port refuses connections afterwards."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@contextmanager
def s3_server(log: Path, startup_s: float = 60.0) -> Iterator[S3Server]:
    """``moto_server`` on a free port of 127.0.0.1 with one fresh bucket; stopped afterwards."""
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    server = S3Server(endpoint, f"bosun-{uuid.uuid4().hex[:10]}", proc)
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"moto_server exited: {log.read_text()[-2000:]}")
            try:
                httpx.get(f"{endpoint}/moto-api/", timeout=2.0)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise AssertionError("moto_server did not start") from None
                time.sleep(0.2)
        server.client().create_bucket(Bucket=server.bucket)
        yield server
    finally:
        server.stop()
