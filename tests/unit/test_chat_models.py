"""Which chat model the settings choose, without any network."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.runnables import RunnableWithFallbacks
from langchain_google_genai import ChatGoogleGenerativeAI

from agent.settings import Settings
from providers.chat import ChatModelConfigError, build_chat_model, build_classifier_model
from providers.openai_compatible import LOCAL_SERVER_KEY, OpenAICompatibleChat


def _settings(**env: str) -> Settings:
    return Settings.from_env({"BOSUN_HOME": str(Path("/nonexistent/bosun")), **env})


def test_no_provider_means_offline_extractive_mode() -> None:
    assert build_chat_model(_settings()) is None
    assert build_classifier_model(_settings()) is None


def test_gemini_gets_explicit_timeout_bounded_retries_and_temperatures() -> None:
    settings = _settings(
        GOOGLE_API_KEY="test-google-key",
        BOSUN_PROVIDER_TIMEOUT_S="7",
        BOSUN_GOOGLE_BASE_URL="http://127.0.0.1:9",
    )
    answer = build_chat_model(settings)
    classifier = build_classifier_model(settings)
    assert isinstance(answer, ChatGoogleGenerativeAI)
    assert isinstance(classifier, ChatGoogleGenerativeAI)
    assert answer.model.endswith("gemini-2.5-flash")
    assert answer.temperature == 0.2
    assert classifier.temperature == 0.0
    assert answer.timeout == 7.0
    assert answer.max_retries == 1  # attempts: no retry, a timeout costs one timeout
    assert answer.base_url == "http://127.0.0.1:9"


def test_missing_provider_package_names_what_to_install() -> None:
    try:
        import langchain_ollama  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("langchain-ollama is installed here")
    settings = _settings(
        BOSUN_CHAT_MODEL="ollama:qwen2.5", BOSUN_CHAT_BASE_URL="http://127.0.0.1:9"
    )
    with pytest.raises(ChatModelConfigError, match="pip install langchain-ollama"):
        build_chat_model(settings)


def test_a_local_openai_compatible_server_gets_one_attempt_and_a_dummy_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = _settings(
        BOSUN_CHAT_MODEL="openai:qwen2.5-1.5b-instruct",
        BOSUN_CHAT_BASE_URL="http://127.0.0.1:9/v1",
        BOSUN_PROVIDER_TIMEOUT_S="180",
    )
    model = build_chat_model(settings)
    assert isinstance(model, OpenAICompatibleChat)
    assert model.model_name == "qwen2.5-1.5b-instruct"
    assert model.max_retries == 0 and model.request_timeout == 180.0
    assert model.openai_api_key is not None
    assert model.openai_api_key.get_secret_value() == LOCAL_SERVER_KEY


def test_a_model_string_without_provider_is_explained() -> None:
    with pytest.raises(ChatModelConfigError, match="names no provider"):
        build_chat_model(_settings(BOSUN_CHAT_MODEL="qwen2.5"))


def test_second_provider_is_the_fallback_of_gemini(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "test-google-key")  # init_chat_model reads it
    settings = _settings(
        GOOGLE_API_KEY="test-google-key", BOSUN_CHAT_MODEL="google_genai:gemini-2.0-flash-lite"
    )
    model = build_chat_model(settings)
    assert isinstance(model, RunnableWithFallbacks)
    assert isinstance(model.runnable, ChatGoogleGenerativeAI)
    assert model.runnable.model.endswith("gemini-2.5-flash")
    (fallback,) = model.fallbacks
    assert isinstance(fallback, ChatGoogleGenerativeAI)
    assert fallback.model.endswith("gemini-2.0-flash-lite")
    assert fallback.temperature == 0.2
