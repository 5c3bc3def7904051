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
        # The answer with numbered citations and its source list, as `bosun ask` prints it.
        print(state["rendered"])  # noqa: T201
        for citation in state["citations"]:
            print(f"[C:{citation['id']}] {citation['title']} -> {citation['archive_path']}")  # noqa: T201
    flush_tracing()


#: Asked when no question is given: the example archive (`bosun ingest examples/archive`)
#: answers it from the fleet mailbox.
QUESTION = "How was the cylinder liner crack on Nordic Star resolved?"

if __name__ == "__main__":
    asyncio.run(main(" ".join(sys.argv[1:]) or QUESTION))
