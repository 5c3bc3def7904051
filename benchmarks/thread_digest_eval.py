"""Do thread digests bring a thread's whole problem -> resolution arc into the top 5?

    BOSUN_HOME=/tmp/bosun-layers python benchmarks/thread_digest_eval.py \\
        [--mail ../shared/data/email/usrp-users] [--collection dev_usrp] [--digest-mode full]

Ingests the mailbox enriched (skipped when already stored: minutes the first time), builds and
ingests the thread digests, then runs benchmarks/questions/thread_questions.jsonl -- questions
whose answer needs both the first and the last message of a thread -- through hybrid retrieval
twice: over everything (digests compete with the messages) and over messages and attachments only
(no digests). Per run it prints:

- digest@5: the thread's digest is among the top 5 passages (and its MRR over the top 10);
- thread@5: any passage of the thread is among the top 5;
- arc@5: the top 5 hold the thread's problem and its resolution: the digest, or both the first
  and the last message.

``--topics`` retrieves through the topic filter (tools.topics; build the topics first with
archive.ingest.topics.build_topics). ``--digest-mode summary`` re-ingests the digests in
``summary`` embedding mode first, the digest text being its own summary (to compare with the
default ``full``; ``--digest-mode full`` restores); ``full-title`` embeds each digest passage
with the title alone, not the summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path

from render import Table, emit

from agent.settings import Settings
from agent.wiring import Services, open_services
from archive.ingest.digests import build_thread_digests
from archive.ingest.enrich import enrich
from archive.ingest.pipeline import ingest_documents, ingest_paths
from archive.store.search_filters import SearchFilters
from tools.hybrid import retrieve
from tools.retrieval_config import RetrievalConfig
from tools.topics import retrieve_with_topics

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "benchmarks" / "questions" / "thread_questions.jsonl"
MAIL = ROOT.parent / "shared" / "data" / "email" / "usrp-users"
TOP = 5


@dataclass
class Outcome:
    digest: bool
    thread: bool
    arc: bool
    digest_rr: float  # 1 / rank of the digest among the top 10 (0 when absent)


async def prepare(svc: Services, mail: Path, digest_mode: str | None) -> None:
    """Ingest the mailbox and its digests (idempotent); optionally switch the digests' mode."""
    report = await ingest_paths([mail], svc.store, svc.embeddings, svc.archive, progress=True)
    print(f"mailbox: {report.added} added, {report.unchanged} unchanged")
    digests = await build_thread_digests(svc.store)
    if digests:
        await ingest_documents(digests, svc.store, svc.embeddings, svc.archive, prepare=enrich)
        print(f"digests: {len(digests)} built")
    if digest_mode:
        # the digests whose embedding differs from the asked variant are rebuilt
        mode = "summary" if digest_mode == "summary" else "full"
        async with svc.store.pool.connection() as conn:
            cur = await conn.execute(
                "SELECT thread_id FROM documents WHERE kind = 'thread_digest'"
                " AND (embedding_mode <> %s OR (summary = '') <> %s)",
                (mode, digest_mode == "full-title"),
            )
            stale = {r["thread_id"] for r in await cur.fetchall()}
            if stale:
                await conn.execute(
                    "UPDATE documents SET metadata = metadata - 'thread_hash'"
                    " WHERE kind = 'thread_digest' AND thread_id = ANY(%s)",
                    (list(stale),),
                )
                await conn.execute(  # the digest pass reads pending threads only
                    "INSERT INTO digest_pending SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING",
                    (list(stale),),
                )
        rebuilt = [d for d in await build_thread_digests(svc.store) if d.thread_id in stale]
        if digest_mode == "summary":  # the digest is its own summary: embedded (and shown) alone
            rebuilt = [
                replace(d, summary=d.sections[0].text, embedding_mode="summary") for d in rebuilt
            ]
        elif digest_mode == "full-title":  # each passage embedded with the title only
            rebuilt = [replace(d, summary="") for d in rebuilt]
        await ingest_documents(rebuilt, svc.store, svc.embeddings, svc.archive)
        print(f"digests re-ingested in {digest_mode} mode: {len(rebuilt)}")


async def thread_messages(svc: Services, thread_id: str) -> list[str]:
    """Message-IDs of a thread's emails, as its digest lists them (oldest first)."""
    async with svc.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT metadata->>'messages' AS m FROM documents"
            " WHERE kind = 'thread_digest' AND thread_id = %s",
            (thread_id,),
        )
        row = await cur.fetchone()
    return row["m"].split() if row else []


async def ask(
    svc: Services, question: str, thread_id: str, kinds: tuple[str, ...], topics: bool
) -> Outcome:
    filters, options = SearchFilters(kinds=kinds), RetrievalConfig(k=10)
    if topics:
        result = await retrieve_with_topics(svc.store, svc.embeddings, question, filters, options)
        retrieval = result.retrieval
    else:
        retrieval = await retrieve(svc.store, svc.embeddings, question, filters, options)
    ranked = [c for c in retrieval.candidates]
    top = ranked[:TOP]
    rank = next(
        (
            i
            for i, p in enumerate(ranked, start=1)
            if p["kind"] == "thread_digest" and p["thread_id"] == thread_id
        ),
        None,
    )
    digest = rank is not None and rank <= TOP
    messages = await thread_messages(svc, thread_id)
    found = {p["source_id"] for p in top if p["kind"] == "email"}
    both_ends = bool(messages) and messages[0] in found and messages[-1] in found
    return Outcome(
        digest,
        any(p["thread_id"] == thread_id for p in top),
        digest or both_ends,
        1.0 / rank if rank else 0.0,
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mail", type=Path, default=MAIL)
    parser.add_argument("--collection", default="dev_usrp")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--digest-mode", choices=("full", "full-title", "summary"), default=None)
    parser.add_argument("--topics", action="store_true", help="through the topic filter")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    questions = [json.loads(line) for line in args.questions.read_text().splitlines() if line]
    async with open_services(Settings.from_env(), collection=args.collection) as svc:
        await prepare(svc, args.mail, args.digest_mode)
        runs = {"with digests": (), "without digests": ("email", "attachment")}
        rows = {}
        for name, kinds in runs.items():
            outcomes = [
                await ask(svc, q["question"], q["thread_id"], kinds, args.topics) for q in questions
            ]
            rows[name] = outcomes
            if args.verbose:
                for q, o in zip(questions, outcomes, strict=True):
                    print(
                        f"  [{name}] digest={o.digest:d} thread={o.thread:d} arc={o.arc:d}  "
                        f"{q['question'][:70]}"
                    )
    n = len(questions)
    table = []
    for name, outcomes in rows.items():
        digest = sum(o.digest for o in outcomes) / n
        mrr = sum(o.digest_rr for o in outcomes) / n
        shown = [round(digest, 2), round(mrr, 2)] if name == "with digests" else [None, None]
        thread = sum(o.thread for o in outcomes) / n
        arc = sum(o.arc for o in outcomes) / n
        table.append([name, *shown, round(thread, 2), round(arc, 2)])
    columns = ["run", f"digest@{TOP}", "digest MRR@10", f"thread@{TOP}", f"arc@{TOP}"]
    command = (
        f"python benchmarks/thread_digest_eval.py --mail {args.mail} --collection "
        f"{args.collection}{' --topics' if args.topics else ''} --json"
    )
    emit(
        command,
        [Table("digests", columns, table)],
        as_json=args.json,
        questions=n,
        retrieval="hybrid" + (", under the topic filter" if args.topics else ""),
    )


if __name__ == "__main__":
    asyncio.run(main())
