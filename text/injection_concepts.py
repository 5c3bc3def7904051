"""What a text is about, as the planted-instruction classifier reads it: the *concepts* of an
injection (an order to drop the model's rules, the earlier rules themselves, the hidden prompt, a
request to reveal it, a persona, a dictated answer, data sent somewhere ...) found by a
hand-written multilingual lexicon (``text/data/injection_lexicon.txt``, 37 languages), whatever
the wording. The classifier (:mod:`text.injection_model`) learns from which concepts occur
together, so a phrasing it never saw, in a language its training held little of, is still read
by its intent.

The lexicon's stems are normalised as :func:`text.injection_fold.model_text` normalises a text
(accents and look-alikes folded, lower case) and matched on that normalised text: at the start of
a word, or anywhere in a word in scripts that write particles onto words or do not space them.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path
from typing import Any

from text.injection_fold import model_text

LEXICON = Path(__file__).with_name("data") / "injection_lexicon.txt"
#: A concept found by its form, not a word: a URL, a mail address or a domain name.
ADDRESS = "address"
_ADDRESS = re.compile(
    r"https?:|\bwww\.|[\w.+-]+@[\w-]+\.[a-z]{2,}|\b[\w-]+\.(?:com|net|org|io|xyz|ru|cn|biz|info"
    r"|top|site|online|example)\b|\bwebhook|\bendpoint"
)
#: Scripts whose stems match anywhere in a word (CJK, kana, hangul, Thai, Devanagari, Bengali,
#: Arabic, Persian, Hebrew).
_UNSPACED = re.compile(
    r"[\u0590-\u06ff\u0900-\u09ff\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)
_NOT_CONCEPTS = frozenset({"filler"})
_SHORT = 5  # letters: a shorter stem of another Latin-script language matches whole words only
#: Distinct concepts in a window from which a count feature is set ("at least N").
COUNTS = (2, 3, 4, 5)


class LexiconError(RuntimeError):
    """The lexicon file is missing or malformed."""


def read_lexicon(path: Path = LEXICON) -> dict[str, dict[str, list[str]]]:
    """``{concept: {language: [stems as written]}}`` from the lexicon file; ``[filler]`` too."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise LexiconError(f"concept lexicon {path} cannot be read: {err}") from err
    lexicon: dict[str, dict[str, list[str]]] = {}
    concept = None
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            concept = line[1:-1]
            lexicon[concept] = {}
            continue
        language, sep, stems = line.partition(":")
        if concept is None or not sep or not language.isalpha():
            raise LexiconError(f"concept lexicon {path} line {number} is not 'lang: stems'")
        words = [s.strip() for s in stems.split(",") if s.strip()]
        lexicon[concept].setdefault(language.strip(), []).extend(words)
    return lexicon


def normal_stem(stem: str) -> tuple[str, bool]:
    """A lexicon stem as matched: normalised like the text, and whether it must end a word."""
    exact = stem.endswith("=")
    return model_text(stem.rstrip("=")), exact


class StemTable:
    """Normalised stems bucketed by their first two characters; a bucket becomes a trie of
    plain dictionaries (one character a level, the key ``""`` where a stem ends holding its
    concepts and whether it must end a word) the first time a text reads it. Nothing is
    compiled: building all buckets takes milliseconds, and a text builds only the few its
    words start with."""

    def __init__(self) -> None:
        self._merged: dict[str, tuple[frozenset[str], bool]] = {}
        self._waiting: dict[str, list[str]] = {}
        self._tries: dict[str, dict[str, Any]] = {}

    def add(self, stem: str, concepts: frozenset[str], exact: bool) -> None:
        known, known_exact = self._merged.get(stem, (_NONE, True))
        # a stem listed twice (two languages, two concepts) must end a word only if both say so
        self._merged[stem] = (known | concepts, known_exact and exact)
        self._waiting.setdefault(stem[:2], []).append(stem)

    def _trie(self, key: str) -> dict[str, Any] | None:
        trie = self._tries.get(key)
        if trie is None and key in self._waiting:
            trie = {}
            for stem in self._waiting.pop(key):
                node = trie
                for ch in stem[2:]:
                    node = node.setdefault(ch, {})
                node[""] = self._merged[stem]
            self._tries[key] = trie
        return trie

    def longest(self, text: str, start: int) -> frozenset[str]:
        """The concepts of the longest stem at ``start`` of ``text`` (a stem that must end a
        word, only where a word ends there); none when no stem starts there."""
        node = self._trie(text[start : start + 2])
        found = _NONE
        at = start + 2
        while node is not None:
            end = node.get("")
            if end is not None and not (end[1] and spaced_letter(text, at)):
                found = end[0]
            if at >= len(text):
                break
            node = node.get(text[at])
            at += 1
        return found


_NONE: frozenset[str] = frozenset()


def spaced_letter(text: str, at: int) -> bool:
    """Whether ``text[at]`` is a letter or digit of a spaced script (0-9, a-z, _, U+00C0 to
    U+058F: Latin, Greek, Cyrillic, Armenian): a word starts where none stands before it and,
    for a stem that must, ends where none follows it ("AIへ" names the AI)."""
    if not 0 <= at < len(text):
        return False
    ch = text[at]
    if ch.isascii():
        return "a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"
    return "\u00c0" <= ch <= "\u058f"


# Where a stem of a spaced script may start: a letter, "." or "-" after no spaced letter.
_WORD_START = re.compile(r"(?<![0-9a-z_\u00c0-\u058f])(?:[^\W\d_]|[.-])")
# What makes model_text do more than lower-case an ASCII stem and single its spaces: a leet
# digit or sign, a hyphen at a line end, single letters spaced apart.
_NEEDS_MODEL_TEXT = re.compile(r"[0-9@$]|-\n|(?<![^\W_])[^\W\d_][ .*_\-·|/][^\W\d_](?![^\W_])")


def _normal(stem: str) -> tuple[str, bool]:
    """:func:`normal_stem`, without calling ``model_text`` for a plain ASCII stem."""
    if stem.isascii() and not _NEEDS_MODEL_TEXT.search(stem):
        return " ".join(stem.rstrip("=").lower().split()), stem.endswith("=")
    return normal_stem(stem)


def stem_tables(path: Path = LEXICON) -> tuple[StemTable, StemTable]:
    """The stems of spaced scripts (matched where a word starts) and of scripts written without
    spaces (matched anywhere), read from the lexicon at ``path``."""
    spaced, unspaced = StemTable(), StemTable()
    for concept, languages in read_lexicon(path).items():
        if concept in _NOT_CONCEPTS:
            continue
        one = frozenset((concept,))
        for language, stem in ((lang, st) for lang, sts in languages.items() for st in sts):
            normal, exact = _normal(stem)
            if len(normal) < 2:
                continue
            # a short stem of another Latin-script language is a whole word or nothing: as a
            # prefix it starts English words and code ("len", "cache", "sha")
            exact = exact or (language != "en" and normal.isascii() and len(normal) < _SHORT)
            if _UNSPACED.search(normal):
                unspaced.add(normal, one, exact)
            elif _WORD_START.match(normal):
                spaced.add(normal, one, exact)
            else:
                raise LexiconError(f"concept lexicon stem {stem!r} starts with no letter")
    return spaced, unspaced


@functools.cache
def concept_names() -> tuple[str, ...]:
    """The concepts, in a fixed order (the lexicon's, then :data:`ADDRESS`)."""
    return (*(c for c in read_lexicon() if c not in _NOT_CONCEPTS), ADDRESS)


@functools.cache
def _tables() -> tuple[StemTable, StemTable]:
    """The shipped lexicon's :func:`stem_tables`, read once, on first use."""
    return stem_tables()


def concepts_in(normal: str) -> set[str]:
    """The concepts named in a normalised text (:func:`text.injection_fold.model_text`): at each
    position where a word starts, those of the longest stem found there ("system prompt" is the
    prompt, not the system too); in scripts written without spaces, at every position, so a stem
    inside a longer one is found too ("只回答": only, answer)."""
    spaced, unspaced = _tables()
    found: set[str] = set()
    for m in _WORD_START.finditer(normal):
        found |= spaced.longest(normal, m.start())
    if _UNSPACED.search(normal):
        for at in range(len(normal)):
            found |= unspaced.longest(normal, at)
    if _ADDRESS.search(normal):
        found.add(ADDRESS)
    return found


@functools.cache
def feature_names() -> tuple[str, ...]:
    """The concept features, in the order the model stores their weights: each concept, each
    pair of concepts found together, and "at least N concepts" for N in :data:`COUNTS`."""
    names = concept_names()
    pairs = [f"{a}+{b}" for a, b in itertools.combinations(names, 2)]
    return (*names, *pairs, *(f">={n}" for n in COUNTS))


@functools.cache
def _positions() -> dict[str, int]:
    return {name: i for i, name in enumerate(feature_names())}


def concept_features(normal: str) -> list[int]:
    """Indices (into :func:`feature_names`) of the concept features of a normalised text."""
    found = sorted(concepts_in(normal))
    if not found:
        return []
    at = _positions()
    out = [at[c] for c in found]
    out += [at[f"{a}+{b}"] for a, b in itertools.combinations(sorted(found, key=_order), 2)]
    out += [at[f">={n}"] for n in COUNTS if len(found) >= n]
    return out


def _order(concept: str) -> int:
    return concept_names().index(concept)
