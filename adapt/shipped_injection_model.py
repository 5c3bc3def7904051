"""Fit the planted-instruction classifier shipped in ``text/data/injection_model.npz``.

Labelled texts: every attack and hard negative of sets A to H (``tests/data/injections*.jsonl``
named in :data:`SETS`, both halves: each held-back half was scored once and is development data
since; a set still being written is named nowhere here and never read), training-only
phrasings in ``adapt/data/injection_phrasings.jsonl`` (attacks and benign sentences in 30
languages, benign questions a user asks the assistant about itself), the off-topic training
questions (``adapt/data/off_topic_train.jsonl``), and texts generated from the concept lexicon in
all its languages (:mod:`adapt.injection_generator`; a generated text that shares five words in a
row with a set's text is dropped). Each text is read as the detector reads it
(:func:`text.injection_fold.model_text` of :func:`text.injection_fold.readable`), and so are its
decoded copies (base64, hex, percent-encoding ...), with the same label; an encoded text only by
its decoded copies.

Real archive text as further negatives (:mod:`adapt.injection_real`), read in the classifier's
windows and sentence by sentence: half of the usrp-users mails (chosen by ``trained_mail``, cut
into passages as ingest cuts them), NTSB narratives and probable causes from record 2,000 on
(the benchmark reads the first 2,000), IMO casualty summaries, TAIC reports and the NTSB final
reports. The benchmark reports its false positives on the mails trained on apart from the rest
(the other usrp-users half, notmuch mail, the example archive, the questions, the first 2,000
NTSB records: out of sample).

The model: L2-regularised logistic regression over hashed n-grams and concept features
(:mod:`text.injection_model`), fitted by full-batch Adam in numpy, attacks given 35 % of the
weight, hard negatives weighted up. Windows of fewer than four distinct words are neither read
nor learnt. The threshold and the support a cue of meaning needs (:func:`choose_cutoffs`) are
chosen on out-of-fold probabilities, one fold per set (:func:`fold_of`: each writer scored by a
model that never saw it, as the next writer will be): of the pairs that keep the hard
negatives the detector marks at most 3 % and the real windows flagged at most 1 in 10,000, the
one that recognises most attacks. How it generalises (leave one set, language family or attack
family out) is measured by :mod:`adapt.injection_validation`.

    python -m adapt.shipped_injection_model --real 30000          # leave one writer out
    python -m adapt.shipped_injection_model --real 30000 --write  # ... and ship

"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from adapt.injection_generator import generate, overlapping
from adapt.injection_matrix import Csr, matrix, probabilities, rows_of
from adapt.injection_real import real_windows
from text.injection import instructions_in, model_text, readable
from text.injection_decode import decoded_copies
from text.injection_model import (
    BITS,
    NO_SUPPORT,
    WEIGHTS,
    concept_size,
    readable_enough,
    save,
)

ROOT = Path(__file__).resolve().parents[1]
SETS = tuple(
    f"injections{suffix}.jsonl" for suffix in ("", "_b", "_c", "_d", "_e", "_f", "_g", "_h")
)
#: Sets whose ``held_back`` rows are a test not yet scored: only their ``dev`` rows are read.
#: None now: sets G and H were each scored once (68.0 %, 39.9 %) and both halves are development
#: data since. A set still being written is named nowhere here, so it is never read at all.
HELD_OUT_SETS: tuple[str, ...] = ()
GENERATED_WEIGHT = 0.5  # a generated text counts half a hand-written one
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
    language: str = "en"  # ISO 639-1 ("mixed" for several, "unknown" where a set did not say)
    family: str = ""  # the set's attack family, the generator's intent, "" for real text
    entry: str = ""  # the set entry (or generated text) a copy was read from


def set_rows(path: Path) -> Iterator[dict[str, object]]:
    """The rows of a set file that may be read: all of them, but only the ``dev`` rows of
    :data:`HELD_OUT_SETS` (their held-back rows are never parsed past the split)."""
    held_out = path.name in HELD_OUT_SETS
    for line in path.open(encoding="utf-8"):
        if not line.strip():
            continue
        entry = json.loads(line)
        if held_out and entry.get("split") != "dev":
            continue
        yield entry


def set_paths(without: frozenset[str] = frozenset()) -> list[Path]:
    """The set files read: A to H, the phrasings;
    none whose source name (``injections_e``) is in ``without``."""
    paths = [ROOT / "tests" / "data" / name for name in SETS]
    paths += [p for name in HELD_OUT_SETS if (p := ROOT / "tests" / "data" / name).is_file()]
    return [p for p in (*paths, EXTRA) if p.stem not in without]


def labelled(without: frozenset[str] = frozenset()) -> Iterator[Example]:
    """The attacks and hard negatives of the sets (:func:`set_paths`, none in ``without``),
    the off-topic questions, and their decoded copies."""
    for line in OFF_TOPIC.open(encoding="utf-8"):
        text = json.loads(line)["question"]
        key = f"off_topic:{text}"
        yield Example(model_text(text), 0, "hard", key, "off_topic", "en", "benign", key)
    for path in set_paths(without):
        name = path.name
        for entry in set_rows(path):
            benign = entry.get("label") == "benign"
            ident = str(entry["id"])
            group = f"{name}:{ident.rsplit('-', 1)[0]}"
            clean = readable(str(entry["text"]))
            copies = [readable(d) for _, _, d in decoded_copies(clean)]
            # An encoded text is learnt from what it decodes to: its letters are noise the
            # model must not learn ("CJARQ" is ROT13 for "PWNED").
            encoded = str(entry.get("disguise", "plain")).split("+")[0] in ENCODINGS
            language = str(entry.get("language") or ("unknown" if "language" in ident else "en"))
            family = "benign" if benign else str(entry.get("family") or "unknown")
            for text in copies if encoded else [clean, *copies]:
                if not readable_enough(model_text(text)):
                    continue
                yield Example(
                    model_text(text), 0 if benign else 1, "hard" if benign else "attack",
                    group, name.removesuffix(".jsonl"), language, family, f"{name}:{ident}",
                )  # fmt: skip


def generated(evaluation: list[str]) -> list[Example]:
    """The lexicon-generated texts that share no run of words with an ``evaluation`` text."""
    texts = generate()
    dropped = overlapping(texts, evaluation)
    out = []
    for i, g in enumerate(texts):
        normal = model_text(g.text)
        if i not in dropped and readable_enough(normal):
            out.append(Example(normal, g.label, "generated", f"gen:{g.language}:{i % 50}",
                               "generated", g.language, g.intent, f"gen:{i}"))  # fmt: skip
    return out


def training_set(data: Path, real_windows: int) -> list[Example]:
    """Everything the classifier learns from: :func:`labelled`, :func:`generated` and
    ``real_windows`` windows of real archive text."""
    sets = list(labelled())
    return sets + generated([e.text for e in sets]) + real(data, real_windows)


def real(data: Path, limit: int, seed: int = 7) -> list[Example]:
    """Up to ``limit`` windows of real archive text as negatives
    (:func:`adapt.injection_real.real_windows`)."""
    return [
        Example(text, 0, "real", f"{source}:{n}", source, "en", "", f"{source}:{n}")
        for n, (source, text) in enumerate(real_windows(data, limit, seed))
        if readable_enough(text)
    ]


def weights_of(examples: list[Example]) -> np.ndarray:
    """Class weights (:data:`ATTACK_SHARE`); a hard negative counts :data:`HARD_WEIGHT` real
    windows."""
    scale = {"hard": HARD_WEIGHT, "generated": GENERATED_WEIGHT}
    raw = np.array([scale.get(e.kind, 1.0) for e in examples])
    labels = np.array([e.label for e in examples])
    for label, share in ((0, 1 - ATTACK_SHARE), (1, ATTACK_SHARE)):
        raw[labels == label] *= share / raw[labels == label].sum()
    return raw


def fit(
    examples: list[Example],
    epochs: int = 250,
    l2: float = 1e-5,
    rate: float = 0.05,
    csr: Csr | None = None,
) -> tuple[np.ndarray, float]:
    """Weights and bias of the logistic regression, full-batch Adam (``csr``: the examples'
    :func:`matrix`, when it was built already)."""
    indptr, indices, values = matrix(examples) if csr is None else csr
    rows = np.repeat(np.arange(len(examples)), np.diff(indptr))
    y = np.array([e.label for e in examples], dtype=np.float64)
    sample = weights_of(examples)
    size = 2**BITS + concept_size()
    w = np.zeros(size)
    b = 0.0
    m, v = np.zeros(size + 1), np.zeros(size + 1)
    for t in range(1, epochs + 1):
        z = np.bincount(rows, weights=w[indices] * values, minlength=len(examples)) + b
        residual = sample * (1 / (1 + np.exp(-z)) - y)
        grad = np.empty(size + 1)
        grad[:-1] = np.bincount(indices, weights=values * residual[rows], minlength=size) + l2 * w
        grad[-1] = residual.sum()
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        step = rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        w -= step[:-1]
        b -= step[-1]
    return w, b


def fold_of(examples: list[Example], folds: int) -> np.ndarray:
    """Each example's fold. ``folds`` 0: by writer, one fold per set (a set's attacks and hard
    negatives, plain and decoded, all on one side), the generated, real and off-topic texts
    spread over those folds by a hash of their group; so each set is scored by a model that
    never saw its writer, as a new set will be. Otherwise ``folds`` folds by a hash of the
    group (the base phrasing)."""
    writers = sorted({e.source for e in examples if e.kind == "attack"})
    count = folds or len(writers)
    position = {source: i for i, source in enumerate(writers)}

    def of(e: Example) -> int:
        if not folds and e.kind in ("attack", "hard") and e.source in position:
            return position[e.source]
        return int(hashlib.sha256(e.group.encode()).hexdigest(), 16) % count

    return np.array([of(e) for e in examples])


def out_of_fold(
    examples: list[Example], folds: int = 0, epochs: int = 250, csr: Csr | None = None
) -> np.ndarray:
    """Each example's probability from the model fitted on the other folds (:func:`fold_of`:
    by writer when ``folds`` is 0); ``csr``: the examples' :func:`matrix`, built once."""
    fold = fold_of(examples, folds)
    csr = matrix(examples) if csr is None else csr
    found = np.zeros(len(examples))
    for k in sorted(set(fold.tolist())):
        train = [e for e, f in zip(examples, fold, strict=True) if f != k]
        w, b = fit(train, epochs=epochs, csr=rows_of(csr, fold != k))
        test = [e for e, f in zip(examples, fold, strict=True) if f == k]
        found[fold == k] = probabilities(test, w, b, csr=rows_of(csr, fold == k))
    return found


def phrasing_hits() -> dict[str, tuple[bool, bool]]:
    """For each set entry: whether the hand-written phrasings find it, and whether a cue of
    meaning does (which counts where the classifier supports it)."""
    found: dict[str, tuple[bool, bool]] = {}
    for path in set_paths():
        for entry in set_rows(path):
            names = instructions_in(str(entry["text"]), classifier=False)
            found[f"{path.name}:{entry['id']}"] = (
                any(not n.startswith("cue_") for n in names),
                any(n.startswith("cue_") for n in names),
            )
    return found


def by_entry(examples: list[Example], found: np.ndarray) -> dict[str, tuple[int, float]]:
    """Each labelled entry's label and highest probability over its readings."""
    best: dict[str, tuple[int, float]] = {}
    for e, p in zip(examples, found, strict=True):
        if e.kind in ("attack", "hard"):
            best[e.entry] = (e.label, max(float(p), best.get(e.entry, (0, 0.0))[1]))
    return best


def marked(
    best: dict[str, tuple[int, float]],
    hits: dict[str, tuple[bool, bool]],
    threshold: float,
    support: float,
) -> dict[str, bool]:
    """Whether the detector marks each entry: a named phrasing, a cue of meaning the classifier
    supports, or the classifier (whole texts, not windows)."""
    out = {}
    for entry, (_, p) in best.items():
        named, cue = hits.get(entry, (False, False))
        out[entry] = p >= threshold or named or (cue and p >= support)
    return out


def choose_cutoffs(
    examples: list[Example],
    found: np.ndarray,
    hits: dict[str, tuple[bool, bool]],
    max_real: float = MAX_REAL_RATE,
) -> tuple[float, float]:
    """The threshold and the cue support: of the pairs whose out-of-fold rates keep the hard
    negatives the detector marks at most :data:`MAX_HARD_RATE` and the real windows flagged at
    most ``max_real``, the one that recognises most attacks (the lower threshold, then
    the higher support, on a tie)."""
    real_p = np.array([p for e, p in zip(examples, found, strict=True) if e.kind == "real"])
    best = by_entry(examples, found)
    attacks = [k for k, (label, _) in best.items() if label == 1]
    hard = [k for k, (label, _) in best.items() if label == 0]
    chosen: tuple[float, float, float] = (-1.0, 0.995, NO_SUPPORT)
    for threshold in np.round(np.arange(0.30, 0.995, 0.01), 2):
        if (real_p >= threshold).mean() > max_real:
            continue
        for support in (NO_SUPPORT, *np.round(np.arange(0.1, threshold, 0.1), 1)[::-1]):
            flags = marked(best, hits, float(threshold), float(support))
            if np.mean([flags[k] for k in hard]) > MAX_HARD_RATE:
                continue
            recall = float(np.mean([flags[k] for k in attacks]))
            if recall > chosen[0] + 1e-9:
                chosen = (recall, float(threshold), float(support))
    return chosen[1], chosen[2]


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


def per_set(
    examples: list[Example],
    found: np.ndarray,
    hits: dict[str, tuple[bool, bool]],
    threshold: float,
    support: float,
) -> dict[str, str]:
    """For each set, out of fold: attacks the detector marks and hard negatives it flags (with
    :func:`fold_of` by writer, each set as a writer the model never saw)."""
    best = by_entry(examples, found)
    flags = marked(best, hits, threshold, support)
    source = {e.entry: e.source for e in examples if e.kind in ("attack", "hard")}
    out: dict[str, str] = {}
    for name in sorted(set(source.values())):
        for label, what in ((1, "attacks marked"), (0, "hard negatives flagged")):
            mine = [flags[k] for k, (lab, _) in best.items() if lab == label and source[k] == name]
            if mine:
                out[f"{name} {what}"] = f"{sum(mine)}/{len(mine)} = {sum(mine) / len(mine):.1%}"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--real", type=int, default=30000, help="real archive windows used")
    parser.add_argument(
        "--folds", type=int, default=0, help="0: one fold per set (by writer); N: N folds by base"
    )
    parser.add_argument("--write", action="store_true", help=f"ship the model to {WEIGHTS}")
    parser.add_argument("--oof", type=Path, help="save the out-of-fold probabilities (.npy)")
    args = parser.parse_args()
    examples = training_set(args.data, args.real)
    csr = matrix(examples)
    found = out_of_fold(examples, args.folds, csr=csr)
    if args.oof:
        np.save(args.oof, found)
    hits = phrasing_hits()
    threshold, support = choose_cutoffs(examples, found, hits)
    flags = marked(by_entry(examples, found), hits, threshold, support)
    summary = report(examples, found, threshold)
    summary["support"] = support
    summary.update(per_set(examples, found, hits, threshold, support))
    for label, name in ((1, "attacks"), (0, "hard negatives")):
        mine = [flags[k] for k, (lab, _) in by_entry(examples, found).items() if lab == label]
        summary[f"detector, {name} marked"] = f"{sum(mine)}/{len(mine)}"
    print(json.dumps(summary, indent=1))  # noqa: T201
    if args.write:
        w, b = fit(examples, csr=csr)
        WEIGHTS.parent.mkdir(exist_ok=True)
        save(WEIGHTS, w, b, threshold, support)
        print(f"wrote {WEIGHTS} ({WEIGHTS.stat().st_size} bytes)")  # noqa: T201


if __name__ == "__main__":
    main()
