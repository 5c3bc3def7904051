"""Does a sentence embedding carry the planted-instruction detector to a writer it never saw?

An experiment, not the shipped detector: each blind writer's set (E, F, G, H) is left out in turn;
the n-gram classifier (:mod:`adapt.shipped_injection_model`, 80 epochs) and a logistic regression
over the all-MiniLM-L6-v2 embedding the product already ships (:mod:`providers.minilm`, whole
normalised texts) are fitted on every other set, the generated texts and 3/4 of the real windows.
The threshold and cue support of each scorer are chosen as the trainer chooses them
(:func:`adapt.shipped_injection_model.choose_cutoffs`: hard negatives marked at most 3 %, real
windows at most 1 in 10,000) on out-of-fold probabilities of the *training* writers only (one
fold per writer, :func:`adapt.shipped_injection_model.fold_of`), then applied to the left-out
writer and to the real windows left out of the fit. Scorers: ``ngram`` (as shipped; also at the
shipped cutoffs), ``embedding`` alone, and the two joined: ``mean`` and ``max`` of the
probabilities, ``logit`` (the mean of their log-odds). "detector" adds the hand-written phrasings
and the cues each scorer supports, as :func:`adapt.shipped_injection_model.marked` does.

The last table is the cost per text, on one process: the detector as shipped
(:func:`text.injection.instructions_in`) and one MiniLM embedding, on the same real windows.

``python benchmarks/injection_embedding.py [--json] [--data ../shared/data] [--real 3000]``
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render import Table, emit  # noqa: E402

from adapt.injection_matrix import Csr, matrix, rows_of  # noqa: E402
from adapt.shipped_injection_model import (  # noqa: E402
    Example,
    by_entry,
    choose_cutoffs,
    fit,
    fold_of,
    generated,
    labelled,
    marked,
    phrasing_hits,
    probabilities,
    real,
    weights_of,
)
from providers.minilm import MiniLMEmbeddings  # noqa: E402
from text.injection import instructions_in  # noqa: E402
from text.injection_model import NO_SUPPORT, shipped  # noqa: E402

WRITERS = ("injections_e", "injections_f", "injections_g", "injections_h")
EPOCHS = 80  # per n-gram fit, as the benchmark's --cv
Scores = tuple[np.ndarray, np.ndarray]  # (n-gram, embedding) probabilities


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return np.asarray(np.log(p / (1 - p)))


#: How the two probabilities make one.
SCORERS: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "ngram": lambda n, e: n,
    "embedding": lambda n, e: e,
    "mean": lambda n, e: (n + e) / 2,
    "max": np.maximum,
    "logit": lambda n, e: 1 / (1 + np.exp(-(_logit(n) + _logit(e)) / 2)),
}


def fit_dense(
    x: np.ndarray, examples: list[Example], epochs: int = 300, l2: float = 1e-4, rate: float = 0.05
) -> tuple[np.ndarray, float]:
    """Logistic regression on dense rows ``x``, weighted as the n-gram classifier's
    (:func:`adapt.shipped_injection_model.weights_of`), full-batch Adam."""
    y = np.array([e.label for e in examples], dtype=np.float64)
    sample = weights_of(examples)
    w, b = np.zeros(x.shape[1]), 0.0
    m, v = np.zeros(x.shape[1] + 1), np.zeros(x.shape[1] + 1)
    for t in range(1, epochs + 1):
        residual = sample * (1 / (1 + np.exp(-(x @ w + b))) - y)
        grad = np.append(x.T @ residual + l2 * w, residual.sum())
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        step = rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        w -= step[:-1]
        b -= float(step[-1])
    return w, b


def scores(
    examples: list[Example], x: np.ndarray, csr: Csr, train: np.ndarray, test: np.ndarray
) -> Scores:
    """Both classifiers fitted on the ``train`` rows, their probabilities on the ``test`` rows
    (boolean masks over ``examples``)."""
    chosen = [e for e, t in zip(examples, train, strict=True) if t]
    scored = [e for e, t in zip(examples, test, strict=True) if t]
    w, b = fit(chosen, epochs=EPOCHS, csr=rows_of(csr, train))
    ngram = np.asarray(probabilities(scored, w, b, csr=rows_of(csr, test)))
    we, be = fit_dense(x[train], chosen)
    return ngram, 1 / (1 + np.exp(-(x[test] @ we + be)))


def quarter(e: Example) -> int:
    """Which of four parts of the real windows a window falls in (by a hash of its group)."""
    return int(hashlib.sha256(e.group.encode()).hexdigest(), 16) % 4


def leave_writer_out(
    examples: list[Example], x: np.ndarray, csr: Csr, writer: str, part: int
) -> tuple[np.ndarray, Scores, np.ndarray, Scores]:
    """The training rows, their out-of-fold probabilities (one fold per training writer), the
    scored rows (``writer``'s texts and real part ``part``) and their probabilities."""
    left = np.array(
        [e.source == writer or (e.kind == "real" and quarter(e) == part) for e in examples]
    )
    train = np.flatnonzero(~left)
    fold = fold_of([examples[i] for i in train], 0)
    inner_n, inner_e = np.zeros(len(train)), np.zeros(len(train))
    for k in sorted(set(fold.tolist())):
        fit_rows, oof_rows = np.zeros(len(examples), bool), np.zeros(len(examples), bool)
        fit_rows[train[fold != k]] = True
        oof_rows[train[fold == k]] = True
        inner_n[fold == k], inner_e[fold == k] = scores(examples, x, csr, fit_rows, oof_rows)
    return train, (inner_n, inner_e), np.flatnonzero(left), scores(examples, x, csr, ~left, left)


def rows_for(
    examples: list[Example],
    hits: dict[str, tuple[bool, bool]],
    found: tuple[np.ndarray, Scores, np.ndarray, Scores],
    writer: str,
) -> list[list[object]]:
    """One row per scorer (and the n-gram one at the shipped cutoffs) for one left-out writer."""
    train, inner, test, outer = found
    trained = [examples[i] for i in train]
    scored = [examples[i] for i in test]
    is_real = np.array([e.kind == "real" for e in scored])
    labelled_rows = [e for e in scored if e.kind != "real"]
    model = shipped()
    rows = []
    for name, join in SCORERS.items():
        p = join(*outer)
        cutoffs = [("chosen", choose_cutoffs(trained, join(*inner), hits))]
        if name == "ngram":
            cutoffs.append(("shipped", (model.threshold, model.support)))
        for how, (threshold, support) in cutoffs:
            best = by_entry(labelled_rows, p[~is_real])
            flags = marked(best, hits, threshold, support)
            attacks = [k for k, (label, _) in best.items() if label == 1]
            hard = [k for k, (label, _) in best.items() if label == 0]
            rows.append([
                writer.removeprefix("injections_").upper(), name, how,
                f"{threshold:.2f} / {support:.1f}", len(attacks),
                _pct(sum(best[k][1] >= threshold for k in attacks), len(attacks)),
                _pct(sum(flags[k] for k in attacks), len(attacks)), len(hard),
                _pct(sum(flags[k] for k in hard), len(hard)),
                f"{int((p[is_real] >= threshold).sum())} of {int(is_real.sum())}",
            ])  # fmt: skip
    return rows


def _pct(hit: int, n: int) -> str:
    return f"{hit / n:.1%}" if n else "—"


def totals(rows: list[list[object]]) -> list[list[object]]:
    """The writers' rows summed per scorer and cutoffs."""
    out: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        acc = out.setdefault((str(r[1]), str(r[2])), [0, 0, 0, 0, 0, 0])
        n, hard = int(str(r[4])), int(str(r[7]))
        acc[0] += n
        acc[1] += n * float(str(r[6]).rstrip("%")) / 100
        acc[2] += hard
        acc[3] += hard * float(str(r[8]).rstrip("%")) / 100
        real_hit, real_n = str(r[9]).split(" of ")
        acc[4] += int(real_hit)
        acc[5] += int(real_n)
    return [
        ["E-H", name, how, "", int(a[0]), "", _pct(round(a[1]), int(a[0])), int(a[2]),
         _pct(round(a[3]), int(a[2])), f"{int(a[4])} of {int(a[5])}"]
        for (name, how), a in out.items()
    ]  # fmt: skip


#: Limits on real windows flagged to choose cutoffs under: the trainer's (1 in 10,000: none of the
#: ~2,000 windows out of fold here), 1 in 1,000, and none (the hard negatives alone).
REAL_LIMITS = (1e-4, 1e-3, 1.0)


def real_limits(
    examples: list[Example],
    hits: dict[str, tuple[bool, bool]],
    found: list[tuple[np.ndarray, Scores, np.ndarray, Scores]],
) -> list[list[object]]:
    """E-H pooled, for the n-gram and the ``logit`` scorers, with cutoffs chosen on the training
    writers under each of :data:`REAL_LIMITS`: which limit binds."""
    rows: list[list[object]] = []
    for limit in REAL_LIMITS:
        for name in ("ngram", "logit"):
            join = SCORERS[name]
            counts = np.zeros(5)
            for train, inner, test, outer in found:
                trained = [examples[i] for i in train]
                cut = choose_cutoffs(trained, join(*inner), hits, max_real=limit)
                scored = [examples[i] for i in test]
                is_real = np.array([e.kind == "real" for e in scored])
                p = join(*outer)
                best = by_entry([e for e in scored if e.kind != "real"], p[~is_real])
                flags = marked(best, hits, *cut)
                for label, at in ((1, 0), (0, 2)):
                    keys = [k for k, (lab, _) in best.items() if lab == label]
                    counts[at : at + 2] += (sum(flags[k] for k in keys), len(keys))
                counts[4] += int((p[is_real] >= cut[0]).sum())
            rows.append([
                "none" if limit >= 1 else f"1 in {round(1 / limit):,}", name,
                _pct(int(counts[0]), int(counts[1])), _pct(int(counts[2]), int(counts[3])),
                int(counts[4]),
            ])  # fmt: skip
    return rows


HARD_RATES = (0.02, 0.03, 0.04, 0.05, 0.06, 0.08)


def frontier(
    examples: list[Example],
    hits: dict[str, tuple[bool, bool]],
    found: list[tuple[np.ndarray, Scores, np.ndarray, Scores]],
) -> list[list[object]]:
    """Per scorer, the most of E-H's attacks (left out, pooled) any one threshold and support
    recognises while marking at most each of :data:`HARD_RATES` of their hard negatives: read
    off the left-out writers themselves, so a bound on what cutoffs could reach, not a cutoff."""
    rows: list[list[object]] = []
    for name, join in SCORERS.items():
        best: dict[str, tuple[int, float]] = {}
        for _, _, test, outer in found:
            scored = [examples[i] for i in test]
            keep = np.array([e.kind != "real" for e in scored])
            best.update(by_entry([e for e in scored if e.kind != "real"], join(*outer)[keep]))
        attacks = [k for k, (label, _) in best.items() if label == 1]
        hard = [k for k, (label, _) in best.items() if label == 0]
        points: list[tuple[float, float]] = []
        for threshold in np.round(np.arange(0.30, 0.996, 0.01), 2):
            for support in (NO_SUPPORT, *np.round(np.arange(0.1, threshold, 0.1), 1)):
                flags = marked(best, hits, float(threshold), float(support))
                hard_rate = float(np.mean([flags[k] for k in hard]))
                points.append((hard_rate, float(np.mean([flags[k] for k in attacks]))))
        reach = [max([a for h, a in points if h <= cap] or [0.0]) for cap in HARD_RATES]
        rows.append([name, *(_pct(round(1000 * a), 1000) for a in reach)])
    return rows


def cost(embedder: MiniLMEmbeddings, texts: list[str]) -> list[list[object]]:
    """Milliseconds per text: the detector as shipped, one MiniLM embedding (one text a call,
    as a question is read)."""
    instructions_in(texts[0])
    embedder.embed_documents(texts[:1])
    rows = []
    for name, run in (
        ("detector as shipped", lambda t: instructions_in(t)),
        ("MiniLM embedding", lambda t: embedder.embed_documents([t])),
    ):
        start = time.process_time()
        for text in texts:
            run(text)
        rows.append([name, len(texts), f"{1000 * (time.process_time() - start) / len(texts):.2f}"])
    return rows


COLUMNS = [
    "left out", "scorer", "cutoffs", "threshold / support", "attacks", "classifier", "detector",
    "hard negatives", "flagged", "real windows flagged",
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--real", type=int, default=3000, help="real archive windows")
    parser.add_argument("--cache", type=Path, help="embeddings saved here (.npy) and reused")
    args = parser.parse_args()
    sets = list(labelled())
    examples = sets + generated([e.text for e in sets]) + real(args.data, args.real)
    embedder = MiniLMEmbeddings(threads=1)
    if args.cache and args.cache.is_file():
        x = np.load(args.cache).astype(np.float64)
    else:
        x = np.asarray(embedder.embed_documents([e.text for e in examples]), dtype=np.float64)
        if args.cache:
            np.save(args.cache, x.astype(np.float32))
    if len(x) != len(examples):
        raise SystemExit(f"{args.cache} holds {len(x)} embeddings for {len(examples)} texts")
    hits, csr = phrasing_hits(), matrix(examples)
    found = [leave_writer_out(examples, x, csr, w, part) for part, w in enumerate(WRITERS)]
    rows = [r for f, w in zip(found, WRITERS, strict=True) for r in rows_for(examples, hits, f, w)]
    windows = [e.text for e in examples if e.kind == "real"][:300]
    emit(
        f"python benchmarks/injection_embedding.py --json --real {args.real}",
        [
            Table("writers", COLUMNS, rows + totals(rows)),
            Table(
                "frontier",
                ["scorer", *(f"hard negatives <= {c:.0%}" for c in HARD_RATES)],
                frontier(examples, hits, found),
            ),
            Table(
                "real_limit",
                [
                    "real windows limit",
                    "scorer",
                    "recognised",
                    "hard negatives flagged",
                    "real windows flagged",
                ],
                real_limits(examples, hits, found),
            ),  # fmt: skip
            Table("cost", ["reading", "texts", "ms per text (CPU)"], cost(embedder, windows)),
        ],
        as_json=args.json,
    )


if __name__ == "__main__":
    main()
