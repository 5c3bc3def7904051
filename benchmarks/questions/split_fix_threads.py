"""The seeded split of the usrp-users fix and cause questions, written before any code used them.

The questions were written by reading real usrp-users threads (``shared/data/email/usrp-users``):
for each, the question a user would ask, the thread, the message that states the fix or cause
(a reply by someone other than the asker) and gold key phrases copied from that message. This
script only splits: every question of both files, ordered by ``message_id``, shuffled with
``random.Random(seed)``; the first half is the dev set, the rest is held back. ``--check`` tells
whether the files on disk are that split (exit status 1 when they are not).

The sets are split this way, each with its own seed, each split before Bosun answered any of it:
``fix_threads`` (114 questions, seed 26), ``fix_threads2`` (51 more, read from threads the
first set does not use, seed 2602), ``fix_threads3`` (36 more, from threads neither uses,
seed 2603), ``fix_threads4`` (78 more, one question a thread, from threads none of the others
use, read and written by someone who does not work on the answers; seed 2604) and ``fix_threads5``
(87 questions from 61 threads none of the others use, read and written the same way: a fix
question where a reply states the fix, and a cause question where a message states what caused
the problem, 42 threads with one; seed 2605) and ``fix_threads6`` (74 questions, 39 fix and 35
cause, from 57 threads none of the others use, read and written the same way by someone who does
not work on the answers; seed 2606) and ``fix_threads7`` (53 questions, 31 fix and 22 cause,
from 40 threads none of the others use nor reply into, read and written blind the same way;
seed 2707; ``check_fix_threads.py`` checks its ids and gold against the corpus). A set in
``BY_THREAD`` is split by thread, so a thread's fix and cause questions land in the same half:
its threads, ordered by ``thread_id``, are shuffled and halved the same way and each keeps its
questions in the order of the file.

    python benchmarks/questions/split_fix_threads.py --check
    python benchmarks/questions/split_fix_threads.py --set fix_threads2 --check
    python benchmarks/questions/split_fix_threads.py --set fix_threads3 --check
    python benchmarks/questions/split_fix_threads.py --set fix_threads4 --check
    python benchmarks/questions/split_fix_threads.py --set fix_threads5 --check
    python benchmarks/questions/split_fix_threads.py --set fix_threads6 --check
    python benchmarks/questions/split_fix_threads.py --set fix_threads7 --check
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

SEEDS = {
    "fix_threads": 26,
    "fix_threads2": 2602,
    "fix_threads3": 2603,
    "fix_threads4": 2604,
    "fix_threads5": 2605,
    "fix_threads6": 2606,
    "fix_threads7": 2707,
}
SEED = SEEDS["fix_threads"]
BY_THREAD = {"fix_threads5", "fix_threads6", "fix_threads7"}
HERE = Path(__file__).resolve().parent


def split(rows: list[dict], seed: int = SEED) -> tuple[list[dict], list[dict]]:
    """Dev and held-back halves of ``rows`` (the dev half gets the odd one)."""
    ordered = sorted(rows, key=lambda row: row["message_id"])
    random.Random(seed).shuffle(ordered)
    half = (len(ordered) + 1) // 2
    return ordered[:half], ordered[half:]


def split_by_thread(rows: list[dict], seed: int) -> tuple[list[dict], list[dict]]:
    """Dev and held-back halves of ``rows`` with each thread's questions in one half (the dev
    half gets the odd thread); a thread keeps its questions in the order ``rows`` has them."""
    by_thread: dict[str, list[dict]] = {}
    for row in rows:
        by_thread.setdefault(row["thread_id"], []).append(row)
    ordered = sorted(by_thread)
    random.Random(seed).shuffle(ordered)
    half = (len(ordered) + 1) // 2
    dev = [row for thread in ordered[:half] for row in by_thread[thread]]
    return dev, [row for thread in ordered[half:] for row in by_thread[thread]]


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="all questions (JSON list)")
    parser.add_argument("--check", action="store_true", help="verify the files on disk")
    parser.add_argument("--set", dest="name", choices=sorted(SEEDS), default="fix_threads")
    args = parser.parse_args(argv)
    dev_path, held_path = HERE / f"{args.name}_dev.jsonl", HERE / f"{args.name}_heldout.jsonl"
    if args.source:
        rows = json.loads(args.source.read_text(encoding="utf-8"))
    else:
        rows = _read(dev_path) + _read(held_path)
    if args.name in BY_THREAD:
        dev, heldout = split_by_thread(rows, SEEDS[args.name])
    else:
        dev, heldout = split(rows, SEEDS[args.name])
    if args.check:
        same = _read(dev_path) == dev and _read(held_path) == heldout
        verdict = "the seeded split" if same else "NOT the seeded split"
        print(f"{len(dev)} dev / {len(heldout)} held out: {verdict}")  # noqa: T201
        return 0 if same else 1
    _write(dev_path, dev)
    _write(held_path, heldout)
    print(f"wrote {len(dev)} dev and {len(heldout)} held-out questions")  # noqa: T201
    return 0


if __name__ == "__main__":
    sys.exit(main())
