"""Settings read with pydantic-settings: a bad value is one clear error naming the variable,
unset and blank variables keep the defaults, and nothing is read at import time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.errors import SettingsError
from agent.server.config import ServerConfig
from agent.settings import Settings


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("BOSUN_RATE_CHAT", "lots", "BOSUN_RATE_CHAT must be a whole number from 1 to"),
        ("BOSUN_RATE_CHAT", "2.5", "BOSUN_RATE_CHAT must be a whole number from 1 to"),
        ("BOSUN_RATE_CITATIONS", "0", "BOSUN_RATE_CITATIONS must be a whole number from 1 to"),
        (
            "BOSUN_TEST_CITATIONS_DELAY_S",
            "soon",
            "BOSUN_TEST_CITATIONS_DELAY_S must be a number of seconds >= 0, got 'soon'",
        ),
    ],
)
def test_a_bad_server_setting_names_its_variable(
    tmp_path: Path, name: str, value: str, message: str
) -> None:
    env = {"BOSUN_SERVER_SECRET": "s3cret", name: value}
    with pytest.raises(SettingsError) as caught:
        ServerConfig.from_env(Settings(home=tmp_path), env)
    assert str(caught.value).startswith(message)
    assert "s3cret" not in str(caught.value)


def test_server_settings_parse_and_default(tmp_path: Path) -> None:
    env = {"BOSUN_SERVER_SECRET": " s3cret ", "BOSUN_RATE_CHAT": " 12 ", "BOSUN_RATE_CITATIONS": ""}
    config = ServerConfig.from_env(Settings(home=tmp_path), env)
    assert (config.secret, config.chat_per_minute, config.citations_per_minute) == (
        b"s3cret",
        12,
        100,  # blank: the default
    )
    assert config.local_mode and config.citations_delay_s == 0.0


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("BOSUN_CHAT_TOOLS", "maybe", "BOSUN_CHAT_TOOLS must be on or off, got 'maybe'"),
        (
            "BOSUN_SERVER_LINGER_S",
            "-1",
            "BOSUN_SERVER_LINGER_S must be a number of seconds >= 0, got '-1'",
        ),
        ("BOSUN_DB_TIMEOUT_S", "0", "BOSUN_DB_TIMEOUT_S must be a number of seconds > 0"),
        ("DATABASE_URL", "mysql://admin:pa55@db/x", "DATABASE_URL must be a postgresql://"),
    ],
)
def test_a_bad_setting_names_its_variable(name: str, value: str, message: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"BOSUN_HOME": "/tmp/x", name: value})
    assert str(caught.value).startswith(message)
    assert "pa55" not in str(caught.value)


def test_variables_keep_their_documented_names() -> None:
    settings = Settings.from_env(
        {
            "BOSUN_HOME": " /tmp/bosun-home ",
            "GEMINI_API_KEY": "g-key",  # GOOGLE_API_KEY's other name
            "BOSUN_CHAT_TOOLS": "off",
            "BOSUN_COLLECTION": "",  # blank: the default
            "BOSUN_CROSS_ENCODER_DIR": "/models/ce",
            "BOSUN_SERVER_LINGER_S": "0",
            "BOSUN_EMBEDDINGS": "Local",
        }
    )
    assert settings.home == Path("/tmp/bosun-home")
    assert settings.cache_dir == Path("/tmp/bosun-home/cache")
    assert settings.google_api_key == "g-key" and settings.chat_tools is False
    assert settings.collection == "bosun" and settings.cross_encoder_dir == Path("/models/ce")
    assert settings.server_linger_s == 0.0 and settings.embeddings == "local"
    assert Settings.from_env({"BOSUN_HOME": "/x"}).server_linger_s == 300.0  # lingers by default
    both = {"BOSUN_HOME": "/x", "GOOGLE_API_KEY": "first", "GEMINI_API_KEY": "second"}
    assert Settings.from_env(both).google_api_key == "first"


def test_nothing_is_read_at_import_time() -> None:
    bad = {**os.environ, "BOSUN_HNSW_EF_SEARCH": "many", "BOSUN_RATE_CHAT": "lots"}
    imported = subprocess.run(
        [sys.executable, "-c", "import agent.settings, agent.server.config"],
        env=bad,
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 0, imported.stderr
    read = subprocess.run(
        [sys.executable, "-c", "from agent.settings import Settings; Settings.from_env()"],
        env=bad,
        capture_output=True,
        text=True,
    )
    assert "BOSUN_HNSW_EF_SEARCH must be a whole number" in read.stderr
