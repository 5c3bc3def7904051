"""HNSW settings on a scale collection: recall against an exact scan, latency, filtered queries.

    python benchmarks/scale_hnsw.py --chunks 100000 [--ef 40,100,200,400] [--builds 16:64,24:100]

Reads the collection ``scale_<N>`` that benchmarks/scale.py built and its cached query vectors
(the 24-word questions). For each ``hnsw.ef_search``: recall@10 and @100 of the index against
a sequential scan, and p50/p95 ms of ``ORDER BY embedding <=> q LIMIT k``. Then a vessel filter
matching 0.1 % of rows (one of 1,000 vessels), k = 10, under each ``hnsw.iterative_scan``
(off, relaxed_order, strict_order): rows returned, recall@10 against the exact filtered scan, ms.
``--builds m:ef_construction,...`` rebuilds the index with each pair (build seconds, size,
recall@10 at ef_search 100) and restores the first pair at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from scale_build import vessel_docs

from agent.evaluation.metrics import percentile
from agent.settings import Settings


def nearest(conn: psycopg.Connection, v: np.ndarray, k: int, where: str = "TRUE") -> list[str]:
    rows = conn.execute(
        f"SELECT chunk_id FROM chunks WHERE {where} ORDER BY embedding <=> %s LIMIT %s",  # noqa: S608
        (v, k),
    ).fetchall()
    return [r[0] for r in rows]


def exact(conn: psycopg.Connection, v: np.ndarray, k: int, where: str = "TRUE") -> set[str]:
    with conn.transaction():
        conn.execute("SET LOCAL enable_indexscan = off")
        return set(nearest(conn, v, k, where))


def timed(conn: psycopg.Connection, vectors: list[np.ndarray], k: int, where: str = "TRUE"):
    out, ms = [], []
    for v in vectors:
        started = time.perf_counter()
        out.append(nearest(conn, v, k, where))
        ms.append((time.perf_counter() - started) * 1000)
    return out, ms


def recall(got: list[list[str]], truth: list[set[str]]) -> float:
    return float(
        np.mean([len(set(g) & t) / max(1, len(t)) for g, t in zip(got, truth, strict=True)])
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, required=True)
    parser.add_argument("--ef", default="40,100,200,400")
    parser.add_argument("--builds", default="")
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--no-sweep", action="store_true", help="only the filtered queries")
    parser.add_argument("--no-filtered", action="store_true", help="no filtered queries")
    parser.add_argument(
        "--maintenance-mem", default="1GB", help="maintenance_work_mem of --builds (4GB at 1M)"
    )
    args = parser.parse_args()
    settings = Settings.from_env()
    cache = settings.home / "bench" / "scale_queries.json"
    known = json.loads(cache.read_text())
    texts = [t for t in known if len(t.split()) >= 24][: args.queries]
    vectors = [np.asarray(known[t], dtype=np.float32) for t in texts]
    result: dict = {"chunks": args.chunks, "load_avg_1m": [round(os.getloadavg()[0], 2)]}
    with psycopg.connect(settings.database_uri(), autocommit=True) as conn:
        register_vector(conn)
        conn.execute(f"SET search_path TO scale_{int(args.chunks)}, public")
        truth10 = [exact(conn, v, 10) for v in vectors]
        truth100 = [exact(conn, v, 100) for v in vectors]
        conn.execute("SET hnsw.iterative_scan = off")
        sweep = []
        for ef in (int(x) for x in args.ef.split(",") if not args.no_sweep):
            conn.execute(f"SET hnsw.ef_search = {ef}")
            timed(conn, vectors[:5], 10)
            got10, ms = timed(conn, vectors, 10)
            got100, ms100 = timed(conn, vectors, 100)
            sweep.append(
                {
                    "ef_search": ef,
                    "recall_at_10": round(recall(got10, truth10), 4),
                    "recall_at_100": round(recall(got100, truth100), 4),
                    "p50_ms_k10": round(percentile(ms, 50), 2),
                    "p95_ms_k10": round(percentile(ms, 95), 2),
                    "p50_ms_k100": round(percentile(ms100, 50), 2),
                }
            )
            print(json.dumps(sweep[-1]), file=sys.stderr)
        result["ef_search"] = sweep
        filtered = []
        kinds = {
            # what the product sends for a vessel (its documents): the planner may use chunks_doc
            "doc_ids": lambda i: (
                "doc_id IN (" + ",".join(f"'{d}'" for d in vessel_docs(args.chunks, i % 1000)) + ")"
            ),
            # a column without a plain index: the planner still prefers a scan and a sort
            "vessel_name": lambda i: f"vessel_name = 'VESSEL {i % 1000}'",
            # the same, sequential scans off: HNSW with a filter, where the iterative scan counts
            "vessel_name_hnsw_forced": lambda i: f"vessel_name = 'VESSEL {i % 1000}'",
        }
        for kind, where_of in ({} if args.no_filtered else kinds).items():
            wheres = [where_of(i) for i in range(len(vectors))]
            truth = [exact(conn, v, 10, w) for v, w in zip(vectors, wheres, strict=True)]
            conn.execute(f"SET enable_seqscan = {'off' if kind.endswith('forced') else 'on'}")
            plan = conn.execute(
                f"EXPLAIN SELECT chunk_id FROM chunks WHERE {wheres[0]}"  # noqa: S608
                " ORDER BY embedding <=> %s LIMIT 10",
                (vectors[0],),
            ).fetchall()
            uses_hnsw = any("chunks_embedding_hnsw" in r[0] for r in plan)
            for mode in ("off", "relaxed_order", "strict_order"):
                for ef in (40, 100):
                    conn.execute(f"SET hnsw.iterative_scan = {mode}")
                    conn.execute(f"SET hnsw.ef_search = {ef}")
                    got, ms = [], []
                    for v, w in zip(vectors, wheres, strict=True):
                        g, m = timed(conn, [v], 10, w)
                        got += g
                        ms += m
                    filtered.append(
                        {
                            "filter": kind,
                            "plan_uses_hnsw": uses_hnsw,
                            "iterative_scan": mode,
                            "ef_search": ef,
                            "rows_min": min(len(g) for g in got),
                            "rows_mean": float(np.mean([len(g) for g in got])),
                            "recall_at_10": round(recall(got, truth), 4),
                            "p50_ms": round(percentile(ms, 50), 2),
                            "p95_ms": round(percentile(ms, 95), 2),
                        }
                    )
                    print(json.dumps(filtered[-1]), file=sys.stderr)
        result["filtered_0.1pct"] = filtered
        builds = []
        pairs = [tuple(int(x) for x in p.split(":")) for p in args.builds.split(",") if p]
        conn.execute("SET hnsw.iterative_scan = off")
        conn.execute("SET hnsw.ef_search = 100")
        conn.execute(f"SET maintenance_work_mem = '{args.maintenance_mem}'")
        for m, efc in pairs:
            conn.execute("DROP INDEX IF EXISTS chunks_embedding_hnsw")
            started = time.perf_counter()
            conn.execute(
                "CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding"
                f" vector_cosine_ops) WITH (m = {m}, ef_construction = {efc})"
            )
            seconds = time.perf_counter() - started
            size = conn.execute(
                "SELECT pg_relation_size('chunks_embedding_hnsw') / 1048576.0"
            ).fetchone()[0]  # type: ignore[index]
            got10, ms = timed(conn, vectors, 10)
            built = {
                "m": m,
                "ef_construction": efc,
                "build_s": round(seconds, 1),
                "size_mb": round(float(size), 1),
                "recall_at_10_ef100": round(recall(got10, truth10), 4),
                "p50_ms_k10": round(percentile(ms, 50), 2),
            }
            for ef in (100, 400):
                conn.execute(f"SET hnsw.ef_search = {ef}")
                got100, ms100 = timed(conn, vectors, 100)
                built[f"recall_at_100_ef{ef}"] = round(recall(got100, truth100), 4)
                built[f"p50_ms_k100_ef{ef}"] = round(percentile(ms100, 50), 2)
            conn.execute("SET hnsw.ef_search = 100")
            builds.append(built)
            print(json.dumps(builds[-1]), file=sys.stderr)
        if len(pairs) > 1:
            m, efc = pairs[0]
            conn.execute("DROP INDEX chunks_embedding_hnsw")
            conn.execute(
                "CREATE INDEX chunks_embedding_hnsw ON chunks USING hnsw (embedding"
                f" vector_cosine_ops) WITH (m = {m}, ef_construction = {efc})"
            )
        result["builds"] = builds
    result["load_avg_1m"].append(round(os.getloadavg()[0], 2))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
