"""The search tool: one visible argument, injected filters and switches, content and artifact."""

from __future__ import annotations

from langchain_core.messages import ToolMessage

from answers.layout import format_passages
from tests.fakes.clients import FakeBackend, FakeReranker, fleet_fixture
from tools.expansion import Expansion
from tools.pipeline import Expander, Pipeline
from tools.search import make_search_tool


def backend() -> FakeBackend:
    passages, registry, docs = fleet_fixture()
    return FakeBackend(passages, registry, docs)


def pipeline(fake: FakeBackend, expander: Expander | None = None) -> Pipeline:
    return Pipeline(fake, FakeReranker(), expander)


def test_the_model_sees_only_the_query() -> None:
    tool = make_search_tool(pipeline(backend()), layout=format_passages)
    schema = tool.tool_call_schema.model_json_schema()  # type: ignore[union-attr]
    assert list(schema["properties"]) == ["query"]
    assert tool.name == "search_archive"


async def test_content_has_citation_headers_and_artifact_has_plain_records() -> None:
    tool = make_search_tool(pipeline(backend()), layout=format_passages)
    message = await tool.ainvoke(
        {
            "type": "tool_call",
            "id": "c1",
            "name": "search_archive",
            "args": {"query": "cylinder liner crack"},
        }
    )
    assert isinstance(message, ToolMessage)
    assert "[CITE:a00000000001 | " in message.content
    (first, *_) = message.artifact["passages"]
    assert first["chunk_id"] == "a00000000001"
    assert first["date"] == "2019-05-02" and isinstance(first["score"], float)


async def test_injected_filters_and_options_reach_retrieval() -> None:
    fake = backend()
    tool = make_search_tool(pipeline(fake), layout=format_passages)
    await tool.ainvoke(
        {
            "query": "engine room leak",
            "filters": {"vessels": [{"key": "9345678", "name": "BALTIC TRADER", "imo": "9345678"}]},
            "options": {"lexical": False, "pool": 5},
        }
    )
    ((query, filters),) = fake.queries
    assert filters.doc_ids == ("da0000000002",)


async def test_expansion_is_optional_and_switchable() -> None:
    seen: list[str] = []

    async def expand(query: str) -> str:
        seen.append(query)
        return query + " spatial disorientation"

    fake = backend()
    tool = make_search_tool(pipeline(fake, expand), layout=format_passages)
    await tool.ainvoke({"query": "pilot confused in clouds", "options": {"expand": True}})
    await tool.ainvoke({"query": "pilot confused", "options": {"expand": False}})
    await tool.ainvoke({"query": "pilot lost"})  # off unless switched on (measured harmful)
    assert seen == ["pilot confused in clouds"]
    assert [q for q, _ in fake.queries] == [
        "pilot confused in clouds spatial disorientation",
        "pilot confused",
        "pilot lost",
    ]


async def test_expansion_is_recorded_and_timed() -> None:
    class Expander:
        async def expand(self, query: str) -> Expansion:
            return Expansion(query, query + " disorientation", ("disorientation",), "prf")

    fake = backend()
    tool = make_search_tool(pipeline(fake, Expander()), layout=format_passages)  # type: ignore[arg-type]
    message = await tool.ainvoke(_call("pilot confused", {"expand": True}))
    artifact = message.artifact
    assert artifact["expansion"] == {
        "method": "prf",
        "original": "pilot confused",
        "text": "pilot confused disorientation",
        "terms": ["disorientation"],
    }
    assert "expand" in artifact["timings"] and "topics" not in artifact["timings"]
    assert artifact["topics"] == []
    off = (await tool.ainvoke(_call("pilot confused", {}))).artifact
    assert off["expansion"]["method"] == "off" and "expand" not in off["timings"]


async def test_topic_filter_runs_only_when_switched_on_and_keeps_structural_filters() -> None:
    fake = backend()
    fake.topics = {"ballast pump": {"a00000000002"}}
    tool = make_search_tool(pipeline(fake), layout=format_passages)
    nordic = {"vessels": [{"key": "9234567", "name": "NORDIC STAR", "imo": "9234567"}]}
    plain = (await tool.ainvoke(_call("engine ballast pump leak", {}))).artifact
    assert "retrieve_topics" not in fake.calls and plain["topics"] == []
    strict = (await tool.ainvoke(_call("engine ballast pump leak", {"topics": True}))).artifact
    assert [c["chunk_id"] for c in strict["passages"]] == ["a00000000002"]
    assert strict["topics"][0]["decision"] == "strict" and "topics" in strict["timings"]
    # The topic's chunk belongs to another vessel: the filter is dropped, the vessel filter kept.
    dropped = (
        await tool.ainvoke(_call("engine ballast pump leak", {"topics": True}, filters=nordic))
    ).artifact
    assert dropped["topics"][-1]["decision"] == "dropped"
    assert fake.queries[-1][1].doc_ids == ("da0000000001",)
    assert {c["doc_id"] for c in dropped["passages"]} <= {"da0000000001"}


def _call(query: str, options: dict, filters: dict | None = None) -> dict:
    return {
        "type": "tool_call",
        "id": "c1",
        "name": "search_archive",
        "args": {"query": query, "options": options, "filters": filters or {}},
    }
