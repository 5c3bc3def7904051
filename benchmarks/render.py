"""Measurement tables in docs/, rendered from the benchmarks' ``--json`` output.

A benchmark run with ``--json`` prints one document (:func:`document`): the command that
produced it, when and under what load, and its tables. Stored as ``docs/measurements/<name>.json``,
each table is written into the pages of ``docs/`` between markers::

    <!-- table: startup/cold -->
    (rewritten by `python benchmarks/render.py`)
    <!-- /table -->

so a number in the docs is never copied by hand. ``--check`` only reports pages that are out of
date (exit status 1).

    python benchmarks/startup.py --json > docs/measurements/startup.json
    python benchmarks/render.py
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(
    r"(<!-- table: (?P<name>[\w-]+)/(?P<table>[\w-]+) -->\n)(?P<body>.*?)(<!-- /table -->)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Table:
    """One table of a benchmark's results."""

    id: str  # the marker's name after the slash
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.columns) + " |", "|" + "---|" * len(self.columns)]
        lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in self.rows]
        return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,}"  # as the benchmark rounded it, thousands grouped
    return str(value).replace("|", "\\|")


def document(command: str, tables: Sequence[Table], **notes: Any) -> dict[str, Any]:
    """The ``--json`` document of a benchmark run: its command, the date, the machine's load
    (1-minute average at the end) and CPU count, any ``notes``, and its tables."""
    return {
        "command": command,
        "measured": datetime.date.today().isoformat(),
        "load_avg_1m": round(os.getloadavg()[0], 1),
        "cpus": os.cpu_count(),
        **notes,
        "tables": [{"id": t.id, "columns": list(t.columns), "rows": t.rows} for t in tables],
    }


def runs_parser(description: str, metavar: str, help: str) -> argparse.ArgumentParser:
    """The command line of a script that tabulates earlier runs: ``--run LABEL=FILE`` (repeated,
    at least one; ``metavar`` and ``help`` say what the files are) and ``--json``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--run", action="append", required=True, metavar=metavar, help=help)
    parser.add_argument("--json", action="store_true")
    return parser


def emit(command: str, tables: Sequence[Table], *, as_json: bool, **notes: Any) -> None:
    """Print the tables (markdown), or with ``as_json`` their :func:`document`."""
    if as_json:
        print(json.dumps(document(command, tables, **notes), indent=1))  # noqa: T201
        return
    for table in tables:
        print(table.markdown() + "\n")  # noqa: T201


def rendered(doc: Mapping[str, Any], table_id: str) -> str:
    """One stored table as markdown, with the line saying how and when it was measured."""
    tables = {t["id"]: t for t in doc["tables"]}
    if table_id not in tables:
        raise KeyError(f"no table {table_id!r} (has {', '.join(sorted(tables))})")
    found = tables[table_id]
    table = Table(found["id"], found["columns"], found["rows"])
    where = f"load average {doc['load_avg_1m']} on {doc['cpus']} CPUs"
    return f"{table.markdown()}\n\n`{doc['command']}` — {doc['measured']}, {where}.\n"


def render_text(text: str, measurements: Mapping[str, Mapping[str, Any]]) -> str:
    """``text`` with every marked table rewritten from ``measurements`` (name -> document)."""

    def replace(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in measurements:
            raise KeyError(f"no measurement {name!r} (docs/measurements/{name}.json)")
        return match[1] + rendered(measurements[name], match["table"]) + match[5]

    return MARKER.sub(replace, text)


def load(folder: Path) -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--check", action="store_true", help="report stale pages; change nothing")
    args = parser.parse_args(argv)
    measurements = load(args.docs / "measurements")
    stale = []
    for page in sorted(args.docs.glob("*.md")):
        text = page.read_text()
        new = render_text(text, measurements)
        if new != text:
            stale.append(page)
            if not args.check:
                page.write_text(new)
    for page in stale:
        print(f"{'stale' if args.check else 'rewrote'} {page}", file=sys.stderr)  # noqa: T201
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
