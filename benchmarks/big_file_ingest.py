"""A 30 MB text file through `bosun ingest` as a user runs it: when the first slice is committed,
when small mails queued with it are stored, how fast passages are committed, how soon Ctrl-C
stops the run, and (``--finish``) the total and a rerun that continues.

Before slices, all ~36k passages of such a file went into one batch: after 26 minutes nothing of
the run was stored, and Ctrl-C left the embedding running. The run fails (exit 1) when the first
slice takes longer than ``--first-within`` seconds or Ctrl-C longer than ``--stop-within``.

    BOSUN_HOME=/tmp/bench nice python benchmarks/big_file_ingest.py [--mb 30] [--run-s 120]
        [--finish] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.settings import Settings  # noqa: E402

SAMPLE = ROOT / "examples" / "archive" / "ntsb" / "reports_sample.jsonl"
SQL = (
    "SELECT (SELECT count(*) FROM chunks c JOIN documents d USING (doc_id)"
    "        WHERE d.source_id = 'big.txt') AS big,"
    " (SELECT coalesce(max(chunk_count), 0) FROM documents WHERE source_id = 'big.txt'),"
    " (SELECT count(*) FROM documents WHERE kind = 'email'),"
    " (SELECT count(*) - count(DISTINCT chunk_id) FROM chunks)"
)


def write_folder(folder: Path, megabytes: float) -> None:
    """``big.txt`` of real prose (NTSB narratives with a counter) and three small mails after it."""
    narratives = [json.loads(line)["narrative"] for line in SAMPLE.read_text().splitlines()]
    target = int(megabytes * 1_000_000)
    with (folder / "big.txt").open("w") as out:
        n = size = 0
        while size < target:
            text = f"Entry {n}. {narratives[n % len(narratives)]}\n\n"
            out.write(text)
            size += len(text)
            n += 1
    for n in range(3):
        (folder / f"mail{n}.eml").write_text(
            f"From: chief@fleet.example\nSubject: small {n}\nMessage-ID: <bench-{n}@x>\n\n"
            f"Small mail {n}: the bilge alarm was tested.\n"
        )


def counts(url: str, schema: str) -> tuple[int, int, int, int]:
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute(f"SET search_path TO {schema}, public")
            row = conn.execute(SQL).fetchone()
        except (psycopg.errors.UndefinedTable, psycopg.errors.InvalidSchemaName):
            return (0, 0, 0, 0)
    assert row is not None
    return (row[0], row[1], row[2], row[3])


def run(args: argparse.Namespace) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="bosun-bigfile-"))
    home.chmod(0o755)
    folder = home / "archive"
    folder.mkdir()
    write_folder(folder, args.mb)
    settings = Settings(home=home, collection="bigfile")
    url = settings.database_uri()  # the embedded server, shared with the child processes
    env = {**os.environ, "BOSUN_HOME": str(home), "DATABASE_URL": url,
           "BOSUN_COLLECTION": "bigfile", "BOSUN_SERVER_LINGER_S": "0"}  # fmt: skip
    command = [str(Path(sys.executable).with_name("bosun")), "ingest", str(folder), "--json",
               "--no-progress"]  # fmt: skip
    out: dict[str, Any] = {"megabytes": args.mb}
    try:
        started = time.monotonic()
        proc = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # Ctrl-C reaches the run even when this script was started in the background (where
            # the shell ignores SIGINT, and an ignored signal stays ignored in children).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        first = mails = None
        while proc.poll() is None:
            big, declared, stored_mails, _ = counts(url, "bigfile")
            now = time.monotonic() - started
            if first is None and big:
                first, out["passages_declared"] = now, declared
            if mails is None and stored_mails == 3:
                mails = now
            if not args.finish and now >= args.run_s:
                break
            time.sleep(0.25)
        out["first_slice_s"] = round(first, 1) if first is not None else None
        out["small_mails_stored_s"] = round(mails, 1) if mails is not None else None
        elapsed = time.monotonic() - started
        big, declared, _, duplicates = counts(url, "bigfile")
        out["passages_committed"] = big
        out["passages_per_s"] = round(big / elapsed, 1)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            signalled = time.monotonic()
            proc.communicate(timeout=600)
            out["ctrl_c_stop_s"] = round(time.monotonic() - signalled, 2)
            out["exit_status"] = proc.returncode
            out["after_ctrl_c"] = counts(url, "bigfile")[0]
        else:
            proc.communicate()
            out["total_s"] = round(elapsed, 1)
            out["exit_status"] = proc.returncode
        out["duplicates"] = duplicates
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mb", type=float, default=30.0, help="size of the text file")
    parser.add_argument("--run-s", type=float, default=120.0, help="Ctrl-C after this long")
    parser.add_argument("--finish", action="store_true", help="let the run finish instead")
    parser.add_argument("--first-within", type=float, default=120.0)
    parser.add_argument("--stop-within", type=float, default=5.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = run(args)
    if args.json:
        print(json.dumps(out, indent=2))  # noqa: T201
    else:
        print("| measure | value |\n|---|---:|")  # noqa: T201
        for key, value in out.items():
            print(f"| {key} | {value} |")  # noqa: T201
    first, stop = out.get("first_slice_s"), out.get("ctrl_c_stop_s")
    failures = []
    if first is None or first > args.first_within:
        failures.append(f"first slice not committed within {args.first_within} s ({first})")
    if stop is not None and stop > args.stop_within:
        failures.append(f"Ctrl-C took {stop} s (bound {args.stop_within} s)")
    if out.get("duplicates"):
        failures.append(f"{out['duplicates']} duplicate passages")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)  # noqa: T201
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
