"""A scripted chat model for tests: returns copies of queued messages and can "bind" tools.

LangChain's fake chat models cannot ``bind_tools`` and return the same message object every time
(ids collide across turns); this one returns a fresh copy (``id=None``) of the next queued message,
records every prompt it was given, and fails loudly when the script runs out. A queued exception
is raised instead of answering (a provider failure).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field


class ScriptedChatModel(BaseChatModel):
    """Answers with ``script`` in order; ``calls`` holds the messages of each invocation."""

    script: list[BaseMessage | Exception] = Field(default_factory=list)
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[str] = Field(default_factory=list)  # tool names seen by bind_tools
    tool_choices: list[Any] = Field(default_factory=list)  # bind_tools' tool_choice, per call

    @classmethod
    def replying(cls, *replies: str | BaseMessage | Exception) -> ScriptedChatModel:
        return cls(script=[AIMessage(r) if isinstance(r, str) else r for r in replies])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        self.bound_tools.extend(getattr(t, "name", str(t)) for t in tools)
        self.tool_choices.append(kwargs.get("tool_choice"))
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        if not self.script:
            raise AssertionError("ScriptedChatModel: no scripted reply left")
        scripted = self.script.pop(0)
        if isinstance(scripted, Exception):
            raise scripted
        reply = scripted.model_copy(update={"id": None})
        return ChatResult(generations=[ChatGeneration(message=reply)])

    @property
    def _llm_type(self) -> str:
        return "scripted"
