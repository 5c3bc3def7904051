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
route and the collection is reset to the stock model (``--keep-model``: left on the last model
`adapt` installed, for ``bosun eval-answers``).

Uses ``BOSUN_HOME`` like the CLI; the eval collections are built on first use (minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's packages, also when run as a script

from agent.evaluation.beir import BeirDataset, load_dataset  # noqa: E402
from agent.evaluation.collections import collection_name, open_eval_services  # noqa: E402
from agent.evaluation.harness import EVAL_CHUNKS, evaluate  # noqa: E402
from agent.evaluation.layers import Layers, layered_search  # noqa: E402
from agent.settings import Settings  # noqa: E402
from archive.store.embedder import (  # noqa: E402
    FILE_KEY,
    MEMORY_FILE_KEY,
    RERANKER_FILE_KEY,
    read_meta,
)
from benchmarks.render import document, emit  # noqa: E402
from benchmarks.simulated_users import (  # noqa: E402
    CHECKPOINTS,
    QUICK_CHECKPOINTS,
    Checkpoint,
    Ledger,
    UserModel,
    checkpoint_row,
    remembered,
    split_queries,
    sub_corpus,
)
from benchmarks.simulation_routes import bosun, served, until, user_on  # noqa: E402
from benchmarks.simulation_tables import tables  # noqa: E402

logger = logging.getLogger("feedback_simulation")

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
    the click memory it fitted, its report). A memory that failed its cross-validated check, or
    too few labels, leave the collection as it was."""
    report = bosun("adapt", "--collection", collection, env=env)
    return bool(report["installed"]), report


async def reset_if_adapted(settings: Settings, collection: str, env: dict[str, str]) -> None:
    """`bosun adapt --reset` when the collection holds an adapted model or reranker (on a stock
    collection a reset would re-embed every passage for nothing)."""
    keys = (FILE_KEY, RERANKER_FILE_KEY, MEMORY_FILE_KEY)
    meta = await read_meta(settings.database_uri(), collection, keys)
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

    def progress() -> dict[str, Any]:
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

    try:
        while pending:
            with served(env, log) as url:
                async with user_on(url, key) as user:
                    if not points:
                        await user.forget_everything()  # an interrupted run's feedback
                    reached = await until(user, pending[0], queue, dataset, user_model, ledger)
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
            if args.partial is not None:  # what a run cut short still shows
                _write_partial(args.partial / f"feedback_simulation_{name}.json", progress(), args)
    finally:
        with served(env, log) as url:
            async with user_on(url, key) as user:
                await user.forget_everything()
        if not args.keep_model:
            await reset_if_adapted(settings, collection, env)
    return progress()


def _write_partial(path: Path, result: dict[str, Any], args: argparse.Namespace) -> None:
    notes = {"seed": args.seed, "partial": True, "runs": [_notes(result)]}
    doc = document(args.command.strip(), tables([result]), **notes)
    path.write_text(json.dumps(doc, indent=1) + "\n")


def _notes(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "rows"}


def _brief(report: dict[str, Any]) -> dict[str, Any]:
    """What a `bosun adapt` report says about its labels, its check and its verdict."""
    keys = ("labels", "check", "vocabulary_check", "residual_check", "parts", "installed")
    keys += ("reason", "seconds")
    return {key: report[key] for key in keys if key in report}


async def run_all(
    names: Sequence[str], args: argparse.Namespace, settings: Settings, log: Path
) -> list[dict[str, Any]]:
    """Every dataset's run, side by side (each has its own collection, server and adapt runs;
    their results do not depend on the timing)."""
    return list(await asyncio.gather(*(simulate(name, args, settings, log) for name in names)))


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
        "--partial",
        type=Path,
        metavar="DIR",
        help="after each checkpoint write DIR/feedback_simulation_<name>.json (the --json "
        "document so far)",
    )
    parser.add_argument(
        "--keep-model",
        action="store_true",
        help="leave each collection on the last model adapt installed (to check its cutoff "
        "with bosun eval-answers); by default it goes back to the stock model",
    )
    parser.add_argument(
        "--corpus",
        type=int,
        metavar="N",
        help="a smaller corpus: the documents judged for the queries used and N others "
        f"(--quick: {QUICK_DISTRACTORS})",
    )
    args = parser.parse_args(argv)
    args.command = "python benchmarks/feedback_simulation.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    default = QUICK_CHECKPOINTS if args.quick else CHECKPOINTS
    args.checkpoints = sorted(set(args.checkpoints or default))
    if args.quick and args.eval_queries is None:
        args.eval_queries = QUICK_EVAL_QUERIES
    if args.quick and args.corpus is None:
        args.corpus = QUICK_DISTRACTORS
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
    data = args.data or DATA
    missing = [name for name in args.dataset or DATASETS if not (data / name).is_dir()]
    if missing:
        parser.error(f"no {', '.join(missing)} under {data} (the shared data; see --data)")
    settings = Settings.from_env()
    log = Path(tempfile.mkstemp(prefix="feedback-simulation-", suffix=".log")[1])
    logger.info("bosun serve logs to %s", log)
    names = args.dataset or list(DATASETS)
    results = asyncio.run(run_all(names, args, settings, log))
    notes = {
        "seed": args.seed,
        "user_model": vars(UserModel(seed=args.seed, noise=args.noise)),
        "runs": [_notes(r) for r in results],
    }
    emit(args.command.strip(), tables(results), as_json=args.json, **notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
