"""The web app's pure pieces: signed links, API keys, archive paths, highlight offsets, sentence
tokens, and the LangGraph Server auth hook."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph_sdk import Auth
from starlette.exceptions import HTTPException

from agent.server import langgraph_auth
from agent.server.auth import key_of, user_for_key
from agent.server.citations import archive_relative, document_text
from agent.server.config import ServerConfig, ServerConfigError, parse_api_keys, stored_secret
from agent.server.signing import signed_url, verify
from agent.thread_registry import thread_title
from text.sentences import sentence_pieces

SECRET = b"unit-secret"


def _parts(url: str) -> dict[str, str]:
    from urllib.parse import parse_qs, urlsplit

    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_a_signed_link_verifies_until_it_expires() -> None:
    now = 1_800_000_000.0
    q = _parts(signed_url(SECRET, "email/abc/x.eml", user="alice", ttl_s=300, now=now))
    assert q["exp"] == str(int(now) + 300)
    assert verify(SECRET, q["path"], q["exp"], q["u"], q["sig"], now=now + 299)
    assert not verify(SECRET, q["path"], q["exp"], q["u"], q["sig"], now=now + 301)
    assert not verify(b"other", q["path"], q["exp"], q["u"], q["sig"], now=now)
    assert not verify(SECRET, "email/abc/y.eml", q["exp"], q["u"], q["sig"], now=now)
    assert not verify(SECRET, q["path"], q["exp"], "bob", q["sig"], now=now)
    assert not verify(SECRET, q["path"], "-1", q["u"], q["sig"], now=now)
    assert not verify(SECRET, q["path"], q["exp"], q["u"], "", now=now)


@pytest.mark.parametrize(
    "path",
    [
        "..",
        "../x",
        "email/../../x",
        "%2e%2e/x",
        "%252e%252e/x",
        "/etc/passwd",
        "email\\..\\x",
        "C:/x",
        "email/./x",
        "email//x",
        "email/x\x00",
        "",
        "a/" * 9 + "x",
    ],
)
def test_anything_but_a_plain_archive_path_is_refused(path: str) -> None:
    with pytest.raises(HTTPException) as err:
        archive_relative(path)
    assert err.value.status_code == 400


def test_plain_archive_paths_pass() -> None:
    assert (
        archive_relative("email/3f9a1c0b7e21/report_v2.pdf") == "email/3f9a1c0b7e21/report_v2.pdf"
    )


def test_api_keys_map_to_users_and_local_mode_needs_loopback() -> None:
    keys = parse_api_keys(" key1:alice , key:with:colon:bob ")
    assert keys == {"key1": "alice", "key:with:colon": "bob"}
    with pytest.raises(ServerConfigError):
        parse_api_keys("no-user-here")
    config = ServerConfig(api_keys=keys)
    assert user_for_key(config, "key1") == "alice" and user_for_key(config, "nope") is None
    assert user_for_key(config, None) is None
    assert user_for_key(ServerConfig(), None) == "local"
    ServerConfig().check_bind("127.0.0.1")
    config.check_bind("10.0.0.5")  # one address: its own name is the Host clients send
    ServerConfig(api_keys=keys, public_hosts=("bosun.example.org",)).check_bind("0.0.0.0")
    with pytest.raises(ServerConfigError, match="BOSUN_API_KEYS"):
        ServerConfig().check_bind("0.0.0.0")
    assert key_of({"authorization": "Bearer k1"}) == "k1"
    assert key_of({"x-api-key": " k2 "}) == "k2"
    assert key_of({"authorization": "Basic abc"}) is None


def test_the_generated_secret_is_kept_private_and_reused(tmp_path: Path) -> None:
    first = stored_secret(tmp_path / "home")
    assert len(first) == 64 and stored_secret(tmp_path / "home") == first
    assert (tmp_path / "home" / "server-secret").stat().st_mode & 0o077 == 0


def test_the_config_reads_the_environment_once(tmp_path: Path) -> None:
    from agent.settings import Settings

    env = {
        "BOSUN_API_KEYS": "k:alice",
        "BOSUN_SERVER_SECRET": "s3cret",
        "BOSUN_TEST_CITATIONS_DELAY_S": "4",
    }
    config = ServerConfig.from_env(Settings(home=tmp_path), env)
    assert config.api_keys == {"k": "alice"} and config.secret == b"s3cret"
    assert config.citations_delay_s == 4.0 and config.chat_per_minute == 30
    assert "s3cret" not in repr(config) and "alice" not in repr(config)


def test_highlight_offsets_point_at_the_passage_in_the_joined_text() -> None:
    first = "The purifier overheated on the passage. Sludge blocked the outlet bowl."
    second = "Sludge blocked the outlet bowl. The bowl was cleaned and the seal renewed."
    third = "An unrelated later section."
    parts = [("a" * 12, first), ("b" * 12, second), ("c" * 12, third)]
    for cid, content in parts:
        text, start, end = document_text(parts, cid)
        assert text[start:end] == content
    text, _, _ = document_text(parts, "b" * 12)
    assert text.count("Sludge blocked the outlet bowl.") == 1  # the overlap is not repeated


def test_sentences_join_back_to_the_text() -> None:
    text = "First one [C:0123456789ab]. Second! Third? tail without stop"
    pieces = sentence_pieces(text)
    assert "".join(pieces) == text and len(pieces) == 4
    assert sentence_pieces("") == []


async def test_langgraph_auth_maps_keys_to_users(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOSUN_API_KEYS", "k1:alice")
    langgraph_auth._config.cache_clear()
    try:
        user = await langgraph_auth.authenticate({b"authorization": b"Bearer k1"})
        assert user == {"identity": "alice"}
        with pytest.raises(Auth.exceptions.HTTPException):
            await langgraph_auth.authenticate({b"x-api-key": b"wrong"})
    finally:
        langgraph_auth._config.cache_clear()


def test_workers_creating_the_secret_together_agree(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(8) as pool:
        secrets = list(pool.map(lambda _: stored_secret(tmp_path / "race"), range(16)))
    assert len(set(secrets)) == 1 and len(secrets[0]) == 64
    assert [p.name for p in (tmp_path / "race").iterdir()] == ["server-secret"]


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("  What   caused\nthe fire?  ", "What caused the fire?"),
        ("x" * 70, "x" * 59 + "…"),  # one long word: cut inside it
        ("a" * 40 + " " + "b" * 40, "a" * 40 + "…"),
        (
            "Which vessels, in 2024, reported a purifier overheating, a crack, or a leak?",
            "Which vessels, in 2024, reported a purifier overheating, a…",
        ),
        ("Was the \u202eengine\u202c restarted?", "Was the engine restarted?"),
        (  # the cut falls just after a whole word: kept, its comma dropped
            "What happened in the Robinson R44 accident near Hackensack, Minnesota?",
            "What happened in the Robinson R44 accident near Hackensack…",
        ),
    ],
)
def test_a_thread_title_is_the_question_on_one_line_cut_at_a_word(
    question: str, title: str
) -> None:
    assert thread_title(question) == title
