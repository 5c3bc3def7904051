"""Embedding the Bosun graph in another Python program: one question on a persisted thread."""

import asyncio
import sys

from agent.settings import Settings
from agent.wiring import build_clients, open_services
from checkpoints.postgres import open_checkpointer
from graph import build_graph


async def main(question: str) -> None:
    settings = Settings.from_env()  # BOSUN_HOME, DATABASE_URL, provider keys
    async with (
        open_services(settings) as services,
        open_checkpointer(settings.database_uri()) as saver,
    ):
        graph = build_graph(build_clients(services), checkpointer=saver)
        config = {"configurable": {"thread_id": "embed-example"}}
        state = await graph.ainvoke({"messages": [("user", question)]}, config)
        print(state["messages"][-1].content)  # noqa: T201
        for citation in state["citations"]:
            print(f"[C:{citation['id']}] {citation['title']} -> {citation['archive_path']}")  # noqa: T201


if __name__ == "__main__":
    asyncio.run(main(" ".join(sys.argv[1:]) or "What happened?"))
