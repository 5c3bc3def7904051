"""Chat models: Gemini when its key is set, else any ``init_chat_model`` provider, else none.

The one place that sets chat timeouts, retries and the provider-to-provider fallback: when both
Gemini and a ``BOSUN_CHAT_MODEL`` are configured, the second answers when the first fails
(``.with_fallbacks()``). ``None`` means no chat model: the graph answers extractively.

What happens when every configured model fails is not decided here: the answer then comes from the
passages the turn already retrieved, which only the graph holds. That is the one chat-failure
policy, :func:`graph.nodes.call_agent.chat_model_failed` (a node error handler). So that it
answers within one provider timeout, ``init_chat_model`` providers get no retries: a retry after a
timeout would be a second long wait (a CPU model that times out once will time out again);
Gemini gets one attempt for the same reason (its SDK retries timeouts with 5xx).
"""

from __future__ import annotations

import logging
from typing import Any, TypeAlias

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableWithFallbacks

from providers.config import ProviderConfig
from providers.scrub import scrub_secrets

logger = logging.getLogger(__name__)

#: Answers: a little variety in wording, none in facts.
ANSWER_TEMPERATURE = 0.2
#: Routing and classification: the same question always gets the same intent.
CLASSIFIER_TEMPERATURE = 0.0
#: Attempts per request (the Google SDK counts the first try). One: the SDK retries timeouts and
#: refused connections too, and a second attempt after a timeout doubles the wait.
GEMINI_ATTEMPTS = 1
#: Retries per request for ``init_chat_model`` providers (none: see the module docstring).
CHAT_MAX_RETRIES = 0

#: A chat model, or one wrapped with its fallback (``bind_tools`` works on both).
ChatModel: TypeAlias = BaseChatModel | RunnableWithFallbacks


class ChatModelConfigError(RuntimeError):
    """The configured chat model cannot be built; the message says what to install or set."""


def build_chat_model(config: ProviderConfig) -> ChatModel | None:
    """The answering model (temperature 0.2), or None for offline extractive answers."""
    return _build(config, ANSWER_TEMPERATURE)


def build_classifier_model(config: ProviderConfig) -> ChatModel | None:
    """The same provider at temperature 0, for deterministic routing."""
    return _build(config, CLASSIFIER_TEMPERATURE)


def _build(config: ProviderConfig, temperature: float) -> ChatModel | None:
    primary = _gemini(config, temperature) if config.google_api_key else None
    secondary = _init_chat_model(config, temperature) if config.chat_model else None
    if primary is not None and secondary is not None:
        return primary.with_fallbacks([secondary])
    return primary if primary is not None else secondary


def _gemini(config: ProviderConfig, temperature: float) -> BaseChatModel:
    from langchain_google_genai import ChatGoogleGenerativeAI

    kwargs: dict[str, Any] = {}
    if config.google_base_url:
        kwargs["base_url"] = config.google_base_url  # google-genai HttpOptions(base_url=...)
    return ChatGoogleGenerativeAI(
        model=config.gemini_chat_model,
        google_api_key=config.google_api_key,
        temperature=temperature,
        timeout=config.provider_timeout_s,  # the SDK default is no timeout
        max_retries=GEMINI_ATTEMPTS,  # the SDK default is 6 attempts
        **kwargs,
    )


def _init_chat_model(config: ProviderConfig, temperature: float) -> BaseChatModel:
    from langchain.chat_models import init_chat_model

    assert config.chat_model is not None
    if config.chat_model.startswith("openai:") and config.chat_base_url:
        return _openai_compatible(config, temperature)
    kwargs: dict[str, Any] = {
        "temperature": temperature,
        "timeout": config.provider_timeout_s,
        "max_retries": CHAT_MAX_RETRIES,
    }
    if config.chat_model.startswith("openai:"):
        kwargs["stream_chunk_timeout"] = config.provider_timeout_s  # see _openai_compatible
    if config.chat_base_url:
        kwargs["base_url"] = config.chat_base_url
    try:
        return init_chat_model(config.chat_model, **kwargs)
    except ImportError as err:
        provider = config.chat_model.split(":", 1)[0]
        package = _PACKAGES.get(provider, f"langchain-{provider.replace('_', '-')}")
        raise ChatModelConfigError(
            f"BOSUN_CHAT_MODEL={config.chat_model!r} needs the {package} package: "
            f"pip install {package}"
        ) from err
    except ValueError as err:  # pydantic's ValidationError is one too
        if "model provider" in str(err):
            raise ChatModelConfigError(
                f"BOSUN_CHAT_MODEL={config.chat_model!r} names no provider: use "
                "'provider:model', e.g. 'openai:qwen2.5' or 'ollama:qwen2.5'"
            ) from err
        raise ChatModelConfigError(
            f"BOSUN_CHAT_MODEL={config.chat_model!r} cannot be built: "
            f"{scrub_secrets(str(err))[:500]}"
        ) from err


def _openai_compatible(config: ProviderConfig, temperature: float) -> BaseChatModel:
    """A local OpenAI-compatible server: string content on tool-call messages, and a dummy key
    when ``OPENAI_API_KEY`` is unset (langchain-openai needs one; local servers ignore it).

    langchain-openai also ends a stream whose next chunk takes longer than its own
    ``stream_chunk_timeout`` (120 s unless set), whatever the request timeout; a CPU model sends
    its first chunk only after evaluating the whole prompt (over 120 s for 2,400 tokens on 2
    shared cores), so the one provider timeout is applied to that wait too."""
    try:
        from providers.openai_compatible import LOCAL_SERVER_KEY, OpenAICompatibleChat
    except ImportError as err:
        raise ChatModelConfigError(
            f"BOSUN_CHAT_MODEL={config.chat_model!r} needs the langchain-openai package: "
            "pip install langchain-openai"
        ) from err
    assert config.chat_model is not None
    return OpenAICompatibleChat(
        model=config.chat_model.split(":", 1)[1],
        base_url=config.chat_base_url,
        api_key=config.openai_api_key or LOCAL_SERVER_KEY,  # type: ignore[arg-type]
        temperature=temperature,
        timeout=config.provider_timeout_s,
        stream_chunk_timeout=config.provider_timeout_s,
        max_retries=CHAT_MAX_RETRIES,
    )


_PACKAGES = {
    "openai": "langchain-openai",
    "azure_openai": "langchain-openai",
    "ollama": "langchain-ollama",
    "anthropic": "langchain-anthropic",
    "google_genai": "langchain-google-genai",
    "mistralai": "langchain-mistralai",
    "groq": "langchain-groq",
}
