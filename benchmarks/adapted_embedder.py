"""The cost of an adapted embedder (`bosun adapt`) against the stock one, at query and ingest time.

Loads the stock int8 MiniLM and the adapted ONNX file a collection records (its sha256 checked),
embeds the same real NTSB narratives (ingest: passages/s through ``embed_documents``) and
probable-cause sentences (query: ms per ``embed_query``), and prints one table::

    BOSUN_HOME=... python benchmarks/adapted_embedder.py --collection eval_ntsb_pc2narr
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import Table, emit  # noqa: E402

from agent.settings import Settings  # noqa: E402
from agent.wiring import collection_embeddings  # noqa: E402
from providers.minilm import MiniLMEmbeddings  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "beir" / "ntsb_pc2narr"


def measure(model: MiniLMEmbeddings, passages: list[str], queries: list[str]) -> dict[str, float]:
    started = time.perf_counter()
    model.embed_query("warm up")
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    model.embed_documents(passages)
    per_s = len(passages) / (time.perf_counter() - started)
    times = []
    for query in queries:
        started = time.perf_counter()
        model.embed_query(query)
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return {
        "load_s": load_s,
        "passages_per_s": per_s,
        "query_p50_ms": statistics.median(times),
        "query_p95_ms": times[int(0.95 * (len(times) - 1))],
    }


async def adapted(collection: str) -> MiniLMEmbeddings:
    model = await collection_embeddings(Settings.from_env(), collection)
    if not isinstance(model, MiniLMEmbeddings) or model.model_id.endswith("-int8"):
        raise SystemExit(f"collection {collection} has no adapted model: run bosun adapt first")
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--collection", required=True)
    parser.add_argument("--passages", type=int, default=200)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    with (DATA / "corpus.jsonl").open(encoding="utf-8") as fh:
        passages = [json.loads(line)["text"] for line in islice(fh, args.passages)]
    with (DATA / "queries.dev.jsonl").open(encoding="utf-8") as fh:
        queries = [json.loads(line)["text"] for line in islice(fh, args.queries)]
    models = {"stock": MiniLMEmbeddings(), "adapted": asyncio.run(adapted(args.collection))}
    rows = []
    for name, model in models.items():
        m = measure(model, passages, queries)
        rows.append(
            [
                f"{name} ({model.model_id})",
                round(m["load_s"], 2),
                round(m["passages_per_s"], 1),
                round(m["query_p50_ms"], 1),
                round(m["query_p95_ms"], 1),
            ]
        )
    columns = ["model", "load s", "passages/s", "query p50 ms", "query p95 ms"]
    command = (
        f"python benchmarks/adapted_embedder.py --collection {args.collection} "
        f"--passages {args.passages} --queries {args.queries} --json"
    )
    emit(command, [Table("models", columns, rows)], as_json=args.json)


if __name__ == "__main__":
    main()
