"""The planted-instruction detector's trained reading: a logistic regression over hashed character
and word n-grams of the detector's normalised text (look-alikes folded, spacing read through,
lower case; :func:`text.injection.model_text`) and over the injection concepts it names and which
of them occur together (:mod:`text.injection_concepts`: a multilingual lexicon of intents, so a
wording or language the training held little of is read by what it asks). It reads what the
hand-written cues of :mod:`text.injection_cues` did not foresee.

The weights ship in ``text/data/injection_model.npz`` (fitted by ``python -m
adapt.shipped_injection_model``); numpy only, no torch, nothing downloaded. A missing or corrupt
weights file raises :class:`InjectionModelError` when the model is first used, never a silent
"no instruction found"."""

from __future__ import annotations

import functools
import re
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from text.injection_concepts import LexiconError, concept_features, feature_names

#: Where the shipped weights live (package data).
WEIGHTS = Path(__file__).with_name("data") / "injection_model.npz"
#: Hashed feature space: 2**BITS weights.
BITS = 18
#: Cues of meaning never count alone when the model's support is this (see ``support``).
NO_SUPPORT = 1.01
FORMAT = 2  # bumped when the features change; a file of another format is refused
#: The value of a concept feature (an n-gram's is 1/sqrt(distinct n-grams), a text's n-grams
#: together of unit length).
CONCEPT_SCALE = 0.5
_CHAR_NS = (2, 3, 4, 5)
_WORD = re.compile(r"\w+")
_PRIME = np.uint64(1_000_003)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SHIFT = np.uint64(64 - BITS)
_SALT = {name: np.uint64(zlib.crc32(name.encode())) for name in ("c2", "c3", "c4", "c5", "w", "ww")}


#: Fewer distinct words than this (a CJK or Thai character counts as a word) and a text is not read:
#: a greeting or a word repeated says too little for n-grams to tell.
MIN_WORDS = 4
# a character of a script written without spaces counts as a word (CJK, kana, Thai, Lao,
# Myanmar, Khmer), a run of other letters as one
_UNSPACED = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff"
_UNIT = re.compile(f"[{_UNSPACED}]|[^\\W{_UNSPACED}]+")


def readable_enough(normal: str) -> bool:
    """Whether the classifier reads ``normal`` at all (see :data:`MIN_WORDS`)."""
    return len(set(_UNIT.findall(normal))) >= MIN_WORDS


class InjectionModelError(RuntimeError):
    """The weights file is missing, unreadable or not a model of this format."""


def _index(hashes: np.ndarray, salt: np.uint64) -> np.ndarray:
    with np.errstate(over="ignore"):
        return ((hashes + salt) * _MIX) >> _SHIFT


def features(normal: str) -> np.ndarray:
    """The distinct hashed feature indices of one normalised text: character 2- to 5-grams
    (word boundaries marked by spaces) and word 1- and 2-grams."""
    padded = " " + " ".join(normal.split()) + " "
    codes = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    parts = []
    with np.errstate(over="ignore"):
        for n in _CHAR_NS:
            if len(codes) < n:
                continue
            h = np.zeros(len(codes) - n + 1, dtype=np.uint64)
            for k in range(n):
                h = h * _PRIME + codes[k : len(codes) - n + 1 + k]
            parts.append(_index(h, _SALT[f"c{n}"]))
        words = np.array([zlib.crc32(w.encode()) for w in _WORD.findall(normal)], dtype=np.uint64)
        if len(words):
            parts.append(_index(words, _SALT["w"]))
            parts.append(_index(words[:-1] * _PRIME + words[1:], _SALT["ww"]))
    if not parts:
        return np.zeros(0, dtype=np.int64)
    return np.unique(np.concatenate(parts)).astype(np.int64)


def concept_size() -> int:
    """How many concept features follow the ``2**BITS`` hashed n-gram weights."""
    return len(feature_names())


def vector(normal: str) -> tuple[np.ndarray, np.ndarray]:
    """One normalised text as the model reads it: feature indices (hashed n-grams, then the
    concept features from ``2**BITS`` on) and their values."""
    grams = features(normal)
    concepts = np.asarray(concept_features(normal), dtype=np.int64) + 2**BITS
    scale = 1 / np.sqrt(max(len(grams), 1))
    values = np.concatenate([np.full(len(grams), scale), np.full(len(concepts), CONCEPT_SCALE)])
    return np.concatenate([grams, concepts]), values


@dataclass(frozen=True)
class InjectionModel:
    """Weights, bias, the probability from which a text is flagged, and the probability a window
    around a cue of meaning must reach for the cue to count (both chosen out of fold by
    :mod:`adapt.shipped_injection_model`)."""

    weights: np.ndarray  # float32: 2**BITS hashed n-grams, then the concept features
    bias: float
    threshold: float
    support: float = NO_SUPPORT

    def probabilities(self, normals: Sequence[str]) -> np.ndarray:
        """The probability that each normalised text holds a planted instruction."""
        out = np.empty(len(normals), dtype=np.float64)
        for i, normal in enumerate(normals):
            idx, values = vector(normal)
            z = self.bias + float(self.weights[idx] @ values)
            out[i] = 1.0 / (1.0 + np.exp(-z))
        return out

    def flags(self, normals: Sequence[str]) -> list[bool]:
        """Whether each normalised text reaches the threshold."""
        return [bool(p >= self.threshold) for p in self.probabilities(normals)]


def save(
    path: Path, weights: np.ndarray, bias: float, threshold: float, support: float = NO_SUPPORT
) -> None:
    """Write a model file :func:`load` reads (weights stored as float16, compressed)."""
    np.savez_compressed(
        path,
        format=np.array(FORMAT),
        bits=np.array(BITS),
        weights=weights.astype(np.float16),
        concepts=np.array(feature_names()),
        bias=np.array(bias),
        threshold=np.array(threshold),
        support=np.array(support),
    )


def load(path: Path = WEIGHTS) -> InjectionModel:
    """The model stored at ``path``; :class:`InjectionModelError` naming the file and what is
    wrong when it is missing, corrupt or of another format."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            fmt, bits = int(stored["format"]), int(stored["bits"])
            weights = stored["weights"].astype(np.float32)
            bias, threshold = float(stored["bias"]), float(stored["threshold"])
            concepts = tuple(str(c) for c in stored["concepts"]) if fmt == FORMAT else ()
            support = float(stored["support"]) if fmt == FORMAT else NO_SUPPORT
        size = 2**BITS + concept_size()
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, LexiconError) as err:
        raise InjectionModelError(f"injection model {path} cannot be read: {err}") from err
    if fmt != FORMAT or bits != BITS or weights.shape != (size,):
        raise InjectionModelError(
            f"injection model {path} is format {fmt} with {weights.shape} weights;"
            f" this detector reads format {FORMAT} with {size}"
        )
    if concepts != feature_names():
        raise InjectionModelError(
            f"injection model {path} was fitted on other concept features than the lexicon's"
            " (refit it: python -m adapt.shipped_injection_model --write)"
        )
    if not np.isfinite(weights).all() or not 0.0 < threshold < 1.0 or not support > 0.0:
        raise InjectionModelError(f"injection model {path} holds invalid weights or threshold")
    return InjectionModel(weights, bias, threshold, support)


@functools.cache
def shipped() -> InjectionModel:
    """The model shipped with the package, read once."""
    return load(WEIGHTS)
