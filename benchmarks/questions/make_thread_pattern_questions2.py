# ruff: noqa: E501  (one question a line)
"""Thread pattern questions, set 2: usrp-users problem areas that set 1
(``make_thread_pattern_questions.py``) does not ask about, each asked once in a user's own words
rather than from one template.

The areas were chosen by counting how many threads of the list name them (each at least ten) and
written by someone who does not work on the answers. Lines as in set 1 (``kind`` pattern,
``question``, ``source`` usrp, ``area``: a label nothing reads to answer, ``min_groups`` 2); no
line names a dominant fix, as none was read closely enough to say which one dominates. Split
like set 1, with its own seed, before Bosun answered any of them::

    python benchmarks/questions/make_thread_pattern_questions2.py          # writes both halves
    python benchmarks/questions/make_thread_pattern_questions2.py --check  # verifies them
"""

from __future__ import annotations

import argparse
from pathlib import Path

from make_thread_pattern_questions import write_halves  # split and written as set 1

HERE = Path(__file__).resolve().parent
SPLIT_SEED = 2627
#: (area, the question as a user asks it).
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("X410", "What problems do people most often run into with the X410, and how were they usually solved?"),
    ("X440", "What are the usual reasons an X440 setup misbehaves, going by the list?"),
    ("E320", "When an E320 gives trouble, what is typically behind it?"),
    ("E310 embedded mode", "What do people usually do to fix problems when running their code on an E310 in embedded mode?"),
    ("N310 and N320", "What tends to go wrong with N310 and N320 radios, and what is the usual remedy?"),
    ("daughterboards", "Which daughterboard issues (UBX, TwinRX, CBX and the like) come up most, and what fixes them?"),
    ("GPSDO", "Why do the GPSDOs in USRPs most often fail to lock or give a bad fix?"),
    ("100 GbE NIC", "What are the most common fixes when a 100 GbE link to an X4x0 doesn't reach its rate?"),
    ("master clock rate", "What usually goes wrong when people choose a master clock rate or sample rate, and how do they fix it?"),
    ("DDC and DUC", "What are the typical causes of errors from the DDC or DUC blocks?"),
    ("version mismatch", "What usually causes compat number or version mismatch errors between UHD and the FPGA image, and what clears them?"),
    ("bricked device", "How do people most often recover a USRP that looks bricked?"),
    ("SD card and filesystem update", "What are the common pitfalls when updating the SD card image or filesystem of an embedded USRP?"),
    ("Python API", "What trips people up most when they drive a USRP from the UHD Python API?"),
    ("timed commands", "Why do timed commands most often not happen at the expected time?"),
    ("USB connection", "What usually causes trouble with USRPs connected over USB, and what do people do about it?"),
    ("Windows", "What problems do people hit running UHD on Windows, and how are they solved?"),
    ("transmit power", "Why is the transmit power of a USRP so often lower than people expect?"),
    ("ATR and antenna switching", "What are the common fixes when ATR or TX/RX antenna switching doesn't behave?"),
    ("Octoclock", "What goes wrong most often with Octoclocks, and what was done about it?"),
    ("simulation", "What are the usual reasons an RFNoC block testbench won't simulate or gives wrong results?"),
    ("multi-device synchronisation", "How do people most often solve synchronising several USRPs with each other?"),
    ("crossbar and stream endpoints", "Which mistakes with stream endpoints and the crossbar come up most in custom RFNoC images?"),
    ("benchmark_rate", "What do people usually find out when benchmark_rate shows they can't reach the rate they need?"),
    ("MPM daemon", "What usually makes the MPM daemon (usrp-hwd) fail on networked USRPs?"),
)  # fmt: skip


def questions() -> list[dict[str, object]]:
    """Every question, in the order written."""
    return [
        {"kind": "pattern", "question": q, "source": "usrp", "area": area, "min_groups": 2}
        for area, q in QUESTIONS
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the files, write nothing")
    check = parser.parse_args(argv).check
    return write_halves("pattern_threads2", questions(), SPLIT_SEED, check)


if __name__ == "__main__":
    raise SystemExit(main())
