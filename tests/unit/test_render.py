"""benchmarks/render.py: docs tables come from stored --json output, never by hand."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("render", ROOT / "benchmarks/render.py")
assert _spec is not None and _spec.loader is not None
render = importlib.util.module_from_spec(_spec)
sys.modules["render"] = render  # dataclasses resolve their module by name
_spec.loader.exec_module(render)

DOC = {
    "command": "python benchmarks/startup.py --json",
    "measured": "2026-12-01",
    "load_avg_1m": 3.5,
    "cpus": 2,
    "tables": [
        {
            "id": "cold",
            "columns": ["command", "wall s"],
            "rows": [["bosun --help", 0.123], ["x", None]],
        }
    ],
}
PAGE = (
    "# Start-up\n\n<!-- table: startup/cold -->\nold | numbers\n<!-- /table -->\n\nProse stays.\n"
)


def test_a_marked_table_is_rewritten_from_the_stored_json() -> None:
    out = render.render_text(PAGE, {"startup": DOC})
    assert out.startswith("# Start-up\n\n<!-- table: startup/cold -->\n| command | wall s |\n")
    assert "| bosun --help | 0.123 |" in out and "| x | — |" in out
    assert "old | numbers" not in out and out.endswith("<!-- /table -->\n\nProse stays.\n")
    assert "`python benchmarks/startup.py --json` — 2026-12-01, load average 3.5 on 2 CPUs." in out
    assert render.render_text(out, {"startup": DOC}) == out  # idempotent


def test_a_missing_measurement_or_table_is_an_error() -> None:
    with pytest.raises(KeyError, match="startup"):
        render.render_text(PAGE, {})
    with pytest.raises(KeyError, match="no table 'warm'"):
        render.render_text(PAGE.replace("startup/cold", "startup/warm"), {"startup": DOC})


def test_check_reports_a_stale_page_and_the_run_fixes_it(tmp_path: Path) -> None:
    (tmp_path / "measurements").mkdir()
    (tmp_path / "measurements" / "startup.json").write_text(json.dumps(DOC))
    (tmp_path / "page.md").write_text(PAGE)
    assert render.main(["--docs", str(tmp_path), "--check"]) == 1
    assert (tmp_path / "page.md").read_text() == PAGE  # --check changes nothing
    assert render.main(["--docs", str(tmp_path)]) == 0
    assert render.main(["--docs", str(tmp_path), "--check"]) == 0


def test_the_shipped_docs_are_up_to_date_with_their_measurements() -> None:
    assert render.main(["--docs", str(ROOT / "docs"), "--check"]) == 0


def test_a_benchmark_document_round_trips(capsys: pytest.CaptureFixture[str]) -> None:
    table = render.Table("cold", ["a", "b"], [[1, 2.5]])
    render.emit("cmd", [table], as_json=True, note="shared machine")
    doc = json.loads(capsys.readouterr().out)
    assert doc["command"] == "cmd" and doc["note"] == "shared machine"
    assert "| 1 | 2.5 |" in render.rendered(doc, "cold")
