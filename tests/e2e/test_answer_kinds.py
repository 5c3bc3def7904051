"""examples/answer_kinds.py, the README's answers of each kind, runs as a user runs it on the
example archive: the answers as `bosun ask` prints them on stdout, with their source lists and the
records' own values beside the count."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.e2e.harness import ROOT, Bosun

pytestmark = pytest.mark.e2e


def test_the_answer_kinds_example_prints_each_answer_with_its_sources(bosun: Bosun) -> None:
    run = subprocess.run(
        [sys.executable, "examples/answer_kinds.py", "--kind", "count", "--kind", "follow-up"],
        cwd=ROOT,
        env=bosun.env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    assert out.startswith("## count\n"), out[:300]  # the ingest's line went to stderr
    count, follow = out.split("## follow-up\n")
    assert '$ bosun ask "How many accidents in Texas in 2011 were fatal?"' in count
    assert "\nSources:\n  [1] " in count
    assert "(the records' fields: 1 fatal among the 9 records from Texas in 2011)" in count
    asks = [line for line in follow.splitlines() if line.startswith("$ bosun ask")]
    assert len(asks) == 2 and asks[0].split("--thread ")[1] == asks[1].split("--thread ")[1]
    assert follow.count("\nSources:\n") == 2, follow
    assert "CEN12FA091: 1 fatal, 0 serious, 1 minor" in follow
