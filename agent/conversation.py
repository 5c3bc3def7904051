"""`bosun ask` and `bosun chat`: conversations with the graph on a persisted thread.

Wired into :mod:`agent.cli` with :func:`add_conversation_parsers`, :func:`run_ask` and
:func:`run_chat`. Each turn runs with Langfuse callbacks when its keys are set; errors shown to the
user pass through :func:`agent.errors.one_line`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import uuid
from collections.abc import Sequence
from typing import cast

from agent.arguments import fraction
from agent.errors import exit_code, one_line
from agent.settings import Settings
from agent.turns import Turn, TurnRunner, open_runner
from answers.citations import render_answer
from graph.builder import BosunGraph
from graph.context import Context
from providers.tracing import flush_tracing
from tools.filters import Filters, describe

logger = logging.getLogger(__name__)

QUIT = {"exit", "quit", ":q", "/quit", "/exit"}


def add_conversation_parsers(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``ask`` and ``chat`` to the ``bosun`` command line."""
    add_ask_parser(subparsers)
    add_chat_parser(subparsers)


def add_ask_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    ask = subparsers.add_parser("ask", help="ask a question; answers cite the archive")
    ask.add_argument("question")
    ask.add_argument("--thread", help="conversation id to continue (default: a new one)")
    _add_turn_args(ask)
    ask.add_argument("--json", action="store_true", help="print one JSON object")


def add_chat_parser(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    chat = subparsers.add_parser("chat", help="an interactive conversation on a persisted thread")
    chat.add_argument("--thread", help="conversation id to continue (default: a new one)")
    _add_turn_args(chat)


def _add_turn_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vessel", help="filter by vessel name (fuzzy) or IMO number")
    parser.add_argument("--report", help="single-report mode, e.g. ERA22LA175")
    parser.add_argument("--no-hybrid", action="store_true", help="vector search only (no BM25)")
    add_layer_args(parser)
    parser.add_argument("--user", help="user id for traces")


def add_layer_args(parser: argparse.ArgumentParser, *, cutoff: bool = True) -> None:
    """The query-time layer switches shared by ask, chat, search and eval (defaults: the
    product's, see :class:`graph.context.Context`)."""
    defaults = Context()
    parser.add_argument(
        "--expand",
        action=argparse.BooleanOptionalAction,
        default=defaults.expand,
        help="query expansion into the archive's terms (default off: measured to lower nDCG@10)",
    )
    parser.add_argument(
        "--topics",
        action=argparse.BooleanOptionalAction,
        default=defaults.topics,
        help="topic filter, loosened then dropped when too few passages match (default off: "
        "measured to lower nDCG@10)",
    )
    parser.add_argument(
        "--rerank",
        action=argparse.BooleanOptionalAction,
        default=defaults.rerank,
        help="rerank the fused candidates (default on)",
    )
    if not cutoff:
        return
    parser.add_argument(
        "--score-cutoff",
        type=fraction,
        metavar="X",
        help="best reranker score below which nothing is answered (default: the reranker's "
        "calibrated cutoff; 0 turns the cutoff off)",
    )


def context_from_args(args: argparse.Namespace) -> Context:
    return Context(
        user_id=getattr(args, "user", None),
        lexical=not args.no_hybrid,
        rerank=args.rerank,
        expand=args.expand,
        topics=args.topics,
        score_cutoff=args.score_cutoff,
    )


def filter_request(args: argparse.Namespace) -> dict[str, str]:
    request = {}
    if getattr(args, "vessel", None):
        request["vessel"] = args.vessel
    if getattr(args, "report", None):
        request["report"] = args.report
    return request


async def ask_graph(
    graph: BosunGraph,
    settings: Settings,
    *,
    thread_id: str,
    question: str,
    context: Context | None = None,
    request: dict[str, str] | None = None,
    user_id: str | None = None,
) -> Turn:
    """Run one turn on ``thread_id`` of an embedded ``graph`` (in-process serialisation only;
    :func:`agent.turns.open_runner` adds the database locks and thread registry)."""
    return await TurnRunner(graph, settings).run(
        thread_id, question, context=context, request=request, user_id=user_id
    )


def render(turn: Turn) -> str:
    """The answer with numbered citations and a source list."""
    return render_answer(turn.answer.text, turn.state.get("citations") or [])


def _error(err: BaseException, settings: Settings) -> str:
    """The one-line message of :func:`agent.errors.one_line`, scrubbing the configured secrets."""
    env = {
        "GOOGLE_API_KEY": settings.google_api_key or "",
        "COHERE_API_KEY": settings.cohere_api_key or "",
        "LANGFUSE_SECRET_KEY": settings.langfuse_secret_key or "",
        "LANGFUSE_PUBLIC_KEY": settings.langfuse_public_key or "",
        "DATABASE_URL": settings.database_url or "",
    }
    return one_line(err, {**os.environ, **{k: v for k, v in env.items() if v}})


async def run_ask(settings: Settings, args: argparse.Namespace) -> int:
    """`bosun ask QUESTION`: one turn; prints the answer (or ``--json``); 0 on success. Run as
    the `bosun` command, it then leaves a warm process for the next asks
    (:mod:`agent.warm.keep`)."""
    try:
        async with open_runner(settings) as runner:
            status = await answer(runner, settings, args)
    except Exception as err:  # the user-facing boundary: one scrubbed line, details in the log
        logger.debug("ask failed", exc_info=True)
        _say(_error(err, settings), err=True)
        return exit_code(err)
    return status


async def answer(runner: TurnRunner, settings: Settings, args: argparse.Namespace) -> int:
    """One asked turn on ``runner``, printed (cold, or in the warm process); its exit status."""
    thread_id = args.thread or uuid.uuid4().hex[:12]
    try:
        turn = await runner.run(
            thread_id,
            args.question,
            context=context_from_args(args),
            request=filter_request(args),
            user_id=args.user,
        )
    except Exception as err:  # the user-facing boundary: one scrubbed line, details in the log
        logger.debug("ask failed", exc_info=True)
        _say(_error(err, settings), err=True)
        return exit_code(err)
    finally:
        flush_tracing()
    if args.json:
        _say(json.dumps(turn.to_json(), indent=2, default=str))
    else:
        _say(render(turn))
        _print_footer(turn)
    return 0


def _print_footer(turn: Turn) -> None:
    filters = cast(Filters, turn.state.get("filters") or {})
    if filters:
        _say(f"\n(filters: {describe(filters)})", err=True)
    _say(f"(thread {turn.thread_id}: continue with --thread {turn.thread_id})", err=True)


async def run_chat(settings: Settings, args: argparse.Namespace) -> int:
    """`bosun chat`: a REPL on one persisted thread; the prompt shows the active filters."""
    thread_id = args.thread or uuid.uuid4().hex[:12]
    context = context_from_args(args)
    request: dict[str, str] | None = filter_request(args)
    try:
        async with open_runner(settings) as runner:
            snapshot = await runner.graph.aget_state({"configurable": {"thread_id": thread_id}})
            filters = cast(Filters, (snapshot.values or {}).get("filters") or {})
            _say(f"Bosun chat on thread {thread_id} — empty line, 'exit' or Ctrl-D to leave.")
            while True:
                label = describe(filters) if filters else "whole archive"
                line = await _read_line(f"[{label}] you> ")
                if line is None or line.strip().lower() in QUIT or not line.strip():
                    break
                try:
                    turn = await runner.run(
                        thread_id,
                        line,
                        context=context,
                        request=request,
                        user_id=args.user,
                    )
                except Exception as err:  # one failed turn does not end the session
                    logger.debug("turn failed", exc_info=True)
                    _say(_error(err, settings), err=True)
                    continue
                request = None
                filters = cast(Filters, turn.state.get("filters") or {})
                _say(f"\nbosun> {render(turn)}\n")
    except Exception as err:
        logger.debug("chat failed", exc_info=True)
        _say(_error(err, settings), err=True)
        return exit_code(err)
    finally:
        flush_tracing()
    _say(f"(thread {thread_id}: continue with `bosun chat --thread {thread_id}`)")
    return 0


def _say(text: str, *, err: bool = False) -> None:
    """The CLI's output layer: answers to stdout, notes and errors to stderr."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


async def _read_line(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


__all__: Sequence[str] = [
    "add_conversation_parsers",
    "add_layer_args",
    "ask_graph",
    "render",
    "run_ask",
    "run_chat",
]
