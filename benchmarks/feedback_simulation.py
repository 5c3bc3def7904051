"""Simulated users give feedback through the real web routes; `bosun adapt` learns from it;
nDCG@10 on queries the simulation never touched, against the number of feedback events.

    python benchmarks/feedback_simulation.py --quick      # 50/100 events, 60 evaluation queries
    python benchmarks/feedback_simulation.py --json > docs/measurements/feedback_simulation.json

For each dataset (the shared dev splits: SciFact train, NTSB pc2narr dev) the split's queries are
divided by a seeded hash of their ids, before anything runs, into simulation queries (two thirds)
and evaluation queries (the rest). The evaluation queries are scored once with the stock default
layers. Then `bosun serve` runs on the dataset's eval collection (the one `bosun eval` builds) on a
free port, and each simulation query is one new conversation: the question through ``POST
/api/chat``, then what the user model (:mod:`benchmarks.simulated_users`) does with the answer's
first five citations: ``GET /api/citations/{id}`` to open one, its signed download link, ``POST
/api/feedback`` for a thumb. Whenever the feedback events reach a checkpoint (50, 100, 200, 500,
1,000) the server is stopped, `bosun adapt` runs on the collection, the evaluation queries are
scored again, split into those whose relevant document received feedback ("memory") and those
whose did not, and the server resumes on whatever model the collection then holds. At the end
the simulation's threads (and the feedback stored with them) are deleted through the threads
route and the collection is reset to the stock model.

Uses ``BOSUN_HOME`` like the CLI; the eval collections are built on first use (minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from agent.evaluation.beir import BeirDataset, load_dataset
from agent.evaluation.collections import collection_name, open_eval_services
from agent.evaluation.harness import EVAL_CHUNKS, evaluate
from agent.evaluation.layers import Layers, layered_search
from agent.settings import Settings
from archive.store.embedder import FILE_KEY, RERANKER_FILE_KEY, read_meta
from benchmarks.render import Table, emit
from benchmarks.simulated_users import (
    CHECKPOINTS,
    COLUMNS,
    QUICK_CHECKPOINTS,
    Action,
    Checkpoint,
    Ledger,
    Shown,
    UserModel,
    checkpoint_row,
    remembered,
    split_queries,
    sub_corpus,
)

logger = logging.getLogger("feedback_simulation")

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "beir"
#: The shared dev splits and the split each is replayed from.
DATASETS = {"scifact": "train", "ntsb_pc2narr": "dev"}
#: The API user of a dataset's simulated users (``simulated-<name>``): one per dataset, so a
#: run that deletes its users' threads never touches another dataset's running beside it.
SIM_USER = "simulated-{}"
QUICK_EVAL_QUERIES = 60
#: A quick run's simulation queries (enough for 100 events) and the documents its corpus holds
#: besides those judged for its queries.
QUICK_SIMULATION_QUERIES = 90
QUICK_DISTRACTORS = 400


def bosun(*args: str, env: dict[str, str]) -> dict[str, Any]:
    """One `bosun` command with ``--json``; its object (stderr passes through)."""
    done = subprocess.run(
        [sys.executable, "-m", "agent.cli", *args, "--json"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bosun {' '.join(args)} failed with exit code {done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(env: dict[str, str], log: Path, startup_s: float = 300.0) -> Iterator[str]:
    """`bosun serve` on a free loopback port with ``env``; its URL once ``/api/health`` answers,
    stopped (SIGTERM, then SIGKILL) afterwards."""
    port = free_port()
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_s
        while not _healthy(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"bosun serve did not start (log: {log})")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/health", timeout=2.0).status_code == 200
    except httpx.HTTPError:
        return False


def sse_frames(body: str) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) of each server-sent event of a streamed chat answer."""
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        lines = block.split("\n")
        names = [line[6:].strip() for line in lines if line.startswith("event:")]
        data = [line[5:].strip() for line in lines if line.startswith("data:")]
        if data:
            events.append((names[0] if names else "message", json.loads("\n".join(data))))
    return events


class SimulatedUser:
    """One simulated user's HTTP client on a running server: ask, open, download, thumb."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def ask(self, question: str) -> tuple[dict[str, Any], list[Shown]]:
        """A new conversation's first turn: the ``final`` frame and the citations it showed."""
        response = await self.client.post("/api/chat", json={"message": question}, timeout=600)
        response.raise_for_status()
        frames = sse_frames(response.text)
        final = next((data for event, data in frames if event == "final"), None)
        if final is None:
            raise RuntimeError(f"the chat answered no final frame: {frames[-1:]}")
        final["thread_id"] = frames[0][1]["thread_id"]
        shown = [Shown(c["n"], c["chunk_id"], c["source_id"]) for c in final["citations"]]
        return final, shown

    async def act(self, action: Action, turn: dict[str, Any]) -> None:
        """Send one feedback event about ``turn`` through its route."""
        if action.kind == "thumb":
            response = await self.client.post(
                "/api/feedback",
                json={
                    "thread_id": turn["thread_id"],
                    "message_id": turn["message_id"],
                    "score": action.score,
                },
            )
        else:
            assert action.chunk_id is not None
            # As the page opens a citation: by its passage id alone (the server credits the
            # caller's latest answer that showed it).
            response = await self.client.get(f"/api/citations/{action.chunk_id}")
            if action.kind == "download" and response.is_success:
                response = await self.client.get(response.json()["download_url"])
        response.raise_for_status()

    async def forget_everything(self) -> int:
        """Delete every thread of this user (the feedback stored with them goes too)."""
        deleted = 0
        while threads := (await self.client.get("/api/threads")).json():
            for thread in threads:
                gone = await self.client.delete(f"/api/threads/{thread['thread_id']}")
                gone.raise_for_status()
                deleted += 1
        return deleted


@asynccontextmanager
async def user_on(url: str, key: str) -> AsyncIterator[SimulatedUser]:
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120) as client:
        yield SimulatedUser(client)


async def ndcg_of(settings: Settings, dataset: BeirDataset, ids: Sequence[str]) -> dict[str, float]:
    """Query id -> nDCG@10 of the default layers on the collection as it is now (what `bosun
    eval` runs, restricted to ``ids``)."""
    subset = replace(
        dataset,
        queries={q: dataset.queries[q] for q in ids},
        qrels={q: dataset.qrels[q] for q in ids},
    )
    async with open_eval_services(settings, dataset) as services:
        search = await layered_search(services, Layers(), EVAL_CHUNKS)
        result = await evaluate(services, subset, search=search)
    return {o.query_id: o.scores["ndcg@10"] for o in result.per_query}


def adapt(collection: str, env: dict[str, str]) -> tuple[bool, dict[str, Any]]:
    """`bosun adapt` on the collection, learning from its stored feedback: (whether it installed
    the model it fitted, its report). A model that scored lower on the feedback it held back,
    or too few labels, leave the collection as it was."""
    report = bosun("adapt", "--collection", collection, env=env)
    return bool(report["installed"]), report


async def reset_if_adapted(settings: Settings, collection: str, env: dict[str, str]) -> None:
    """`bosun adapt --reset` when the collection holds an adapted model or reranker (on a stock
    collection a reset would re-embed every passage for nothing)."""
    meta = await read_meta(settings.database_uri(), collection, (FILE_KEY, RERANKER_FILE_KEY))
    if meta:
        bosun("adapt", "--collection", collection, "--reset", env=env)


def quick_dataset(
    dataset: BeirDataset, query_ids: Sequence[str], distractors: int, seed: int, home: Path
) -> BeirDataset:
    """``dataset`` cut to ``query_ids`` over a smaller corpus (:func:`sub_corpus`), written in
    BEIR layout under ``home/simulation/<name>_quick`` (its own eval collection)."""
    folder = home / "simulation" / f"{dataset.name}_quick"
    (folder / "qrels").mkdir(parents=True, exist_ok=True)
    lines = (dataset.path / "corpus.jsonl").read_bytes().splitlines(keepends=True)
    ids = [str(json.loads(line)["_id"]) for line in lines if line.strip()]
    kept = sub_corpus(ids, dataset.qrels, query_ids, distractors, seed)
    corpus = [line for line, doc in zip(lines, ids, strict=True) if doc in kept]
    (folder / "corpus.jsonl").write_bytes(b"".join(corpus))
    queries = [json.dumps({"_id": q, "text": dataset.queries[q]}) + "\n" for q in query_ids]
    (folder / f"queries.{dataset.split}.jsonl").write_text("".join(queries))
    judged = [f"{q}\t{d}\t{r}\n" for q in query_ids for d, r in dataset.qrels[q].items()]
    (folder / "qrels" / f"{dataset.split}.tsv").write_text("".join(judged))
    return load_dataset(folder, dataset.split)


async def simulate(
    name: str, args: argparse.Namespace, settings: Settings, log: Path
) -> dict[str, Any]:
    """The whole run on one dataset; its table rows and notes."""
    dataset = load_dataset(DATA / name if args.data is None else args.data / name, DATASETS[name])
    simulation, evaluation = split_queries(list(dataset.queries), args.seed)
    if args.eval_queries:
        evaluation = evaluation[: args.eval_queries]
    if args.corpus is not None:  # the quick run: fewer queries over a smaller corpus
        simulation = simulation[:QUICK_SIMULATION_QUERIES]
        dataset = quick_dataset(
            dataset, simulation + evaluation, args.corpus, args.seed, settings.home
        )
    collection = collection_name(dataset.name)
    key = secrets.token_hex(16)
    env = {
        **os.environ,
        "BOSUN_HOME": str(settings.home),
        "BOSUN_COLLECTION": collection,
        "BOSUN_API_KEYS": f"{key}:{SIM_USER.format(name)}",
        "BOSUN_RATE_CHAT": "1000000",
        "BOSUN_RATE_CITATIONS": "1000000",
    }
    logger.info(
        "%s: %d simulation and %d evaluation queries", name, len(simulation), len(evaluation)
    )
    await reset_if_adapted(settings, collection, env)  # start from the stock model
    stock = await ndcg_of(settings, dataset, evaluation)
    logger.info("%s stock nDCG@10 %.4f", name, sum(stock.values()) / len(stock))
    user_model = UserModel(seed=args.seed, noise=args.noise)
    ledger = Ledger()
    adapt_runs: list[dict[str, Any]] = []
    points: list[Checkpoint] = []
    pending = list(args.checkpoints)
    queue = iter(simulation)
    started = time.perf_counter()
    try:
        while pending:
            with served(env, log) as url:
                async with user_on(url, key) as user:
                    if not points:
                        await user.forget_everything()  # an interrupted run's feedback
                    reached = await _until(user, pending[0], queue, dataset, user_model, ledger)
            if not reached:
                logger.warning(
                    "%s: the simulation queries ran out at %d events", name, ledger.events
                )
                break
            installed, report = adapt(collection, env)
            adapt_runs.append({"events": ledger.events, **_brief(report)})
            # Not installed: the collection is as the last checkpoint left it (adapt rolls back).
            last = points[-1].adapted if points else stock
            adapted = await ndcg_of(settings, dataset, evaluation) if installed else dict(last)
            memory = [q for q in evaluation if remembered(dataset.qrels[q], ledger.labelled)]
            points.append(
                Checkpoint(ledger.events, ledger.turns, installed, memory, stock, adapted)
            )
            logger.info("%s: %s (adapt: %s)", name, checkpoint_row(points[-1]), _brief(report))
            pending.pop(0)
    finally:
        with served(env, log) as url:
            async with user_on(url, key) as user:
                await user.forget_everything()
        await reset_if_adapted(settings, collection, env)
    return {
        "dataset": f"{name} {dataset.split}",
        "rows": [checkpoint_row(p) for p in points],
        "simulation_queries": len(simulation),
        "evaluation_queries": len(evaluation),
        "collection": collection,
        "corpus_documents": dataset.corpus_size,
        "adapt_runs": adapt_runs,
        "turns": ledger.turns,
        "turns_showing_relevant": ledger.shown_relevant,
        "events_by_kind": ledger.by_kind,
        "wrong_opens": ledger.wrong_opens,
        "minutes": round((time.perf_counter() - started) / 60, 1),
    }


async def _until(
    user: SimulatedUser,
    target: int,
    queue: Iterator[str],
    dataset: BeirDataset,
    model: UserModel,
    ledger: Ledger,
) -> bool:
    """Ask simulation queries and act on the answers until ``target`` events were sent (the
    last turn's remaining actions wait for the next call); False when the queries ran out."""
    while ledger.events < target:
        if not ledger.backlog:
            query_id = next(queue, None)
            if query_id is None:
                return False
            turn, shown = await user.ask(dataset.queries[query_id])
            ledger.answered(model.react(query_id, shown, dataset.qrels[query_id]), turn)
            continue
        action, turn = ledger.backlog.pop(0)
        await user.act(action, turn)
        ledger.record(action)
    return True


def _brief(report: dict[str, Any]) -> dict[str, Any]:
    """What a `bosun adapt` report says about its labels, its held-back check and its verdict."""
    keys = ("labels", "check", "installed", "reason", "seconds")
    return {key: report[key] for key in keys if key in report}


async def run_all(
    names: Sequence[str], args: argparse.Namespace, settings: Settings, log: Path
) -> list[dict[str, Any]]:
    """Every dataset's run, side by side (each has its own collection, server and adapt runs;
    their results do not depend on the timing)."""
    return list(await asyncio.gather(*(simulate(name, args, settings, log) for name in names)))


def tables(results: list[dict[str, Any]]) -> list[Table]:
    return [Table(result["dataset"].split()[0], COLUMNS, result["rows"]) for result in results]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dataset",
        action="append",
        choices=sorted(DATASETS),
        help="a shared dev split (repeatable; default: both)",
    )
    parser.add_argument("--data", type=Path, help=f"folder of the BEIR datasets (default {DATA})")
    quick = f"checkpoints {QUICK_CHECKPOINTS}, {QUICK_EVAL_QUERIES} evaluation queries"
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument(
        "--checkpoints",
        type=int,
        nargs="+",
        metavar="N",
        help=f"feedback counts to adapt at (default {' '.join(map(str, CHECKPOINTS))})",
    )
    parser.add_argument(
        "--eval-queries", type=int, help="score only the first N evaluation queries"
    )
    parser.add_argument("--seed", type=int, default=28, help="the split's and the users' seed")
    parser.add_argument(
        "--noise",
        type=float,
        default=UserModel.noise,
        help="chance a user also opens a wrong citation (default 0.1)",
    )
    parser.add_argument("--json", action="store_true", help="print the --json document")
    parser.add_argument(
        "--corpus",
        type=int,
        metavar="N",
        help="a smaller corpus: the documents judged for the queries used and N others "
        f"(--quick: {QUICK_DISTRACTORS})",
    )
    args = parser.parse_args(argv)
    default = QUICK_CHECKPOINTS if args.quick else CHECKPOINTS
    args.checkpoints = sorted(set(args.checkpoints or default))
    if args.quick and args.eval_queries is None:
        args.eval_queries = QUICK_EVAL_QUERIES
    if args.quick and args.corpus is None:
        args.corpus = QUICK_DISTRACTORS
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
    settings = Settings.from_env()
    log = Path(tempfile.mkstemp(prefix="feedback-simulation-", suffix=".log")[1])
    logger.info("bosun serve logs to %s", log)
    names = args.dataset or list(DATASETS)
    results = asyncio.run(run_all(names, args, settings, log))
    command = "python benchmarks/feedback_simulation.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    notes = {
        "seed": args.seed,
        "user_model": vars(UserModel(seed=args.seed, noise=args.noise)),
        "runs": [{k: v for k, v in r.items() if k != "rows"} for r in results],
    }
    emit(command.strip(), tables(results), as_json=args.json, **notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
