"""Originals in S3-compatible object storage (AWS, MinIO, Ceph, R2): ``BOSUN_ARCHIVE_URL=
s3://bucket/prefix``, credentials, region and endpoint as boto3 reads them (AWS_ACCESS_KEY_ID /
AWS_SECRET_ACCESS_KEY, AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL).

Archive paths are keyed by content, ``<sha256>/<name>``: an original is uploaded once (a HEAD
finds a stored copy first), a changed file gets a new key, identical attachments share one
object. Downloads are the storage's own pre-signed GET URLs. The S3 calls made: PutObject (with
Content-MD5, so the storage rejects a corrupted upload), HeadObject, DeleteObject and pre-signed
GetObject URLs.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import mimetypes
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from archive.originals.base import (
    CONCURRENCY,
    TIMEOUT_S,
    S3Location,
    StorageUnavailable,
    safe_name,
)

logger = logging.getLogger(__name__)

SHA_META = "sha256"


def content_path(data: bytes, name: str) -> str:
    """The archive path of ``data`` in object storage: its sha256 and a safe file name."""
    return f"{hashlib.sha256(data).hexdigest()}/{safe_name(name)}"


def s3_client(*, endpoint_url: str | None, region: str | None, timeout_s: float, pool: int) -> Any:
    """A boto3 S3 client: SigV4, path-style addressing when an endpoint is configured (what
    MinIO and Ceph need), ``timeout_s`` to connect and to read, two attempts."""
    config = Config(
        signature_version="s3v4",
        connect_timeout=timeout_s,
        read_timeout=timeout_s,
        retries={"max_attempts": 2, "mode": "standard"},
        max_pool_connections=pool,
        s3={"addressing_style": "path" if endpoint_url else "auto"},
    )
    session = boto3.session.Session()  # AWS_PROFILE, keys and AWS_DEFAULT_REGION as boto3 reads
    return session.client("s3", endpoint_url=endpoint_url, region_name=region, config=config)


class S3Originals:
    """Originals as objects under ``s3://bucket/prefix``."""

    def __init__(
        self,
        where: S3Location,
        client: Any,
        *,
        timeout_s: float = TIMEOUT_S,
        concurrency: int = CONCURRENCY,
    ) -> None:
        self.where, self.client, self.timeout_s = where, client, timeout_s
        self._threads = ThreadPoolExecutor(concurrency, thread_name_prefix="s3-originals")

    @property
    def location(self) -> str:
        return self.where.url

    def put(self, kind: str, doc_id: str, name: str, data: bytes) -> str:
        """Upload ``data`` under its content key unless an object of that size is there."""
        relative = content_path(data, name)
        head = self.head(relative)
        if head is not None and head.get("ContentLength") == len(data):
            return relative
        self.upload(relative, data)
        return relative

    def upload(self, relative: str, data: bytes) -> None:
        """PutObject with Content-MD5 (the storage checks it) and the sha256 as metadata."""
        media, _ = mimetypes.guess_type(relative)
        md5 = base64.b64encode(hashlib.md5(data, usedforsecurity=False).digest()).decode()
        self._call(
            "put",
            relative,
            self.client.put_object,
            Bucket=self.where.bucket,
            Key=self.where.key(relative),
            Body=data,
            ContentMD5=md5,
            ContentType=media or "application/octet-stream",
            Metadata={SHA_META: hashlib.sha256(data).hexdigest()},
        )

    def head(self, relative: str) -> dict[str, Any] | None:
        """The object's HEAD response, None when there is no such object."""
        try:
            response: dict[str, Any] = self.client.head_object(
                Bucket=self.where.bucket, Key=self.where.key(relative)
            )
            return response
        except ClientError as err:
            if _status(err) == 404:
                return None
            raise _unavailable("head", relative, err) from err
        except BotoCoreError as err:  # connection refused, timeouts
            raise _unavailable("head", relative, err) from err

    async def all_exist(self, relatives: list[str]) -> list[bool]:
        """HEAD each entry, at most ``concurrency`` at once, all within one timeout."""
        loop = asyncio.get_running_loop()
        checks = [loop.run_in_executor(self._threads, self.head, r) for r in relatives]
        try:
            heads = await asyncio.wait_for(asyncio.gather(*checks), self.timeout_s)
        except TimeoutError:
            raise StorageUnavailable(
                f"object storage did not answer {len(relatives)} checks in {self.timeout_s:g} s"
            ) from None
        return [head is not None for head in heads]

    def delete(self, relatives: Sequence[str]) -> int:
        for relative in relatives:
            self._call(
                "delete",
                relative,
                self.client.delete_object,
                Bucket=self.where.bucket,
                Key=self.where.key(relative),
            )
        return len(relatives)

    def download_url(self, relative: str, *, ttl_s: int) -> str:
        """A pre-signed GET (SigV4, no network call) that downloads under the file's name."""
        name = safe_name(relative.rsplit("/", 1)[-1])
        url: str = self._call(
            "presign",
            relative,
            self.client.generate_presigned_url,
            ClientMethod="get_object",
            Params={
                "Bucket": self.where.bucket,
                "Key": self.where.key(relative),
                "ResponseContentDisposition": f'attachment; filename="{name}"',
            },
            ExpiresIn=ttl_s,
        )
        return url

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)

    def _call(self, what: str, relative: str, method: Any, **params: Any) -> Any:
        try:
            return method(**params)
        except (BotoCoreError, ClientError) as err:
            raise _unavailable(what, relative, err) from err


def _status(err: Any) -> int | None:
    status = err.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    return int(status) if status else None


def _unavailable(what: str, relative: str, err: BaseException) -> StorageUnavailable:
    """The one error object storage failures become (the boto3 message, no credentials)."""
    logger.debug("object storage %s %s failed", what, relative, exc_info=True)
    return StorageUnavailable(f"object storage {what} failed: {type(err).__name__}: {err}")
