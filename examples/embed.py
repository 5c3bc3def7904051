"""Embedding the Bosun graph in another Python program: one question on a persisted thread."""

import asyncio
import sys

from langchain_core.runnables import RunnableConfig

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph import build_graph
from providers.tracing import flush_tracing, trace_metadata, tracing_callbacks


async def main(question: str) -> None:
    settings = Settings.from_env()  # BOSUN_HOME, DATABASE_URL, provider and Langfuse keys
    thread, user = "embed-example", "embed"
    async with (
        open_services(settings) as services,
        open_checkpointer(settings.database_uri()) as saver,
    ):
        graph = build_graph(build_clients(services), checkpointer=saver)
        config: RunnableConfig = {
            "configurable": {"thread_id": thread},
            # Traced in Langfuse when its keys are set (session = thread); [] otherwise.
            "callbacks": tracing_callbacks(settings.providers, session_id=thread, user_id=user),
            "metadata": trace_metadata(thread, user),
        }
        state = await graph.ainvoke({"messages": [("user", question)]}, config)
        print(state["messages"][-1].content)  # noqa: T201
        print(state["rendered"].split("Sources:", 1)[-1])  # noqa: T201  numbered sources
        for citation in state["citations"]:
            print(f"[C:{citation['id']}] {citation['title']} -> {citation['archive_path']}")  # noqa: T201
    flush_tracing()


if __name__ == "__main__":
    asyncio.run(main(" ".join(sys.argv[1:]) or "What happened?"))
