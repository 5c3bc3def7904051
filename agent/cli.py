"""The `bosun` command line: ingest, search, status, eval, eval-answers, ask, chat."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agent.conversation import add_conversation_parsers, add_layer_args, run_ask, run_chat
from agent.evaluation.command import (
    add_eval_answers_parser,
    add_eval_parser,
    run_eval,
    run_eval_answers,
)
from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.pipeline import ingest_paths
from archive.ingest.progress import wanted
from archive.store.schema import StoreError
from archive.store.search_filters import SearchFilters
from archive.store.vessels import collection_counts, registered_vessels, vessel_documents
from graph.context import Context
from providers.chat import build_chat_model
from providers.rerank import build_reranker
from tools.backend import StoreBackend
from tools.expansion import archive_expander
from tools.hybrid import Candidate, RetrievalOptions
from tools.search import SearchOptions, rerank_candidates, search_pipeline
from tools.timing import elapsed_ms
from tools.vessels import UnknownVessel, resolve_vessel

logger = logging.getLogger("bosun")


class UsageError(Exception):
    """Bad input from the user; printed as one line, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bosun", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = parser.add_subparsers(dest="command", required=True)

    ingest = sub.add_parser("ingest", help="ingest files and folders into the archive")
    ingest.add_argument("paths", nargs="+", type=Path)
    ingest.add_argument("--no-progress", action="store_true")
    ingest.add_argument("--json", action="store_true")

    search = sub.add_parser("search", help="hybrid BM25 + vector search")
    search.add_argument("query")
    _add_filter_args(search)
    arms = search.add_mutually_exclusive_group()
    arms.add_argument("--no-hybrid", action="store_true", help="vector search only")
    arms.add_argument("--lexical-only", action="store_true", help="BM25 only")
    search.add_argument("-k", type=int, default=10)
    add_layer_args(search, cutoff=False)
    search.add_argument("--json", action="store_true")

    status = sub.add_parser("status", help="what the archive holds")
    status.add_argument("--json", action="store_true")

    add_eval_parser(sub)
    add_eval_answers_parser(sub)
    add_conversation_parsers(sub)
    return parser


def _add_filter_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--vessel", help="vessel name (fuzzy) or IMO number")
    parser.add_argument("--imo", help="IMO number")
    parser.add_argument("--report", help="report number, e.g. ERA22LA175")
    parser.add_argument("--kind", action="append", help="document kind (repeatable)")


async def build_filters(services: Services, args: argparse.Namespace) -> SearchFilters:
    """Turn filter flags into SQL filters, resolving vessels visibly or rejecting them."""
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
    missing = [str(p) for p in args.paths if not p.exists()]
    if missing:
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    report = await ingest_paths(
        args.paths,
        services.store,
        services.embeddings,
        services.archive,
        progress=wanted(not args.no_progress, json_output=args.json),
    )
    summary = {
        "added": report.added,
        "updated": report.updated,
        "unchanged": report.unchanged,
        "chunks_added": report.chunks_added,
        "thread_digests": report.digests,
        "new_topics": report.topics,
        "seconds": round(report.seconds, 2),
        "errors": [{"path": e.path, "reason": e.reason} for e in report.errors],
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
            print(f"  skipped {err.path}: {err.reason}")
    return 1 if report.errors and not (report.added or report.updated or report.unchanged) else 0


async def _search(services: Services, args: argparse.Namespace) -> int:
    filters = await build_filters(services, args)
    defaults = Context()
    # Reranking reorders the product's candidate pool; without it only k passages are needed.
    pool = max(args.k, defaults.candidates) if args.rerank else args.k
    options = RetrievalOptions(lexical=not args.no_hybrid, dense=not args.lexical_only, k=pool)
    layers = SearchOptions(expand=args.expand, topics=args.topics)
    chat_model = build_chat_model(services.settings) if args.expand else None
    outcome = await search_pipeline(
        StoreBackend(services.store, services.embeddings),
        args.query,
        filters,
        layers,
        expander=archive_expander(services.store, chat_model),
        retrieval=options,
    )
    timings = dict(outcome.timings_ms)
    ranked: list[tuple[Candidate, float | None]] = [(c, None) for c in outcome.retrieval.candidates]
    if args.rerank and ranked:
        reranker = build_reranker(services.settings, services.embeddings)
        started = time.perf_counter()
        scores = await rerank_candidates(reranker, args.query, [c for c, _ in ranked])
        timings["rerank"] = elapsed_ms(started)
        ranked = sorted(
            ((c, float(s)) for (c, _), s in zip(ranked, scores, strict=True)),
            key=lambda pair: -(pair[1] or 0.0),
        )
    rows: list[dict[str, Any]] = [
        {
            "chunk_id": c.passage.chunk_id,
            "source_id": c.passage.source_id,
            "title": c.passage.title,
            "text": c.passage.text,
            "section": c.passage.section,
            "page": c.passage.page,
            "bm25": round(c.bm25, 4),
            "cosine": round(c.cosine, 4),
            "score": round(c.score, 4),
            "rerank": None if r is None else round(r, 4),
        }
        for c, r in ranked[: args.k]
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "results": rows,
                    "expansion": outcome.expansion,
                    "topic_decisions": outcome.topics,
                    "timings_ms": _rounded(timings),
                },
                indent=2,
            )
        )
        return 0
    if outcome.expansion["method"] != "off":
        print(f"(expanded: {outcome.expansion['text']})", file=sys.stderr)
    if outcome.topics:
        print(
            f"(topic filter: {' -> '.join(d['decision'] for d in outcome.topics)})", file=sys.stderr
        )
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
            + f"\n    {row['title'][:90]}"
            + (f" — {where}" if where else "")
            + f"\n    {_snippet(row['text'])}"
        )
    return 0


async def _status(services: Services, args: argparse.Namespace) -> int:
    counts = await collection_counts(services.store)
    info: dict[str, Any] = {
        **counts,
        "embedding_model": services.store.identity.model,
        "embedding_dim": services.store.identity.dim,
        "collection": services.store.schema,
        "archive": str(services.archive.root),
    }
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        for key, value in info.items():
            print(f"{key:>16}: {value}")
    return 0


def _snippet(text: str, width: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _rounded(timings: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 2) for k, v in timings.items()}


# Commands on the main archive get its services; the others open what they need themselves.
_ARCHIVE_COMMANDS = {"ingest": _ingest, "search": _search, "status": _status}
_SETTINGS_COMMANDS = {
    "eval": run_eval,
    "eval-answers": run_eval_answers,
    "ask": run_ask,
    "chat": run_chat,
}


async def _run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if args.command in _SETTINGS_COMMANDS:
        return await _SETTINGS_COMMANDS[args.command](settings, args)
    async with open_services(settings) as services:
        return await _ARCHIVE_COMMANDS[args.command](services, args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `bosun` console script."""
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not args.verbose:
        logging.getLogger("pgserver").setLevel(logging.ERROR)
    try:
        return asyncio.run(_run(args))
    except (UsageError, StoreError) as err:
        print(f"bosun: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop writing, like other Unix tools.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
