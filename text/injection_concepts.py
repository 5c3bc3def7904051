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
# A word of a spaced script starts and ends where no letter of a spaced script (Latin, Greek,
# Cyrillic, Armenian) stands beside it: "AIへ" names the AI.
_SPACED_LETTER = r"[0-9a-z_\u00c0-\u058f]"
_WORD_START = rf"(?<!{_SPACED_LETTER})"
_WORD_END = rf"(?!{_SPACED_LETTER})"
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


def _trie_pattern(stems: dict[str, bool]) -> str:
    """One regular expression matching any of ``stems`` (longest first; a stem marked True
    only where a word ends), built as a trie so each position is tried once per letter."""
    trie: dict[str, dict] = {}
    for stem, exact in stems.items():
        node = trie
        for ch in stem:
            node = node.setdefault(ch, {})
        node[""] = {"exact": exact and node.get("", {}).get("exact", True)}

    def emit(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            branches.append(_WORD_END if node[""]["exact"] else "")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return emit(trie)


@functools.cache
def _matchers() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, frozenset[str]]]:
    """The word-start and anywhere-in-a-word matchers and each normalised stem's concepts."""
    concepts_of: dict[str, set[str]] = {}
    spaced: dict[str, bool] = {}
    unspaced: dict[str, bool] = {}
    for concept, languages in read_lexicon().items():
        if concept in _NOT_CONCEPTS:
            continue
        for language, stem in ((lang, st) for lang, sts in languages.items() for st in sts):
            normal, exact = normal_stem(stem)
            if len(normal) < 2:
                continue
            # a short stem of another Latin-script language is a whole word or nothing: as a
            # prefix it starts English words and code ("len", "cache", "sha")
            exact = exact or (language != "en" and normal.isascii() and len(normal) < _SHORT)
            concepts_of.setdefault(normal, set()).add(concept)
            target = unspaced if _UNSPACED.search(normal) else spaced
            target[normal] = target.get(normal, True) and exact
    # a lookahead, so a stem inside a longer one is found too ("只回答": only, answer)
    words = re.compile(_WORD_START + "(?=(" + _trie_pattern(spaced) + "))")
    anywhere = re.compile("(?=(" + _trie_pattern(unspaced) + "))")
    return words, anywhere, {k: frozenset(v) for k, v in concepts_of.items()}


@functools.cache
def concept_names() -> tuple[str, ...]:
    """The concepts, in a fixed order (the lexicon's, then :data:`ADDRESS`)."""
    return (*(c for c in read_lexicon() if c not in _NOT_CONCEPTS), ADDRESS)


def concepts_in(normal: str) -> set[str]:
    """The concepts named in a normalised text (:func:`text.injection_fold.model_text`)."""
    words, anywhere, concepts_of = _matchers()
    found: set[str] = set()
    for m in words.finditer(normal):
        found |= concepts_of[m.group(1)]
    if _UNSPACED.search(normal):
        for m in anywhere.finditer(normal):
            found |= concepts_of[m.group(1)]
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
