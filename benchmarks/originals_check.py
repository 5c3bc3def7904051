"""What the originals store costs: uploads at ingest and the citation check of one answer, for
the local folder and for object storage (moto's S3 emulator on 127.0.0.1, through boto3).

    python benchmarks/originals_check.py [--objects 200] [--repeats 20] [--json]

The emulator is a Python process on the same machine: its figures show what the concurrent,
bounded HEADs save against one-at-a-time checks, not what AWS, MinIO or Ceph would answer in
(their round trips are network-bound, which concurrency helps more).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from archive.originals import LocalOriginals, Originals, open_originals
from archive.originals.s3 import S3Originals
from tests.s3_server import CREDENTIALS, s3_server

SIZES = (5, 20, 100)  # citations checked by one answer


def _ms(seconds: float) -> float:
    return round(seconds * 1000.0, 2)


def _puts(store: Originals, blobs: list[bytes]) -> tuple[list[str], float, float]:
    """Archive paths, ms per first put, ms per repeated put (already stored)."""
    start = time.perf_counter()
    paths = [store.put("email", f"{i:012x}", f"m{i}.eml", b) for i, b in enumerate(blobs)]
    first = (time.perf_counter() - start) / len(blobs)
    start = time.perf_counter()
    for i, b in enumerate(blobs):
        store.put("email", f"{i:012x}", f"m{i}.eml", b)
    again = (time.perf_counter() - start) / len(blobs)
    return paths, first, again


async def _checks(store: Originals, paths: list[str], size: int, repeats: int) -> float:
    """Median ms of one ``all_exist`` over ``size`` paths."""
    times = []
    for r in range(repeats):
        chosen = [paths[(r * size + i) % len(paths)] for i in range(size)]
        start = time.perf_counter()
        assert all(await store.all_exist(chosen))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def measure(objects: int, repeats: int) -> list[dict[str, Any]]:
    blobs = [os.urandom(20_000) for _ in range(objects)]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        local = LocalOriginals(Path(tmp) / "archive")
        paths, first, again = _puts(local, blobs)
        row: dict[str, Any] = {"store": "local folder", "put_ms": _ms(first)}
        row["reput_ms"] = _ms(again)
        for size in SIZES:
            row[f"check_{size}_ms"] = _ms(await _checks(local, paths, size, repeats))
        rows.append(row)
        os.environ.update(CREDENTIALS)
        with s3_server(Path(tmp) / "moto.log") as server:
            for concurrency in (1, 16):
                s3 = open_originals(
                    server.url(f"bench-{concurrency}"), Path(tmp), endpoint_url=server.endpoint
                )
                assert isinstance(s3, S3Originals)
                if concurrency == 1:  # the same store, one HEAD at a time
                    s3.close()
                    s3 = S3Originals(s3.where, s3.client, concurrency=1)
                paths, first, again = _puts(s3, blobs)
                row = {
                    "store": f"S3 emulator, {concurrency} at once",
                    "put_ms": _ms(first),
                    "reput_ms": _ms(again),
                }
                for size in SIZES:
                    row[f"check_{size}_ms"] = _ms(await _checks(s3, paths, size, repeats))
                rows.append(row)
                s3.close()
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    head = ["store", "put ms", "re-put ms", *(f"check {n} ms" for n in SIZES)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["store"], r["put_ms"], r["reput_ms"], *(r[f"check_{n}_ms"] for n in SIZES)]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=200, help="originals of 20 kB each")
    parser.add_argument("--repeats", type=int, default=20, help="checks timed per size")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = asyncio.run(measure(args.objects, args.repeats))
    if args.json:
        json.dump({"objects": args.objects, "repeats": args.repeats, "rows": rows}, sys.stdout)
        sys.stdout.write("\n")
    else:
        print(table(rows))
        print("put: ms per original (first time / already stored); check: median ms of one")
        print("answer's citation check over that many originals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
