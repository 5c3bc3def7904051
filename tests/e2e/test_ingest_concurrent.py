"""Several `bosun ingest` runs on one database split the work: two processes started together
over overlapping inputs (one with --workers 2) store every document once, and every count equals
one clean run over the union; `bosun delete` removes what it names and refuses unknown ids."""

from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from agent.settings import Settings
from tests.e2e.harness import ROOT, Bosun, offline_env
from tests.e2e.test_ingest_resume import counts

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def overlapping() -> Iterator[Path]:
    """The example mailbox and 60 NTSB records, the records in two files sharing 20."""
    folder = Path(tempfile.mkdtemp(prefix="bosun-concurrent-"))
    shutil.copytree(ROOT / "examples/archive/fleet-mail", folder / "fleet-mail")
    lines = (ROOT / "examples/archive/ntsb/reports_sample.jsonl").read_text().splitlines()
    (folder / "a.jsonl").write_text("\n".join(lines[:40]) + "\n")
    (folder / "b.jsonl").write_text("\n".join(lines[20:60]) + "\n")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _cli(settings: Settings, prefix: str) -> Bosun:
    fresh = replace(settings, collection=f"{prefix}_{uuid.uuid4().hex[:8]}")
    return Bosun(fresh, offline_env(fresh))


def test_two_runs_over_overlapping_inputs_equal_one_clean_run(
    settings: Settings, overlapping: Path
) -> None:
    clean = _cli(settings, "single")
    run = clean.run("ingest", str(overlapping), "--json", "--no-progress", timeout=600)
    single = run.json()
    expected = counts(clean)
    assert expected["digests"] and expected["vessel_links"] and expected["topic_links"], expected

    shared = _cli(settings, "shared")
    ingest = ("ingest", "--json", "--no-progress")
    first = shared.start(*ingest, str(overlapping / "fleet-mail"), str(overlapping / "a.jsonl"))
    second = shared.start(
        *ingest, str(overlapping / "b.jsonl"), str(overlapping / "fleet-mail"), "--workers", "2"
    )
    summaries = []
    for proc in (first, second):
        stdout, stderr = proc.communicate(timeout=900)
        assert proc.returncode == 0, stderr[-3000:]
        summaries.append(json.loads(stdout))
    assert counts(shared) == expected
    # every document was embedded and written by exactly one of the runs
    assert sum(s["added"] for s in summaries) == single["added"]
    assert all(s["errors"] == [] for s in summaries)
    assert sum(s["thread_digests"] for s in summaries) == single["thread_digests"]


def test_delete_removes_named_documents_and_refuses_unknown_ids(
    settings: Settings, overlapping: Path
) -> None:
    cli = _cli(settings, "delete")
    cli.run("ingest", str(overlapping), "--json", "--no-progress", timeout=600).json()
    before = counts(cli)
    record = json.loads((overlapping / "a.jsonl").read_text().splitlines()[0])["ntsb_no"]

    refused = cli.run("delete", record, "NO-SUCH-REPORT")
    assert refused.returncode == 2
    assert "NO-SUCH-REPORT" in refused.stderr and "nothing was deleted" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert counts(cli) == before

    deleted = cli.run("delete", record, "--json").json()
    assert deleted["documents"] == 1 and deleted["chunks"] >= 1
    after = counts(cli)
    assert after["documents"] == before["documents"] - 1
    assert after["chunks"] == before["chunks"] - deleted["chunks"]
    assert after["postings"] < before["postings"]
    again = cli.run("delete", record)
    assert again.returncode == 2 and record in again.stderr
