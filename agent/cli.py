"""The `bosun` command line: ingest, sync, delete, search, status, stop, eval, adapt,
eval-answers, archive, ask, chat, serve."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent import startup
from agent.arguments import BosunParser, clean_text_args, positive_int, printable

if TYPE_CHECKING:
    from agent.wiring import Services
    from archive.store.search_filters import SearchFilters

logger = logging.getLogger("bosun")

# `bosun --help`, `bosun status` and `bosun stop` import neither the graph nor the models
# (tests/unit/test_cli_lazy.py): this module imports only the argument checks at the top, and
# each command imports what it runs.

#: Sub-commands whose modules are imported only to run them (or to print their own help), so a
#: command pays only for itself at start-up: name -> (module, help in `bosun -h`). Each module
#: has ``add_<name>_parser`` and ``run_<name>`` (``-`` read as ``_``).
_LAZY = {
    "eval": ("agent.evaluation.command", "measure retrieval on a BEIR-layout dataset"),
    "adapt": (
        "agent.adapt_command",
        "fine-tune the local embedder on pairs mined from the archive",
    ),
    "eval-answers": (
        "agent.evaluation.answers_command",
        "answer-level evaluation through the agent graph",
    ),
    "ask": ("agent.conversation", "ask a question; answers cite the archive"),
    "chat": ("agent.conversation", "an interactive conversation on a persisted thread"),
    "serve": ("agent.server.serve", "the web app: chat page and HTTP API"),
    "status": ("agent.status", "what the archive holds"),
    "stop": ("agent.status", "stop this BOSUN_HOME's embedded PostgreSQL server and its helper"),
    "sync": ("agent.sync", "sync a live IMAP mailbox into the archive"),
    "archive": ("agent.archive_command", "where originals are kept: `archive migrate --to s3://…`"),
}


def _lazy(command: str, attribute: str) -> Any:
    """``attribute`` (a format of the command's name) of the lazy ``command``'s module."""
    module, _ = _LAZY[command]
    return getattr(importlib.import_module(module), attribute.format(command.replace("-", "_")))


def _command_of(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names: its first argument that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    """The CLI's parser; a lazy sub-command gets its full parser only when ``argv`` names it."""
    named = _command_of(argv)
    parser = BosunParser(prog="bosun", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="ingest files and folders into the archive")
    ingest.add_argument("paths", nargs="+", type=Path)
    ingest.add_argument("--no-progress", action="store_true")
    ingest.add_argument("--json", action="store_true")
    ingest.add_argument(
        "--workers",
        type=positive_int,
        default=1,
        help="embedding processes (default 1: in this process); each gets cores / N threads",
    )

    search = sub.add_parser("search", help="hybrid BM25 + vector search")
    if named == "search":  # its layer switches come with the conversation commands
        from agent.conversation import add_layer_args

        search.add_argument("query")
        _add_filter_args(search)
        arms = search.add_mutually_exclusive_group()
        arms.add_argument("--no-hybrid", action="store_true", help="vector search only")
        arms.add_argument("--lexical-only", action="store_true", help="BM25 only")
        search.add_argument("-k", type=positive_int, default=10)
        add_layer_args(search)
        search.add_argument("--json", action="store_true")

    delete = sub.add_parser(
        "delete", help="delete documents by source id (NTSB number, Message-ID, file name)"
    )
    delete.add_argument("source_ids", nargs="+", metavar="SOURCE_ID")
    delete.add_argument("--json", action="store_true")

    for command, (_, summary) in _LAZY.items():
        if command == named:
            _lazy(command, "add_{}_parser")(sub)
        else:
            sub.add_parser(command, help=summary)
    return parser


def _add_filter_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vessel", help="vessel name (fuzzy) or IMO number")
    parser.add_argument("--imo", help="IMO number")
    parser.add_argument("--report", help="report number, e.g. ERA22LA175")
    parser.add_argument("--kind", action="append", help="document kind (repeatable)")


async def build_filters(services: Services, args: argparse.Namespace) -> SearchFilters:
    """Turn filter flags into SQL filters, resolving vessels visibly or rejecting them."""
    from agent.errors import UsageError
    from archive.store.search_filters import SearchFilters
    from archive.store.vessels import registered_vessels, vessel_documents
    from tools.vessels import UnknownVessel, resolve_vessel

    doc_ids: tuple[str, ...] | None = None
    wanted = [v for v in (args.vessel, args.imo and f"IMO {args.imo}") if v]
    if wanted:
        registry = await registered_vessels(services.store)
        keys: list[str] = []
        for name in wanted:
            try:
                match = resolve_vessel(name, registry)
            except UnknownVessel as err:
                raise UsageError(str(err)) from err
            print(match.describe(), file=sys.stderr)
            keys.extend(v.key for v in match.vessels)
        doc_ids = tuple(await vessel_documents(services.store, keys))
    return SearchFilters(
        kinds=tuple(args.kind or ()),
        doc_ids=doc_ids,
        report_no=args.report.upper() if args.report else None,
    )


async def _ingest(services: Services, args: argparse.Namespace) -> int:
    from agent.errors import UsageError
    from providers.embeddings import embeddings_factory

    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    # The parsers (pypdf, mail) load only for ingest, not for every command.
    from archive.ingest.pipeline import ingest_paths
    from archive.ingest.progress import wanted
    from archive.ingest.workers import WorkerPool, threads_per_worker

    with contextlib.ExitStack() as stack:
        embed = None
        if args.workers > 1:
            factory = embeddings_factory(
                services.settings.providers, threads=threads_per_worker(args.workers)
            )
            embed = stack.enter_context(WorkerPool(factory, args.workers))
        report = await ingest_paths(
            args.paths,
            services.store,
            services.embeddings,
            services.archive,
            progress=wanted(not args.no_progress, json_output=args.json),
            embed=embed,
        )
    summary = {
        "added": report.added,
        "updated": report.updated,
        "unchanged": report.unchanged,
        "chunks_added": report.chunks_added,
        "thread_digests": report.digests,
        "new_topics": report.topics,
        "seconds": round(report.seconds, 2),
        "stage_seconds": _rounded(report.stage_seconds),
        "errors": [{"path": e.path, "reason": e.reason} for e in report.errors],
        "interrupted": report.interrupted,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"ingested {report.added} new and {report.updated} changed documents "
            f"and {report.digests} thread digests ({report.chunks_added} chunks, "
            f"{report.topics} new topics), {report.unchanged} unchanged, in {report.seconds:.1f} s"
        )
        for err in report.errors:
            print(f"  skipped {printable(err.path)}: {printable(err.reason)}")
        if report.interrupted:
            print("interrupted: the counts above are stored; run the same ingest again to finish")
    if report.interrupted:
        return 130
    return 1 if report.errors and not (report.added or report.updated or report.unchanged) else 0


async def _delete(services: Services, args: argparse.Namespace) -> int:
    from agent.errors import UsageError
    from archive.originals import release
    from archive.store.documents import UnknownSource, delete_sources
    from archive.store.locks import ingest_stage

    try:
        async with ingest_stage(services.store, exclusive=False):
            deleted = await delete_sources(services.store, args.source_ids)
    except UnknownSource as err:
        raise UsageError(f"{err}; nothing was deleted") from err
    released = await asyncio.to_thread(release, services.archive, deleted.originals)
    from archive.ingest.pipeline import refresh_derived

    derived = await refresh_derived(
        services.store, services.embeddings, services.archive, progress=False
    )
    summary = {
        "documents": deleted.documents,
        "chunks": deleted.chunks,
        "topics_dropped": deleted.topics,
        "vessels_dropped": deleted.vessels,
        "originals_removed": released.removed,
        "originals_left": list(released.left),  # the storage failed: unreferenced, harmless
        "thread_digests": derived.digests,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"deleted {deleted.documents} documents ({deleted.chunks} chunks) for "
            f"{len(set(args.source_ids))} source ids; {derived.digests} thread digests redone"
        )
    return 1 if released.left else 0


async def _search(services: Services, args: argparse.Namespace) -> int:
    from agent.wiring import build_pipeline
    from tools.pipeline import run_pipeline
    from tools.retrieval_config import RetrievalConfig

    filters = await build_filters(services, args)
    pipeline = build_pipeline(services, expand=args.expand)
    config = RetrievalConfig(
        lexical=not args.no_hybrid,
        dense=not args.lexical_only,
        expand=args.expand,
        topics=args.topics,
        rerank=args.rerank,
        # Reranking orders the product's pool; without it only k passages are needed.
        pool=max(args.k, pipeline.reranker.pool) if args.rerank else args.k,
        score_cutoff=args.score_cutoff,
    )
    ranking = await run_pipeline(pipeline, args.query, filters, config)
    kept = {p["chunk_id"] for p in ranking.kept}
    rows: list[dict[str, Any]] = [
        {
            **{
                key: p[key] for key in ("chunk_id", "source_id", "title", "text", "section", "page")
            },
            "bm25": round(p["bm25"], 4),
            "cosine": round(p["cosine"], 4),
            "score": round(p["score"], 4),
            "rerank": None if p["rerank"] is None else round(p["rerank"], 4),
            "kept": p["chunk_id"] in kept,
        }
        for p in ranking.ranked[: args.k]
    ]
    if args.json:
        report = {
            "results": rows,
            "rerank": ranking.rerank,
            "relevance": ranking.relevance,
            "expansion": ranking.expansion,
            "topic_decisions": ranking.topics,
            "degraded": ranking.degraded,
            "timings_ms": _rounded(ranking.timings),
        }
        print(json.dumps(report, indent=2))
        return 0
    if ranking.expansion["method"] != "off":
        print(f"(expanded: {ranking.expansion['text']})", file=sys.stderr)
    if ranking.topics:
        decisions = " -> ".join(d["decision"] for d in ranking.topics)
        print(f"(topic filter: {decisions})", file=sys.stderr)
    for note in ranking.degraded:
        print(f"({note})", file=sys.stderr)
    if ranking.relevance["stopped"]:
        print("(the relevance cutoff would stop this question: nothing relevant enough)")
    if not rows:
        print("no results")
    for rank, row in enumerate(rows, start=1):
        where = " ".join(
            x for x in (row["section"] or "", f"p.{row['page']}" if row["page"] else "") if x
        )
        print(
            f"{rank:>2}. [{row['chunk_id']}] {row['source_id']}  score={row['score']:.4f} "
            f"bm25={row['bm25']:.3f} cosine={row['cosine']:.3f}"
            + (f" rerank={row['rerank']:.3f}" if row["rerank"] is not None else "")
            + ("" if row["kept"] else " (below the rerank floor)")
            + f"\n    {row['title'][:90]}"
            + (f" — {where}" if where else "")
            + f"\n    {_snippet(row['text'])}"
        )
    return 0


def _snippet(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _rounded(timings: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 2) for k, v in timings.items()}


# Commands on the main archive get its services; the others open what they need themselves.
_ARCHIVE_COMMANDS = {
    "ingest": _ingest,
    "delete": _delete,
    "search": _search,
}


async def _run(args: argparse.Namespace) -> int:
    from agent.settings import Settings

    settings = Settings.from_env()
    if args.command in _LAZY:
        return int(await _lazy(args.command, "run_{}")(settings, args))
    from agent.wiring import open_services

    async with open_services(settings) as services:
        return await _ARCHIVE_COMMANDS[args.command](services, args)


def arguments_of(argv: Sequence[str]) -> argparse.Namespace | int:
    """The parsed, cleaned arguments, or the exit status of a usage error already reported
    (argparse's own errors exit)."""
    args = _parser(argv).parse_args(argv)
    clean_text_args(args)
    if getattr(args, "query", None) == "":
        print(
            "bosun: the query is empty once control characters and injections are removed",
            file=sys.stderr,
        )
        return 2
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `bosun` console script: without ``argv`` (the script, ``python -m
    agent.cli``) a command may leave the warm ask process up (:func:`startup.beside`), and a
    one-shot command ends the process when it is done (:func:`startup.finish`)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    code = _main(arguments, script=argv is None)
    if argv is None:
        startup.finish(_command_of(arguments), code)
    return code


def _main(argv: list[str], *, script: bool = False) -> int:
    command = _command_of(argv)
    forwarded = startup.forwarded(command, argv)  # an ask the home's warm process answered
    if forwarded is not None:
        return forwarded
    with startup.importing():  # the collector paused while the command's modules import
        startup.preload(command, argv)  # ask, chat: the model loads meanwhile
        args = arguments_of(argv)
    if isinstance(args, int):
        return args
    startup.prepare(args)  # stdin's errors, the log's level
    return startup.beside(args, _dispatch) if script else _dispatch(args)


def _dispatch(args: argparse.Namespace) -> int:
    try:
        if args.command == "serve":  # uvicorn runs its own event loop
            from agent.settings import Settings

            return int(_lazy("serve", "run_{}")(Settings.from_env(), args))
        from agent.interrupts import run_command

        return run_command(_run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop writing, like other Unix tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as err:  # the user-facing boundary: one scrubbed line, details in the log
        from agent.errors import exit_code, one_line

        logger.debug("%s failed", args.command, exc_info=True)
        print(one_line(err), file=sys.stderr)
        return exit_code(err)


if __name__ == "__main__":
    sys.exit(main())
