"""The originals store's settings and the pieces that need no storage server: archive URLs,
link lifetimes, the missing-boto3 message, local deletes, and how storage errors are told."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from agent.errors import exit_code, one_line
from agent.server.config import ServerConfig
from agent.server.payloads import download_link
from agent.settings import Settings, SettingsError
from archive.originals import (
    LocalOriginals,
    OriginalsConfigError,
    S3Location,
    StorageUnavailable,
    open_originals,
)


def settings(**env: str) -> Settings:
    return Settings.from_env({"BOSUN_HOME": "/tmp/bosun-unit", **env})


def test_archive_urls_are_taken_apart_or_refused() -> None:
    assert S3Location.parse("s3://fleet-archive/prod/originals/") == S3Location(
        "fleet-archive", "prod/originals"
    )
    assert S3Location.parse("s3://fleet-archive").key("ab/x.pdf") == "ab/x.pdf"
    assert S3Location.parse("s3://fleet-archive/p").key("ab/x.pdf") == "p/ab/x.pdf"
    for bad in ("https://bucket/p", "s3://Bad_Bucket/p", "s3://b/p", "s3://bucket/a/../b"):
        with pytest.raises(OriginalsConfigError):
            S3Location.parse(bad)


def test_settings_read_the_archive_url_endpoint_region_and_timeout() -> None:
    assert settings().archive_url is None  # the local folder, as before
    configured = settings(
        BOSUN_ARCHIVE_URL="s3://fleet-archive/prod",
        AWS_ENDPOINT_URL="http://generic:9000",
        AWS_ENDPOINT_URL_S3="http://minio:9000",
        AWS_REGION="eu-north-1",
        BOSUN_ARCHIVE_TIMEOUT_S="2.5",
    )
    assert configured.archive_url == "s3://fleet-archive/prod"
    assert configured.s3_endpoint_url == "http://minio:9000"  # the S3-specific one wins
    assert (configured.s3_region, configured.archive_timeout_s) == ("eu-north-1", 2.5)
    with pytest.raises(SettingsError, match="BOSUN_ARCHIVE_URL"):
        settings(BOSUN_ARCHIVE_URL="/srv/archive")
    with pytest.raises(SettingsError, match="BOSUN_ARCHIVE_TIMEOUT_S"):
        settings(BOSUN_ARCHIVE_TIMEOUT_S="0")


def test_link_lifetime_is_configurable_for_both_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "unit-key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "unit-secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    base = settings()
    assert ServerConfig.from_env(base, {"BOSUN_SERVER_SECRET": "s"}).link_ttl_s == 300
    config = ServerConfig.from_env(base, {"BOSUN_SERVER_SECRET": "s", "BOSUN_LINK_TTL_S": "120"})
    assert config.link_ttl_s == 120
    for bad in ("0", "-5", "1.5", "ten", str(8 * 24 * 3600)):
        with pytest.raises(SettingsError, match="BOSUN_LINK_TTL_S"):
            ServerConfig.from_env(base, {"BOSUN_SERVER_SECRET": "s", "BOSUN_LINK_TTL_S": bad})

    local = download_link(LocalOriginals(tmp_path), config, "email/abc/m.eml", "alice")
    query = parse_qs(urlsplit(local).query)
    assert local.startswith("/api/files?") and query["u"] == ["alice"]
    assert 115 <= int(query["exp"][0]) - time.time() <= 121  # the HMAC link lives 120 s

    s3 = open_originals("s3://fleet-archive/p", tmp_path, endpoint_url="http://127.0.0.1:9")
    presigned = download_link(s3, config, "ab12/m.eml", "alice")  # signing needs no network
    assert presigned.startswith("http://127.0.0.1:9/fleet-archive/p/ab12/m.eml?")
    assert parse_qs(urlsplit(presigned).query)["X-Amz-Expires"] == ["120"]
    s3.close()


def test_an_s3_archive_without_boto3_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delitem(sys.modules, "archive.originals.s3", raising=False)
    monkeypatch.setitem(sys.modules, "boto3", None)  # not installed
    with pytest.raises(OriginalsConfigError, match=r"pip install 'bosun\[s3\]'") as raised:
        open_originals("s3://fleet-archive/p", tmp_path)
    assert one_line(raised.value).startswith("bosun: BOSUN_ARCHIVE_URL=s3://fleet-archive/p")
    assert exit_code(raised.value) == 2
    assert isinstance(open_originals(None, tmp_path), LocalOriginals)  # the default needs none


def test_a_local_delete_removes_the_file_and_its_empty_folders(tmp_path: Path) -> None:
    store = LocalOriginals(tmp_path / "archive")
    gone = store.put("email", "a00000000001", "m.eml", b"one")
    kept = store.put("email", "a00000000002", "m.eml", b"two")
    outside = tmp_path / "outside.txt"
    outside.write_text("not the archive's")
    assert store.delete([gone, "email/zz/none.eml", "../outside.txt"]) == 1
    assert not (tmp_path / "archive" / "email" / "a00000000001").exists()
    assert store.exists(kept) and outside.exists()


def test_a_storage_outage_is_told_as_storage_not_database() -> None:
    err = StorageUnavailable("object storage head failed: EndpointConnectionError: connect")
    line = one_line(err)
    assert "object storage head failed" in line and "BOSUN_ARCHIVE_URL" in line
    assert "database" not in line and exit_code(err) == 1
