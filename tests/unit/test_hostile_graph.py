"""The hostile-input corpus through whole graph turns: no traceback, nothing of an attack reaches
the chat model or the search, and every file the turn asks about lies inside the archive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatResult
from langgraph.checkpoint.memory import InMemorySaver

from archive.originals import LocalOriginals
from graph import Clients, Context, build_graph, prompts
from tests.fakes.chat import ScriptedChatModel
from tests.fakes.clients import FakeBackend, FakeReranker, fleet_fixture
from tests.hostile import corpus, survivors


class SearchingModel(ScriptedChatModel):
    """Searches for the question it was given, then answers citing the first passage."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        # The prompt: system, history, dynamic context; the turn's last step is before the context.
        if isinstance(messages[-2], ToolMessage):
            self.script.append(AIMessage("The pump was renewed [C:a00000000002]."))
        else:
            question = messages[-2].text
            call = {"name": "search_archive", "args": {"query": question}, "id": "c1"}
            self.script.append(AIMessage("", tool_calls=[call]))
        return super()._generate(messages, stop, run_manager, **kwargs)


class RecordingArchive(LocalOriginals):
    """The real archive class over a temporary folder, recording every path it is asked about."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.asked: list[str] = []

    def exists(self, relative: str) -> bool:
        self.asked.append(relative)
        return super().exists(relative)


async def test_the_corpus_through_the_graph(tmp_path: Path) -> None:
    passages, registry, docs = fleet_fixture()
    backend = FakeBackend(passages, registry, docs)
    model = SearchingModel()
    archive = RecordingArchive(tmp_path)
    graph = build_graph(
        Clients(backend=backend, archive=archive, reranker=FakeReranker(), chat_model=model),
        checkpointer=InMemorySaver(),
    )
    leaks: dict[str, list[str]] = {}
    for n, entry in enumerate(corpus()):
        calls, queries = len(model.calls), len(backend.queries)
        out = await graph.ainvoke(
            {"messages": [HumanMessage(entry["input"])]},
            {"configurable": {"thread_id": f"t{n % 7}"}, "recursion_limit": 40},
            context=Context(score_cutoff=0.0),
        )
        assert out["messages"][-1].text is not None
        # Everything the model read (the prompt and passages legitimately hold citation markers,
        # so only the attack's words are looked for there)...
        prompts = [m.text for call in model.calls[calls:] for m in call]
        left = [s for text in prompts for s in survivors(entry, text) if s.isalpha()]
        # ...and what came from the user: their messages (as stored and as the model read them,
        # the dynamic context last) and the searches run.
        users = [
            m.text
            for call in model.calls[calls:]
            for m in call
            if type(m) is HumanMessage and not is_dynamic_context(m.text)
        ]
        users += [str(m.content) for m in out["messages"] if isinstance(m, HumanMessage)]
        users += [str(q) for q, _ in backend.queries[queries:]]
        left += [s for text in users for s in survivors(entry, text)]
        if left:
            leaks[entry["id"]] = sorted(set(left))
    assert not leaks, leaks
    assert model.calls, "the model was never called: the test would prove nothing"
    assert archive.asked and all(_inside(tmp_path, p) for p in archive.asked)


def is_dynamic_context(text: str) -> bool:
    """The turn's instructions and passages (graph.nodes.call_agent.dynamic_context), or the
    repair step's request with the passage ids: Bosun's words, which legitimately hold citation
    headers and markers."""
    repair = prompts.REPAIR_PROMPT.split("{", 1)[0]
    return ("\nActive filters: " in text and "\nQuestion: " in text) or text.startswith(repair)


def _inside(root: Path, relative: str) -> bool:
    return (root / relative).resolve().is_relative_to(root.resolve())
