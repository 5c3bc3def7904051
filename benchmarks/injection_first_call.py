"""What the planted-instruction detector costs the first question of a process: each of
``--runs`` fresh processes imports :mod:`text.injection`, then reads one question (the concept
matcher is built and the classifier's weights loaded on that first call), then a second one.
Wall milliseconds, median and maximum over the processes. ``--tree`` measures another source
tree the same way (``git archive <commit> text | tar -x -C DIR``: an older matcher).

    python benchmarks/injection_first_call.py [--runs 7] [--json] [--tree DIR]
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
        "--tree", type=Path, default=ROOT, help="another source tree (e.g. an older commit's)"
    )
    args = parser.parse_args()
    runs = [_child(args.tree) for _ in range(args.runs)]
    rows = [
        [stage, statistics.median(r[stage] for r in runs), max(r[stage] for r in runs)]
        for stage in runs[0]
    ]
    load = round(os.getloadavg()[0], 1)
    emit(
        "python benchmarks/injection_first_call.py --json",
        [Table("first_call", ["stage", "median ms", "max ms"], rows)],
        as_json=args.json,
        runs=args.runs,
        load_average=load,
    )


if __name__ == "__main__":
    main()
