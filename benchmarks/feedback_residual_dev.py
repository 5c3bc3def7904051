"""The click residual on the feedback simulation's dev side only: would a residual fitted on
simulated clicks lift simulation queries no user of the fold asked, whether or not its check
lets it in?

    python benchmarks/feedback_residual_dev.py [--dataset ntsb_pc2narr] [--json]

Only the simulation queries of benchmarks/feedback_simulation.py's split (seed 28) are read; its
evaluation queries never are. Each simulation query is ranked once by its eval collection as
served without a memory or residual (as `bosun adapt` ranks feedback questions, pools and
features included). They are split into five folds by a hash of their ids (as
benchmarks/feedback_memory_dev.py does); for each fold the users are the first ``T`` of the other
folds' queries, reacting to their top five documents as the simulation's users do; an opened
document's best passage in the pool is the click, at the place its document was shown. The
residual is fitted on their labels as `bosun adapt` does (:func:`adapt.residual_fit.
fit_residual`): "checked" applies it only when its nested check passes, "forced at P" fits it
with penalty P whatever the check says; "qrels of all other folds" fits it on every other
fold's query with all its relevant pool passages as clicks at place 1 (no users, no position
bias: what the features could give with perfect labels). The fold's queries are scored by
nDCG@10 against their qrels.

Uses ``BOSUN_HOME`` like the CLI (the eval collections of the simulation's home); rankings are
cached under ``BOSUN_HOME/scratch``.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adapt.feedback import FeedbackLabel  # noqa: E402
from adapt.memory_fit import Pool, Ranked, ndcg  # noqa: E402
from adapt.residual_fit import ClickPairs, fit_residual, reordered  # noqa: E402
from agent.adapt_command import ranker  # noqa: E402
from agent.evaluation.beir import load_dataset  # noqa: E402
from agent.evaluation.collections import collection_name  # noqa: E402
from agent.settings import Settings  # noqa: E402
from benchmarks.feedback_memory_dev import FOLDS, _fold, _mean, opened  # noqa: E402
from benchmarks.feedback_simulation import DATA, DATASETS  # noqa: E402
from benchmarks.render import Table, emit  # noqa: E402
from benchmarks.simulated_users import UserModel, split_queries  # noqa: E402

USERS = (200, 400)
FORCED = (0.3, 0.03)
COLUMNS = (
    "variant",
    "users",
    "folds applied",
    "queries",
    "stock",
    "with residual",
    "higher",
    "lower",
)


async def rankings(name: str, settings: Settings) -> tuple[list[str], list[Ranked], dict[str, Any]]:
    """Each simulation query ranked as `bosun adapt` ranks feedback questions (cached)."""
    dataset = load_dataset(DATA / name, DATASETS[name])
    simulation, _ = split_queries(list(dataset.queries), 28)
    cache = settings.home / "scratch" / f"residual_dev_{name}.pickle"
    qrels = {q: {d for d, g in dataset.qrels[q].items() if g > 0} for q in simulation}
    if cache.is_file():
        return simulation, pickle.loads(cache.read_bytes()), qrels
    labels = [
        FeedbackLabel(dataset.queries[q], frozenset(), frozenset(), frozenset()) for q in simulation
    ]
    ranked, _ = await ranker(settings, collection_name(dataset.name))(labels)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(ranked))
    return simulation, ranked, qrels


def clicked(r: Ranked, docs: set[str], *, seen: bool = False) -> Ranked:
    """``r`` labelled with the opened ``docs``: each one's best pool passage, at the place its
    document was shown (``seen``: at place 1, weight 1: every relevant document as if looked at)."""
    assert r.pooled is not None
    shown = list(dict.fromkeys(r.sources))
    sources = r.sources[: len(r.pooled.chunk_ids)]
    found = []
    for doc in docs:
        if doc in sources:
            chunk = r.pooled.chunk_ids[sources.index(doc)]
            found.append((chunk, 1 if seen else shown.index(doc) + 1))
    pool = Pool(r.pooled.chunk_ids, r.pooled.base, r.pooled.features, tuple(found))
    return Ranked(r.query, frozenset(docs), r.sources, r.pool, pool)


def rows(
    simulation: list[str], ranked: list[Ranked], qrels: dict[str, set[str]]
) -> list[list[Any]]:
    model = UserModel(seed=28)
    clicks = {
        q: opened(model, q, r.sources, qrels[q]) for q, r in zip(simulation, ranked, strict=True)
    }
    found = []
    for users in USERS:
        results: Scores = {}
        for fold in range(FOLDS):
            held = [i for i, q in enumerate(simulation) if _fold(q) == fold]
            asked = [i for i, q in enumerate(simulation) if _fold(q) != fold][:users]
            labelled = [
                clicked(ranked[i], clicks[simulation[i]]) for i in asked if clicks[simulation[i]]
            ]
            fitted = fit_residual(labelled)
            questions = ClickPairs(labelled)
            variants = {"checked": fitted.residual if fitted.installable else None}
            for penalty in FORCED:
                variants[f"forced at {penalty:g}"] = questions.residual(
                    questions.fit(list(range(len(labelled))), penalty)[0]
                )
            if users == USERS[0]:  # no users: every other fold's query labelled by its qrels
                others = [i for i, q in enumerate(simulation) if _fold(q) != fold]
                oracle = ClickPairs(
                    [clicked(ranked[i], qrels[simulation[i]], seen=True) for i in others]
                )
                theta = oracle.fit(list(range(len(others))), FORCED[-1])[0]
                variants[f"qrels of all other folds, at {FORCED[-1]:g}"] = oracle.residual(theta)
            score_fold(results, variants, held, simulation, ranked, qrels, reordered)
        found.extend(summary(results, users))
    return found


#: Variant -> (folds where it applied, stock nDCG@10 and its nDCG@10 by held-out query).
Scores = dict[str, tuple[int, dict[str, float], dict[str, float]]]


def score_fold(
    results: Scores,
    variants: dict[str, Any],
    held: list[int],
    simulation: list[str],
    ranked: list[Ranked],
    qrels: dict[str, set[str]],
    reorder: Callable[[Ranked, Any], Sequence[str]],
) -> None:
    """Score one fold's ``held`` queries for every variant (None: not applied, stock order)."""
    for label, model in variants.items():
        applied, stock, after = results.setdefault(label, (0, {}, {}))
        results[label] = (applied + (model is not None), stock, after)
        for i in held:
            q, rel = simulation[i], frozenset(qrels[simulation[i]])
            stock[q] = ndcg(ranked[i].sources, rel)
            order = reorder(ranked[i], model) if model else ranked[i].sources
            after[q] = ndcg(order, rel)


def summary(results: Scores, users: int, no_users: tuple[str, ...] = ()) -> list[list[Any]]:
    """One row per variant over every fold, with ``users`` (a dash for the variants whose
    label starts with one of ``no_users``: labelled by no simulated user)."""
    found = []
    for label, (applied, stock, after) in results.items():
        every = list(stock)
        found.append(
            [
                label,
                "—" if label.startswith(no_users) else users,
                f"{applied}/{FOLDS}",
                len(every),
                _mean(stock, every),
                _mean(after, every),
                sum(after[q] > stock[q] + 1e-9 for q in every),
                sum(after[q] < stock[q] - 1e-9 for q in every),
            ]
        )
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", action="append", choices=sorted(DATASETS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    tables = []
    for name in args.dataset or sorted(DATASETS):
        simulation, ranked, qrels = asyncio.run(rankings(name, settings))
        tables.append(Table(name, COLUMNS, rows(simulation, ranked, qrels)))
    command = "python benchmarks/feedback_residual_dev.py " + " ".join(argv or sys.argv[1:])
    emit(command.strip(), tables, as_json=args.json, seed=28, folds=FOLDS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
