"""Concurrent turns on one PostgreSQL: some on one thread, the rest each on its own thread, all
started at once through the turn runner the CLI and the web server use (Postgres checkpointer,
per-thread advisory locks). Counts errors, lost turns (a question or its answer missing from the
thread afterwards), filter leakage (a turn whose filters are not its own thread's) and citation
leakage (a citation not retrieved by its own turn, or outside its thread's vessel filter), and
prints latency percentiles::

    bosun ingest examples/archive
    python benchmarks/concurrent_turns.py --same-thread 25 --separate 25

``tests/integration/test_concurrent_turns.py`` runs a smaller plan with the same checks.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from psycopg import sql

from agent.settings import Settings
from agent.turns import Turn, TurnRunner, open_runner

QUESTIONS = [
    "How was the cylinder liner crack on Nordic Star resolved?",
    "What was the probable cause of the ERA25LA084 accident?",
    "what happened to the steel coils?",
    "Were there any hatch cover repairs?",
    "Which aircraft lost engine power after takeoff?",
]
VESSELS = ["Nordic Star", "Baltic Trader"]
#: Questions for threads filtered to a vessel (about the fleet, not a named report).
FLEET_QUESTIONS = [
    "Were there any repairs?",
    "What problems were reported by the crew?",
    "Was cargo damaged?",
]


@dataclass(frozen=True)
class Ask:
    """One turn to run: its thread, question and the vessel filter its thread asks for."""

    thread: str
    question: str
    vessel: str | None = None


@dataclass
class Outcome:
    ask: Ask
    seconds: float = 0.0
    turn: Turn | None = None
    error: str = ""


@dataclass
class Report:
    outcomes: list[Outcome]
    errors: int = 0
    lost: int = 0
    filter_leaks: int = 0
    citation_leaks: int = 0
    problems: list[str] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        seconds = sorted(o.seconds for o in self.outcomes if not o.error)
        if not seconds:
            return math.nan
        return seconds[min(len(seconds) - 1, math.ceil(p / 100 * len(seconds)) - 1)]


def plan(
    same_thread: int,
    separate: int,
    questions: list[str] = QUESTIONS,
    vessels: list[str] = VESSELS,
    fleet_questions: list[str] = FLEET_QUESTIONS,
) -> list[Ask]:
    """``same_thread`` questions on one thread (no filter), ``separate`` on their own threads,
    every other one filtered to a vessel (and asked a fleet question)."""
    shared = f"shared-{uuid.uuid4().hex[:8]}"
    asks = [Ask(shared, questions[i % len(questions)]) for i in range(same_thread)]
    for i in range(separate):
        thread = f"own-{uuid.uuid4().hex[:8]}"
        if i % 2 == 0:
            vessel = vessels[(i // 2) % len(vessels)]
            asks.append(Ask(thread, fleet_questions[(i // 2) % len(fleet_questions)], vessel))
        else:
            asks.append(Ask(thread, questions[i % len(questions)]))
    return asks


async def _one(runner: TurnRunner, ask: Ask) -> Outcome:
    start = time.perf_counter()
    try:
        turn = await runner.run(
            ask.thread, ask.question, request={"vessel": ask.vessel} if ask.vessel else None
        )
    except Exception as err:  # counted and reported: the point of the benchmark
        return Outcome(ask, time.perf_counter() - start, error=f"{type(err).__name__}: {err}")
    return Outcome(ask, time.perf_counter() - start, turn)


async def run_concurrently(
    runner: TurnRunner, asks: list[Ask], vessels: list[str] = VESSELS
) -> Report:
    """Start every turn at once; then check each thread's history and each turn's state."""
    outcomes = list(await asyncio.gather(*(_one(runner, a) for a in asks)))
    report = Report(outcomes)
    report.errors = sum(1 for o in outcomes if o.error)
    report.problems += [f"error: {o.error[:200]}" for o in outcomes if o.error]
    await _check_threads(runner, asks, report)
    named: dict[str, set[str]] = {}  # thread -> the vessels its own requests and questions name
    for ask in asks:
        own = named.setdefault(ask.thread, set())
        own.update(v.lower() for v in vessels if v.lower() in ask.question.lower())
        if ask.vessel:
            own.add(ask.vessel.lower())
    for outcome in outcomes:
        if outcome.turn is not None:
            await _check_turn(runner, outcome, named[outcome.ask.thread], report)
    return report


async def _check_threads(runner: TurnRunner, asks: list[Ask], report: Report) -> None:
    """Every question asked on a thread is in its history, each followed by an answer."""
    by_thread: dict[str, list[str]] = {}
    for ask in asks:
        by_thread.setdefault(ask.thread, []).append(ask.question)
    for thread, questions in by_thread.items():
        state = await runner.graph.aget_state({"configurable": {"thread_id": thread}})
        messages = (state.values or {}).get("messages", [])
        humans = [m.text for m in messages if isinstance(m, HumanMessage)]
        answers = [m for m in messages if isinstance(m, AIMessage) and not m.tool_calls]
        missing = len(questions) - min(len(humans), len(answers))
        if sorted(humans) != sorted(questions) or missing:
            report.lost += max(missing, 1)
            report.problems.append(
                f"thread {thread}: {len(humans)} questions, {len(answers)} answers"
            )


async def _check_turn(runner: TurnRunner, outcome: Outcome, own: set[str], report: Report) -> None:
    """The turn's vessel filters are its thread's own (asked for, or named by a question of the
    thread) and include what the turn asked for; its citations were retrieved by it and lie
    inside its vessel filter."""
    assert outcome.turn is not None
    state: dict[str, Any] = outcome.turn.state
    vessels = (state.get("filters") or {}).get("vessels", [])
    names = {v["name"].lower() for v in vessels}
    asked = {outcome.ask.vessel.lower()} if outcome.ask.vessel else set()
    if not names <= own or not asked <= names:
        report.filter_leaks += 1
        report.problems.append(f"{outcome.ask.thread}: filters {names}, its own {own}")
    retrieved = {p["chunk_id"] for p in state.get("ranked") or []}
    allowed: set[str] | None = None
    if vessels:
        allowed = await vessel_docs(runner, [v["key"] for v in vessels])
    for citation in state.get("citations") or []:
        if citation["id"] not in retrieved or (
            allowed is not None and citation["doc_id"] not in allowed
        ):
            report.citation_leaks += 1
            report.problems.append(f"{outcome.ask.thread}: citation {citation['id']} leaked")


async def vessel_docs(runner: TurnRunner, keys: list[str]) -> set[str]:
    """The documents naming any of the vessels ``keys`` (what the vessel filter admits)."""
    assert runner.pool is not None
    query = sql.SQL("SELECT DISTINCT doc_id FROM {}.document_vessels WHERE vessel_key = ANY(%s)")
    async with runner.pool.connection() as conn:
        cur = await conn.execute(query.format(sql.Identifier(runner.settings.collection)), (keys,))
        return {row["doc_id"] for row in await cur.fetchall()}


async def main_async(same_thread: int, separate: int, as_json: bool = False) -> Report:
    from render import Table, emit  # benchmarks/render.py (this script's folder)

    settings = Settings.from_env()
    async with open_runner(settings) as runner:
        start = time.perf_counter()
        report = await run_concurrently(runner, plan(same_thread, separate))
        wall = time.perf_counter() - start
    ok = [o for o in report.outcomes if not o.error]
    columns = ["turns", "errors", "lost", "filter leaks", "citation leaks", "p50 s", "p95 s"]
    row = [
        len(report.outcomes),
        report.errors,
        report.lost,
        report.filter_leaks,
        report.citation_leaks,
        round(report.percentile(50), 2),
        round(report.percentile(95), 2),
    ]
    columns += ["max s", "wall s"]
    row += [round(max((o.seconds for o in ok), default=math.nan), 2), round(wall, 1)]
    command = (
        f"python benchmarks/concurrent_turns.py --same-thread {same_thread} "
        f"--separate {separate} --json"
    )
    emit(command, [Table("turns", columns, [row])], as_json=as_json, problems=report.problems)
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--same-thread", type=int, default=25)
    parser.add_argument("--separate", type=int, default=25)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.same_thread, args.separate, args.json))


if __name__ == "__main__":
    main()
