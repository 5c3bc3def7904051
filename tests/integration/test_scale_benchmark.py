"""benchmarks/scale.py on a tiny collection, so the benchmark cannot rot."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.shared_data]

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"


def _run(home: Path, database_url: str | None) -> dict:
    env = {**os.environ, "BOSUN_HOME": str(home), "PYTHONPATH": str(ROOT)}
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    command = [sys.executable, "benchmarks/scale.py", "--chunks", "2000", "--pool", "40"]
    done = subprocess.run(
        [*command, "--queries", "8", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_scale_benchmark_builds_measures_and_reuses(settings: Settings) -> None:
    if not (DATA / "beir" / "ntsb_pc2narr").is_dir():
        pytest.skip(f"{DATA} is absent")
    home = settings.home / "scale"
    home.mkdir(mode=0o755)
    first = _run(home, settings.database_url)
    assert first["chunks"] == 2000
    for key in ("hybrid_p50_ms", "hybrid_p95_ms", "bm25_p50_ms", "vector_p50_ms"):
        assert first[key] > 0, key
    assert 0.9 <= first["bm25_recall_at_100"] <= 1.0
    assert 0.9 <= first["vector_recall_at_100"] <= 1.0
    assert first["filtered_rows_min"] == 10  # a vessel here is one document of ten chunks
    assert first["size_total_mb"] > first["size_hnsw_mb"] > 0
    assert first["ingest_chunks_per_s"] > 0

    again = _run(home, settings.database_url)  # reuses the collection: same build record
    assert again["build"] == first["build"]
