"""The search tool: one visible argument, injected filters and switches, content and artifact."""

from __future__ import annotations

from langchain_core.messages import ToolMessage

from tests.fakes.clients import FakeBackend, fleet_fixture
from tools.search import make_search_tool


def backend() -> FakeBackend:
    passages, registry, docs = fleet_fixture()
    return FakeBackend(passages, registry, docs)


def test_the_model_sees_only_the_query() -> None:
    tool = make_search_tool(backend())
    schema = tool.tool_call_schema.model_json_schema()  # type: ignore[union-attr]
    assert list(schema["properties"]) == ["query"]
    assert tool.name == "search_archive"


async def test_content_has_citation_headers_and_artifact_has_plain_records() -> None:
    tool = make_search_tool(backend())
    message = await tool.ainvoke(
        {"type": "tool_call", "id": "c1", "name": "search_archive",
         "args": {"query": "cylinder liner crack"}}
    )  # fmt: skip
    assert isinstance(message, ToolMessage)
    assert "[CITE:a00000000001 | " in message.content
    (first, *_) = message.artifact
    assert first["chunk_id"] == "a00000000001"
    assert first["date"] == "2019-05-02" and isinstance(first["score"], float)


async def test_injected_filters_and_options_reach_retrieval() -> None:
    fake = backend()
    tool = make_search_tool(fake)
    await tool.ainvoke(
        {"query": "engine room leak",
         "filters": {"vessels": [{"key": "9345678", "name": "BALTIC TRADER", "imo": "9345678"}]},
         "options": {"hybrid": False, "k": 5}}
    )  # fmt: skip
    ((query, filters),) = fake.queries
    assert filters.doc_ids == ("da0000000002",)


async def test_expansion_is_optional_and_switchable() -> None:
    seen: list[str] = []

    async def expand(query: str) -> str:
        seen.append(query)
        return query + " spatial disorientation"

    fake = backend()
    tool = make_search_tool(fake, expander=expand)
    await tool.ainvoke({"query": "pilot confused in clouds"})
    await tool.ainvoke({"query": "pilot confused", "options": {"expand": False}})
    assert seen == ["pilot confused in clouds"]
    assert [q for q, _ in fake.queries] == [
        "pilot confused in clouds spatial disorientation",
        "pilot confused",
    ]
