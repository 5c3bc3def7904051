"""How many of the positives `bosun adapt` takes from stored feedback are relevant: the click model
as it is (opened or downloaded passages) against the former one (every passage of a thumbed-up
answer as well), on the feedback a run of benchmarks/feedback_simulation.py has stored.

    BOSUN_HOME=… python benchmarks/feedback_label_precision.py [--json]

Run it while a simulation's feedback is stored (the simulation deletes it at its end). A label's
positive document is relevant when the split's qrels judge it so for the query asked.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's packages, also when run as a script

from adapt.feedback import FeedbackLabel, Shown, read_shown, turn_labels  # noqa: E402
from agent.evaluation.beir import load_dataset  # noqa: E402
from agent.evaluation.collections import collection_name  # noqa: E402
from agent.settings import Settings  # noqa: E402
from benchmarks.feedback_simulation import DATA, DATASETS  # noqa: E402
from benchmarks.render import Table, emit  # noqa: E402

COLUMNS = (
    "dataset",
    "turns stored",
    "click model",
    "questions with a positive",
    "positive documents",
    "relevant",
    "share relevant",
)


def former(shown: list[Shown]) -> list[Shown]:
    """The former click model's view: every passage of a thumbed-up answer counted as opened."""
    return [dataclasses.replace(r, opened=True) if r.thumbs == 1 else r for r in shown]


def row(
    name: str, turns: int, model: str, labels: list[FeedbackLabel], relevant: dict[str, set[str]]
) -> list[Any]:
    positive = [label for label in labels if label.positives]
    docs = sum(len(label.relevant_sources) for label in positive)
    good = sum(len(label.relevant_sources & relevant.get(label.query, set())) for label in positive)
    share = round(good / docs, 3) if docs else None
    return [name, turns, model, len(positive), docs, good, share]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the --json document")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    rows = []
    for name, split in DATASETS.items():
        dataset = load_dataset(DATA / name, split)
        relevant = {
            text: {d for d, g in dataset.qrels[q].items() if g > 0}
            for q, text in dataset.queries.items()
        }
        shown = read_shown(settings.database_uri(), collection_name(dataset.name))
        turns = len({r.turn for r in shown})
        rows.append(row(name, turns, "opened or downloaded", turn_labels(shown), relevant))
        rows.append(row(name, turns, "+ thumbed-up answers", turn_labels(former(shown)), relevant))
    command = "python benchmarks/feedback_label_precision.py " + " ".join(argv or sys.argv[1:])
    emit(command.strip(), [Table("precision", COLUMNS, rows)], as_json=args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
