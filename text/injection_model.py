"""The planted-instruction detector's trained reading: a logistic regression over hashed character
and word n-grams of the detector's normalised text (look-alikes folded, spacing read through,
lower case; :func:`text.injection.model_text`). It reads what the hand-written cues of
:mod:`text.injection_cues` did not foresee: other wordings, framings and languages.

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

#: Where the shipped weights live (package data).
WEIGHTS = Path(__file__).with_name("data") / "injection_model.npz"
#: Hashed feature space: 2**BITS weights.
BITS = 18
#: The probability a window around a cue of meaning must reach for the cue to count: chosen on
#: set D's dev half with a model fitted without set D (hard negatives marked 13.9 % -> 10.3 %,
#: attacks recognised unchanged).
SUPPORT = 0.1
FORMAT = 1  # bumped when the features change; a file of another format is refused
_CHAR_NS = (2, 3, 4, 5)
_WORD = re.compile(r"\w+")
_PRIME = np.uint64(1_000_003)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SHIFT = np.uint64(64 - BITS)
_SALT = {name: np.uint64(zlib.crc32(name.encode())) for name in ("c2", "c3", "c4", "c5", "w", "ww")}


#: Fewer distinct words than this (a CJK character counts as a word) and a text is not read:
#: a greeting or a word repeated says too little for n-grams to tell.
MIN_WORDS = 4
_UNIT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]|[^\W\u3040-\u30ff\u3400-\u9fff]+")


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


@dataclass(frozen=True)
class InjectionModel:
    """Weights, bias and the probability from which a text is flagged."""

    weights: np.ndarray  # float32, 2**BITS
    bias: float
    threshold: float

    def probabilities(self, normals: Sequence[str]) -> np.ndarray:
        """The probability that each normalised text holds a planted instruction."""
        out = np.empty(len(normals), dtype=np.float64)
        for i, normal in enumerate(normals):
            idx = features(normal)
            z = self.bias + (float(self.weights[idx].sum()) / np.sqrt(len(idx)) if len(idx) else 0)
            out[i] = 1.0 / (1.0 + np.exp(-z))
        return out

    def flags(self, normals: Sequence[str]) -> list[bool]:
        """Whether each normalised text reaches the threshold."""
        return [bool(p >= self.threshold) for p in self.probabilities(normals)]


def save(path: Path, weights: np.ndarray, bias: float, threshold: float) -> None:
    """Write a model file :func:`load` reads (weights stored as float16, compressed)."""
    np.savez_compressed(
        path,
        format=np.array(FORMAT),
        bits=np.array(BITS),
        weights=weights.astype(np.float16),
        bias=np.array(bias),
        threshold=np.array(threshold),
    )


def load(path: Path = WEIGHTS) -> InjectionModel:
    """The model stored at ``path``; :class:`InjectionModelError` naming the file and what is
    wrong when it is missing, corrupt or of another format."""
    try:
        with np.load(path, allow_pickle=False) as stored:
            fmt, bits = int(stored["format"]), int(stored["bits"])
            weights = stored["weights"].astype(np.float32)
            bias, threshold = float(stored["bias"]), float(stored["threshold"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:
        raise InjectionModelError(f"injection model {path} cannot be read: {err}") from err
    if fmt != FORMAT or bits != BITS or weights.shape != (2**BITS,):
        raise InjectionModelError(
            f"injection model {path} is format {fmt} with {weights.shape} weights;"
            f" this detector reads format {FORMAT} with {2**BITS}"
        )
    if not np.isfinite(weights).all() or not 0.0 < threshold < 1.0:
        raise InjectionModelError(f"injection model {path} holds invalid weights or threshold")
    return InjectionModel(weights, bias, threshold)


@functools.cache
def shipped() -> InjectionModel:
    """The model shipped with the package, read once."""
    return load(WEIGHTS)
