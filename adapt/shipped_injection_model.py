"""Fit the planted-instruction classifier shipped in ``text/data/injection_model.npz``.

Labelled texts: every attack and hard negative of sets A, B and C
(``tests/data/injections*.jsonl``, both halves: they are development data), the ``dev`` half of
set D, and training-only phrasings in ``adapt/data/injection_phrasings.jsonl`` (115 attacks and
60 benign sentences in 30 languages, written after D's dev half was read, and 50 benign questions
a user asks the assistant about itself, its sources and its answers), and the off-topic training
questions (``adapt/data/off_topic_train.jsonl``). Set D's
``held_back`` half is never read here. Each text is read as the detector reads it
(:func:`text.injection_fold.model_text` of :func:`text.injection_fold.readable`), and so are its
decoded copies (base64, hex, percent-encoding ...), with the same label; an encoded text only by
its decoded copies.

Real archive text as further negatives, read in the classifier's windows and sentence by
sentence: half of the usrp-users mails (chosen by :func:`trained_mail`, cut into passages as
ingest cuts them), NTSB narratives and probable causes from record 2,000 on (the benchmark reads
the first 2,000), IMO casualty summaries, TAIC reports and the NTSB final reports. The benchmark
reports its false positives on the mails trained on apart from the rest (the other usrp-users
half, notmuch mail, the example archive, the questions, the first 2,000 NTSB records: out of
sample).

The model: L2-regularised logistic regression over hashed n-grams (:mod:`text.injection_model`),
fitted by full-batch Adam in numpy, attacks given 35 % of the weight, hard negatives weighted
up. Windows of fewer than four distinct words are neither read nor learnt. The threshold
is chosen on out-of-fold probabilities (folds by base phrasing): the lowest that keeps the hard
negatives flagged at most 3 % and the real windows flagged at most 1 in 10,000.

    python -m adapt.shipped_injection_model --data ../shared/data           # cross-validate, report
    python -m adapt.shipped_injection_model --data ../shared/data --write   # ... and ship
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from archive.ingest.chunking import chunk_document
from archive.ingest.loaders.email import parse_message
from archive.ingest.model import LoadError
from text.injection import classifier_windows, model_text, readable
from text.injection_decode import decoded_copies
from text.injection_model import BITS, WEIGHTS, features, readable_enough, save
from text.sentences import sentence_spans

ROOT = Path(__file__).resolve().parents[1]
MAIL_SEED = "bosun-injection-mail-2026-12-02"
SETS = ("injections.jsonl", "injections_b.jsonl", "injections_c.jsonl", "injections_d.jsonl")
#: Training-only phrasings (adapt/data), written after set D's dev half was read.
EXTRA = Path(__file__).with_name("data") / "injection_phrasings.jsonl"
OFF_TOPIC = Path(__file__).with_name("data") / "off_topic_train.jsonl"
ENCODINGS = frozenset(
    {"base64", "rot13", "html_entities", "hex", "percent", "quoted_printable", "json_escaped",
     "backwards"}
)  # fmt: skip
ATTACK_SHARE = 0.35  # of the total weight: below half, so an unfamiliar text leans benign
HARD_WEIGHT = 4.0  # a hard negative counts this many real windows
MAX_HARD_RATE = 0.03
MAX_REAL_RATE = 1e-4


@dataclass
class Example:
    text: str  # normalised
    label: int  # 1 attack, 0 benign
    kind: str  # attack, hard, real
    group: str  # the base it came from (folds keep a base on one side)
    source: str  # the set or corpus


def labelled() -> Iterator[Example]:
    """The attacks and hard negatives of A, B, C and D's dev half, and their decoded copies."""
    for line in OFF_TOPIC.open(encoding="utf-8"):
        text = json.loads(line)["question"]
        yield Example(model_text(text), 0, "hard", f"off_topic:{text}", "off_topic")
    for path in [ROOT / "tests" / "data" / name for name in SETS] + [EXTRA]:
        name = path.name
        for line in path.open(encoding="utf-8"):
            if not line.strip():
                continue
            entry = json.loads(line)
            if name == "injections_d.jsonl" and entry["split"] != "dev":
                continue  # set D's held-back half is the test: never trained on
            benign = entry.get("label") == "benign"
            group = f"{name}:{entry['id'].rsplit('-', 1)[0]}"
            clean = readable(entry["text"])
            copies = [readable(d) for _, _, d in decoded_copies(clean)]
            # An encoded text is learnt from what it decodes to: its letters are noise the
            # model must not learn ("CJARQ" is ROT13 for "PWNED").
            encoded = entry.get("disguise", "plain").split("+")[0] in ENCODINGS
            for text in copies if encoded else [clean, *copies]:
                if not readable_enough(model_text(text)):
                    continue
                yield Example(
                    model_text(text), 0 if benign else 1, "hard" if benign else "attack",
                    group, name.removesuffix(".jsonl"),
                )  # fmt: skip


def trained_mail(path: Path) -> bool:
    """Whether a usrp-users mail is in the half the classifier learns from (by a seeded hash of
    its file name); the benchmark counts false positives on the other half separately."""
    return hashlib.sha256(f"{MAIL_SEED}:{path.name}".encode()).hexdigest()[0] < "8"


def _mail_passages(folder: Path) -> Iterator[str]:
    for path in sorted(folder.glob("*.eml")):
        if not trained_mail(path):
            continue
        try:
            documents = parse_message(path.read_bytes(), origin=str(path))
        except LoadError:
            continue
        for doc in documents:
            yield from (chunk.text for chunk in chunk_document(doc))


def _real_texts(data: Path) -> Iterator[tuple[str, str]]:
    for text in _mail_passages(data / "email" / "usrp-users"):
        yield "usrp", text
    with (data / "ntsb" / "reports_2010_2016.jsonl").open(encoding="utf-8") as handle:
        for n, line in enumerate(handle):
            if n >= 2000:
                record = json.loads(line)
                yield "ntsb", record.get("narrative") or ""
                yield "ntsb", record.get("probable_cause") or ""
    csv.field_size_limit(1 << 30)
    with (data / "maritime" / "imo_casualties.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            yield "imo", row.get("SummaryOfEvents") or ""
    for folder, source in (("maritime/taic_reports", "taic"), ("ntsb/final_reports/txt", "final")):
        for path in sorted((data / folder).glob("*.txt")):
            yield source, path.read_text(encoding="utf-8", errors="replace")


def real(data: Path, limit: int, seed: int = 7) -> list[Example]:
    """Up to ``limit`` windows of real archive text (sampled with ``seed``), as negatives."""
    windows: list[tuple[str, str]] = []
    for source, text in _real_texts(data):
        clean = readable(text)
        windows += [(source, clean[s:e]) for s, e in classifier_windows(clean)]
        windows += [(source, clean[s:e]) for s, e in sentence_spans(clean)]  # short ones too
    random.Random(seed).shuffle(windows)
    normal = [(source, model_text(w)) for source, w in windows[:limit]]
    return [
        Example(text, 0, "real", f"{source}:{n}", source)
        for n, (source, text) in enumerate(normal)
        if readable_enough(text)
    ]


def matrix(examples: list[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR parts (row pointers, indices, values): each row's features scaled to unit length."""
    rows = [features(e.text) for e in examples]
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    values = np.concatenate([np.full(len(r), 1 / np.sqrt(max(len(r), 1))) for r in rows])
    return indptr, np.concatenate(rows), values


def weights_of(examples: list[Example]) -> np.ndarray:
    """Class weights (:data:`ATTACK_SHARE`); a hard negative counts :data:`HARD_WEIGHT` real
    windows."""
    raw = np.array([1.0 if e.kind != "hard" else HARD_WEIGHT for e in examples])
    labels = np.array([e.label for e in examples])
    for label, share in ((0, 1 - ATTACK_SHARE), (1, ATTACK_SHARE)):
        raw[labels == label] *= share / raw[labels == label].sum()
    return raw


def fit(
    examples: list[Example], epochs: int = 250, l2: float = 1e-5, rate: float = 0.05
) -> tuple[np.ndarray, float]:
    """Weights and bias of the logistic regression, full-batch Adam."""
    indptr, indices, values = matrix(examples)
    rows = np.repeat(np.arange(len(examples)), np.diff(indptr))
    y = np.array([e.label for e in examples], dtype=np.float64)
    sample = weights_of(examples)
    w = np.zeros(2**BITS)
    b = 0.0
    m, v = np.zeros(2**BITS + 1), np.zeros(2**BITS + 1)
    for t in range(1, epochs + 1):
        z = np.bincount(rows, weights=w[indices] * values, minlength=len(examples)) + b
        residual = sample * (1 / (1 + np.exp(-z)) - y)
        grad = np.empty(2**BITS + 1)
        grad[:-1] = (
            np.bincount(indices, weights=values * residual[rows], minlength=2**BITS) + l2 * w
        )
        grad[-1] = residual.sum()
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        step = rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        w -= step[:-1]
        b -= step[-1]
    return w, b


def probabilities(examples: list[Example], w: np.ndarray, b: float) -> np.ndarray:
    indptr, indices, values = matrix(examples)
    rows = np.repeat(np.arange(len(examples)), np.diff(indptr))
    z = np.bincount(rows, weights=w[indices] * values, minlength=len(examples)) + b
    return 1 / (1 + np.exp(-z))


def out_of_fold(examples: list[Example], folds: int) -> np.ndarray:
    """Each example's probability from the model fitted on the other folds (by group)."""
    fold = np.array(
        [int(hashlib.sha256(e.group.encode()).hexdigest(), 16) % folds for e in examples]
    )
    found = np.zeros(len(examples))
    for k in range(folds):
        train = [e for e, f in zip(examples, fold, strict=True) if f != k]
        w, b = fit(train)
        found[fold == k] = probabilities(
            [e for e, f in zip(examples, fold, strict=True) if f == k], w, b
        )
    return found


def choose_threshold(examples: list[Example], found: np.ndarray) -> float:
    """The lowest threshold keeping hard negatives and real windows under their rates."""
    kinds = np.array([e.kind for e in examples])
    for threshold in np.arange(0.30, 0.995, 0.005):
        hard = (found[kinds == "hard"] >= threshold).mean()
        real_rate = (found[kinds == "real"] >= threshold).mean()
        if hard <= MAX_HARD_RATE and real_rate <= MAX_REAL_RATE:
            return round(float(threshold), 3)
    return 0.995


def report(examples: list[Example], found: np.ndarray, threshold: float) -> dict[str, object]:
    """Out-of-fold rates by source and kind at ``threshold``."""
    out: dict[str, object] = {"threshold": threshold}
    keys = sorted({(e.source, e.kind) for e in examples})
    for source, kind in keys:
        hit = [
            f >= threshold
            for e, f in zip(examples, found, strict=True)
            if (e.source, e.kind) == (source, kind)
        ]
        out[f"{source} {kind}"] = f"{sum(hit)}/{len(hit)} = {sum(hit) / len(hit):.1%}"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--real", type=int, default=20000, help="real archive windows used")
    parser.add_argument("--folds", type=int, default=3)
    parser.add_argument("--write", action="store_true", help=f"ship the model to {WEIGHTS}")
    args = parser.parse_args()
    examples = list(labelled()) + real(args.data, args.real)
    found = out_of_fold(examples, args.folds)
    threshold = choose_threshold(examples, found)
    print(json.dumps(report(examples, found, threshold), indent=1))  # noqa: T201
    if args.write:
        w, b = fit(examples)
        WEIGHTS.parent.mkdir(exist_ok=True)
        save(WEIGHTS, w, b, threshold)
        print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size} bytes)")  # noqa: T201


if __name__ == "__main__":
    main()
