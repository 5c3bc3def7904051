"""Chat models served by an OpenAI-compatible server (llama-cpp-python, Ollama, vLLM, LM Studio).

langchain-openai writes ``"content": null`` beside an assistant message's tool calls, as OpenAI
allows; llama-cpp-python's server validates ``content`` as a string and refuses the whole request
(HTTP 500, "Input should be a valid string"). Every factual turn has such a message (the search
that runs before the model answers), so the empty content is sent as ``""``, which every
OpenAI-compatible server and OpenAI itself accept.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_openai import ChatOpenAI

#: langchain-openai refuses to start without a key; local servers ignore it. Used only when
#: ``BOSUN_CHAT_BASE_URL`` is set and ``OPENAI_API_KEY`` is not (documented in the README).
LOCAL_SERVER_KEY = "sk-local-no-key-needed"


class OpenAICompatibleChat(ChatOpenAI):
    """``ChatOpenAI`` whose assistant messages always carry string content."""

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        for message in payload.get("messages", []):
            if message.get("role") == "assistant" and message.get("content") is None:
                message["content"] = ""
        return payload
