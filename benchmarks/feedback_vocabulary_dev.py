"""The click vocabulary on the feedback simulation's dev side only: does a vocabulary refitted
on simulated clicks lift simulation queries no user of the fold asked?

    python benchmarks/feedback_vocabulary_dev.py [--dataset ntsb_pc2narr] [--limit N] [--json]

The protocol of benchmarks/feedback_residual_dev.py (whose cached rankings it reads): only the
simulation queries of benchmarks/feedback_simulation.py's split (seed 28), each ranked once by
its eval collection as `bosun adapt` ranks feedback questions; five folds by a hash of the
query id; for each fold the users are the first ``T`` of the other folds' queries, opening what
the simulation's user model opens among their top five documents. A vocabulary is fitted on
their labels as `bosun adapt` does (:func:`adapt.vocabulary_fit.fit_vocabulary`): "checked"
applies it only when its nested check passes ("checked, first lose ≤ M": with the margin M of
its guard on the questions already first, :data:`adapt.memory_fit.FIRST_MARGIN` in "checked"),
"forced at W" fits it on their clicks and blends it at weight W whatever the check says.
"qrels of all other folds" fits it on every other fold's query and its relevant documents
(perfect labels: can the mechanism gain at all?), and "no labels" blends an empty table (query
likelihood alone: is the gain learnt, or only a second lexical score?). The fold's
queries are scored by nDCG@10 against their qrels.

The cached pools hold passage ids, not texts: each pool document's text is the corpus's (title
and text) on its first passage, the document's other pool passages empty, so a document reads
as one, as the vocabulary reads it (`bosun adapt` reads the passages themselves).

Uses ``BOSUN_HOME`` like the CLI (the eval collections of the simulation's home).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from adapt.memory_fit import Ranked  # noqa: E402
from adapt.vocabulary_fit import VocabularyQuestions, blended, fit_vocabulary  # noqa: E402
from agent.settings import Settings  # noqa: E402
from benchmarks.feedback_memory_dev import FOLDS, _fold, opened  # noqa: E402
from benchmarks.feedback_residual_dev import (  # noqa: E402
    Scores,
    clicked,
    rankings,
    score_fold,
    summary,
)
from benchmarks.feedback_simulation import DATA, DATASETS  # noqa: E402
from benchmarks.render import Table, emit  # noqa: E402
from benchmarks.simulated_users import UserModel  # noqa: E402
from tools.click_vocabulary import ClickVocabulary  # noqa: E402

USERS = (100, 200, 400)
FORCED = (0.5, 2.0)
#: Margins of the check's guard on the questions already first (adapt.memory_fit.FIRST_MARGIN:
#: the mean nDCG@10 they may lose), each applied as "checked" is, to choose it on the dev side.
MARGINS = (0.0, 0.01, 0.02, 0.03, 0.05, 0.1, 1.0)
COLUMNS = (
    "variant",
    "users",
    "folds applied",
    "queries",
    "stock",
    "with vocabulary",
    "higher",
    "lower",
)


def with_texts(r: Ranked, corpus: dict[str, str]) -> Ranked:
    """``r`` with its pool's texts: each document's corpus text on its first pool passage."""
    assert r.pooled is not None
    seen: set[str] = set()
    texts = []
    for source in r.sources[: len(r.pooled.chunk_ids)]:
        texts.append("" if source in seen else corpus[source])
        seen.add(source)
    return replace(r, pooled=replace(r.pooled, texts=tuple(texts)))


def corpus_texts(name: str) -> dict[str, str]:
    found = {}
    with (DATA / name / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            found[doc["_id"]] = f"{doc.get('title', '')}\n{doc.get('text', '')}"
    return found


def forced(questions: VocabularyQuestions, members: list[int], label: str) -> dict[str, Any]:
    """A vocabulary of ``members`` at each forced weight, by variant name (None: no pairs)."""
    model = questions.model(members)
    return {
        f"{label}, at {w:g}" if label else f"forced at {w:g}": None
        if model is None
        else ClickVocabulary(model, w, questions.scale)
        for w in FORCED
    }


def rows(
    simulation: list[str], ranked: list[Ranked], qrels: dict[str, set[str]], corpus: dict[str, str]
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
            others = [i for i, q in enumerate(simulation) if _fold(q) != fold]
            asked = others[:users]
            labelled = [
                with_texts(clicked(ranked[i], clicks[simulation[i]]), corpus)
                for i in asked
                if clicks[simulation[i]]
            ]
            fitted = fit_vocabulary(labelled)
            questions = VocabularyQuestions(labelled)
            everyone = list(range(len(labelled)))
            variants = {"checked": fitted.vocabulary if fitted.installable else None}
            for margin in MARGINS:
                for majority in (True, False):
                    passes = fitted.check.passes(margin, majority=majority)
                    label = f"checked, first lose ≤ {margin:g}" + (
                        ", more rise" if majority else ""
                    )
                    variants[label] = fitted.vocabulary if passes else None
            variants.update(forced(questions, everyone, ""))
            if users == USERS[-1]:  # no users: every other fold's query labelled by its qrels
                oracle = VocabularyQuestions(
                    [replace(ranked[i], relevant=frozenset(qrels[simulation[i]])) for i in others]
                )
                variants.update(
                    forced(oracle, list(range(len(others))), "qrels of all other folds")
                )
                empty = forced(replace_pairs(questions), everyone, "no labels (empty table)")
                variants.update({k: v for k, v in empty.items() if k.endswith(f"{FORCED[0]:g}")})
            score_fold(results, variants, held, simulation, ranked, qrels, blended)
            print(f"  {users} users, fold {fold}: {len(labelled)} clicked", file=sys.stderr)
        found.extend(summary(results, users, ("qrels", "no labels")))
    return found


def replace_pairs(questions: VocabularyQuestions) -> VocabularyQuestions:
    """``questions`` with a pair of no words each: the fitted table is empty."""
    questions.pairs = [[("", "")] for _ in questions.pairs]
    return questions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", action="append", choices=sorted(DATASETS))
    parser.add_argument("--limit", type=int, help="only the first N simulation queries")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    tables = []
    for name in args.dataset or sorted(DATASETS):
        simulation, ranked, qrels = asyncio.run(rankings(name, settings))
        corpus = corpus_texts(name)
        ranked = [with_texts(r, corpus) for r in ranked]
        if args.limit:
            simulation, ranked = simulation[: args.limit], ranked[: args.limit]
        tables.append(Table(name, COLUMNS, rows(simulation, ranked, qrels, corpus)))
    command = "python benchmarks/feedback_vocabulary_dev.py " + " ".join(argv or sys.argv[1:])
    emit(command.strip(), tables, as_json=args.json, seed=28, folds=FOLDS)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
