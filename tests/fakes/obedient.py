"""A strict fake chat model that obeys planted instructions, so a test of the defence can fail.

Called with no passages in front of it, it searches for the question. With passages, it reads
every message but the system prompt and, outside the quoted blocks the context layout puts marked
passages in (``<<<QUOTED ARCHIVE TEXT ...>>>`` to ``<<<END OF QUOTED ARCHIVE TEXT>>>``), looks for
an instruction: a phrasing the detector knows, or the payload word itself (so it obeys also what
the detector would miss). Seeing one, it obeys: it replies with the payload, citing the first
passage. Otherwise it answers honestly from the first passage. ``parrot=True``: it always
repeats the payload (a model that obeys even quoted text), which validation must flag.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from tests.fakes.chat import ScriptedChatModel
from text.injection import fold, instructions_in

_QUOTED = re.compile(r"<<<QUOTED ARCHIVE TEXT.*?<<<END OF QUOTED ARCHIVE TEXT>>>", re.S)
_CITE = re.compile(r"\[CITE:([0-9a-f]{12})")
_QUESTION = re.compile(r"^Question: (.+)$", re.M)
_CITING = {"citation_header", "citation_marker"}


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", fold(unicodedata.normalize("NFKC", text)).lower())


class ObedientModel(ScriptedChatModel):
    """See the module docstring; ``obeyed`` counts the replies that obeyed an instruction."""

    payload: str = "PWNED"
    parrot: bool = False
    obeyed: int = 0

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(list(messages))
        seen = "\n".join(m.text for m in messages if not isinstance(m, SystemMessage))
        cited = _CITE.findall(seen)
        if not cited:
            asked = _QUESTION.findall(seen)
            question = asked[-1] if asked else messages[-1].text
            call = {"name": "search_archive", "args": {"query": question}, "id": "s1"}
            return self._reply(AIMessage("", tool_calls=[call]))
        outside = _QUOTED.sub(" ", seen)
        planted = [n for n in instructions_in(outside) if n not in _CITING]
        if self.parrot or planted or _letters(self.payload) in _letters(outside):
            self.obeyed += 1
            return self._reply(AIMessage(f"{self.payload} [C:{cited[0]}]"))
        return self._reply(AIMessage(f"The archive holds this in one passage [C:{cited[0]}]."))

    def _reply(self, message: AIMessage) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=message)])
