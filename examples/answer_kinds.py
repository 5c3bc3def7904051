"""One real answer of each kind — cause, fix, pattern, count, follow-up — from the example archive,
offline, as `bosun ask` prints them (plain text, for pasting into the README).

    python examples/answer_kinds.py            # BOSUN_HOME as set (default ~/.bosun)
    python examples/answer_kinds.py --kind fix # one kind only

The example archive is ingested first (`bosun ingest examples/archive`: nothing to do when it is
already in). Each kind runs on a fresh thread; the follow-up asks its first question, then the
follow-up on the same thread, as `bosun ask ... --thread T` would. Where the archive's own fields
give the answer (the count, the follow-up's injuries), the record's values are printed below the
answer, computed from examples/archive/ntsb/reports_sample.jsonl, so a reader can check it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import uuid
from dataclasses import dataclass
from pathlib import Path

from agent.cli import main as bosun
from agent.conversation import render
from agent.settings import Settings
from agent.turns import open_runner

ARCHIVE = Path(__file__).resolve().parent / "archive"
RECORDS = ARCHIVE / "ntsb" / "reports_sample.jsonl"


@dataclass(frozen=True)
class Kind:
    """A kind of question: the questions asked on one thread, in order."""

    name: str
    questions: tuple[str, ...]


KINDS = (
    Kind("cause", ("What was the probable cause of the ERA25LA084 accident?",)),
    Kind("fix", ("How was the cylinder liner crack on Nordic Star resolved?",)),
    Kind("pattern", ("What are the most common causes of fatal landing accidents?",)),
    Kind("count", ("How many accidents in Texas in 2011 were fatal?",)),
    Kind(
        "follow-up",
        (
            "What happened in the Robinson R44 accident near Hackensack, Minnesota?",
            "Were there any injuries?",
        ),
    ),
)


def _records() -> list[dict[str, object]]:
    with RECORDS.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def record_facts(kind: str) -> str | None:
    """What the records' fields say for the kinds the fields answer (to check the answer by)."""
    records = _records()
    if kind == "count":
        texas = [
            r for r in records if r["state"] == "Texas" and str(r["event_date"]).startswith("2011")
        ]
        fatal = [r for r in texas if int(str(r["fatal"] or 0)) > 0]
        return f"{len(fatal)} fatal among the {len(texas)} records from Texas in 2011"
    if kind == "follow-up":
        (r44,) = [r for r in records if r["city"] == "Hackensack" and "R44" in str(r["model"])]
        return (
            f"{r44['ntsb_no']}: {r44['fatal']} fatal, {r44['serious']} serious, "
            f"{r44['minor']} minor"
        )
    return None


async def answer(settings: Settings, kinds: list[Kind]) -> None:
    async with open_runner(settings) as runner:
        for kind in kinds:
            thread = f"readme-{kind.name}-{uuid.uuid4().hex[:6]}"
            print(f"## {kind.name}\n")  # noqa: T201
            for question in kind.questions:
                turn = await runner.run(thread, question)
                follow = f" --thread {thread}" if len(kind.questions) > 1 else ""
                print(f'$ bosun ask "{question}"{follow}')  # noqa: T201
                print(render(turn), end="\n\n")  # noqa: T201
            if facts := record_facts(kind.name):
                print(f"(the records' fields: {facts})\n")  # noqa: T201


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=[k.name for k in KINDS], action="append")
    args = parser.parse_args()
    with contextlib.redirect_stdout(sys.stderr):  # the answers alone on stdout
        code = bosun(["ingest", str(ARCHIVE), "--no-progress"])
    if code:
        return code
    kinds = [k for k in KINDS if not args.kind or k.name in args.kind]
    asyncio.run(answer(Settings.from_env(), kinds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
