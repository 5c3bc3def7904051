"""Pattern questions over usrp-users mail threads ("What are the most common fixes for overflows
on the mailing list?", "What usually causes underflows?"), written by reading the threads.

Each problem area below was chosen by reading the list's subjects and replies (the words the
list itself uses for a recurring problem); each is asked in two phrasings, one about fixes and
one about causes. Where the replies were read closely enough to say which fix dominates, the
line carries ``dominant_messages``: Message-ID prefixes of replies that state it (an answer
passes that check when one of its top groups cites one of them). Every line carries
``min_groups``: the answer must name at least two groups with counts, each top group with two
cited examples from distinct messages.

The split is made here, before Bosun answers any of them: the lines are shuffled with
``random.Random(SPLIT_SEED)`` and alternate between ``dev`` (built on) and ``heldout`` (scored
once, at the end)::

    python benchmarks/questions/make_thread_pattern_questions.py          # writes both halves
    python benchmarks/questions/make_thread_pattern_questions.py --check  # verifies them
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLIT_SEED = 2626
#: (problem area as a user names it, Message-ID prefixes of replies stating the dominant fix).
AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the host cannot keep up: write to /dev/null, a RAM disk or tmpfs, a faster disk or computer
    ("overflows", ("4f8996e4-8a81", "BN0P110MB1014B", "CAB__hTRoWd8xw", "6decf301-6986")),
    ("underflows", ("BN0P110MB1015A", "419b440a-232d", "CAFOi1A5hKqnG5")),
    ("dropped packets", ("4f8996e4-8a81", "BN0P110MB1014B", "CAB__hTRoWd8xw", "6decf301-6986")),
    ("sequence errors", ()),
    ("DPDK", ()),
    ("no devices found", ()),
    ("RFNoC block", ()),
    ("FPGA image build", ()),
    ("Vivado", ()),
    ("PPS", ()),
    ("GPIO", ()),
    ("phase", ()),
    ("B210", ()),
    ("N210", ()),
    ("replay block", ()),
    ("calibration", ()),
    ("GNU Radio", ()),
    ("external reference clock", ()),
    ("MTU", ()),
    ("timeout", ()),
)
PHRASINGS = (
    "What are the most common fixes for {area} on the mailing list?",
    "What usually causes {area} problems?",
)


def questions() -> list[dict[str, object]]:
    """Every question, in the order written."""
    out: list[dict[str, object]] = []
    for area, dominant in AREAS:
        for phrasing in PHRASINGS:
            row: dict[str, object] = {
                "kind": "pattern",
                "question": phrasing.format(area=area),
                "source": "usrp",
                "area": area,
                "min_groups": 2,
            }
            if dominant:
                row["dominant_messages"] = list(dominant)
            out.append(row)
    return out


def halves(rows: list[dict[str, object]], seed: int) -> dict[str, list[dict[str, object]]]:
    """``rows`` shuffled by ``seed``, then alternating: dev, heldout, dev, ..."""
    rows = list(rows)
    random.Random(seed).shuffle(rows)
    return {"dev": rows[0::2], "heldout": rows[1::2]}


def _lines(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def write_halves(name: str, rows: list[dict[str, object]], seed: int, check: bool) -> int:
    """Write ``name``_{dev,heldout}.jsonl (:func:`halves`), or with ``check`` verify them: 1
    when a file differs from what would be written."""
    for half, part in halves(rows, seed).items():
        path = HERE / f"{name}_{half}.jsonl"
        if not check:
            path.write_text(_lines(part))
        elif path.read_text() != _lines(part):
            print(f"{path.name} differs from the generator")  # noqa: T201
            return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the files, write nothing")
    return write_halves("pattern_threads", questions(), SPLIT_SEED, parser.parse_args().check)


if __name__ == "__main__":
    raise SystemExit(main())
