"""What the planted-instruction detector costs the first question of a process: each of
``--runs`` fresh processes imports :mod:`text.injection`, then reads one question (the concept
matcher is built and the classifier's weights loaded on that first call), then a second one.
Wall milliseconds, median and maximum over the processes. ``--before DIR`` measures another
source tree beside it, in turn (``git archive e823603 text | tar -x -C DIR``: the matcher that
compiled one large regular expression on the first question).

    python benchmarks/injection_first_call.py [--runs 7] [--json] [--before DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from render import Table, emit

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = (
    "How was the cylinder liner crack on Nordic Star resolved?",
    "Which vessels reported ballast pump problems last month?",
)
# one child: the import, the first question (concept matcher built, weights loaded on it) and
# the second one
_CHILD = """
import json, sys, time
t0 = time.perf_counter()
import text.injection as injection
t1 = time.perf_counter()
injection.instructions_in(sys.argv[1])
t2 = time.perf_counter()
injection.instructions_in(sys.argv[2])
t3 = time.perf_counter()
ms = lambda a, b: round(1000 * (b - a), 2)
print(json.dumps({"import": ms(t0, t1), "first question": ms(t1, t2),
    "second question": ms(t2, t3)}))
"""


def _child(tree: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *QUESTIONS],
        cwd=tree, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument(
        "--before", type=Path, help="also measure this source tree (e.g. an older commit's text/)"
    )
    args = parser.parse_args()
    trees = [ROOT, *([args.before] if args.before else [])]
    columns = ["stage", "median ms", "max ms"]
    if args.before:
        columns += ["before: median ms", "before: max ms"]
    runs: list[list[dict[str, float]]] = [[], []]
    for _ in range(args.runs):  # the trees in turn, so both meet the same load
        for i, tree in enumerate(trees):
            runs[i].append(_child(tree))
    rows = [
        [stage, *(f(r[stage] for r in found) for found in runs[: len(trees)]
                  for f in (statistics.median, max))]
        for stage in runs[0][0]
    ]  # fmt: skip
    command = "python benchmarks/injection_first_call.py --json"
    if args.before:
        command += " --before DIR  # DIR: git archive e823603 text | tar -x -C DIR"
    emit(command, [Table("first_call", columns, rows)], as_json=args.json, runs=args.runs)


if __name__ == "__main__":
    main()
