"""Key words of the concept lexicon read through one typo: a word of at least :data:`MIN_LETTERS`
letters whose start is one letter dropped, added, changed or two swapped away from an English
stem of that length ("citatoin", "confidetial", "instrcutions") names the stem's concept, as a
misspelt order is still an order. A stem matched only as a whole word (``=``) is not read
through typos (a plural of "system" is not the system prompt), and the first two letters and
the last letter of the stem must stand as written (a typo there turns one common word into
another: "police", "course")."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

#: Neither a stem nor a word shorter than this is read through a typo.
MIN_LETTERS = 6
_WORD = re.compile(rf"(?<![^\W\d_])[^\W\d_]{{{MIN_LETTERS},}}")

# deletion of one letter (and where) -> (stem, position); the stem itself at position -1
_Index = dict[str, list[tuple[str, int]]]


def _deletions(word: str) -> Iterable[tuple[str, int]]:
    return ((word[:i] + word[i + 1 :], i) for i in range(len(word)))


class TypoIndex:
    """The one-letter deletions of single-word stems (symmetric-delete lookup)."""

    def __init__(self, stems: dict[str, frozenset[str]]) -> None:
        self._of = stems
        self._index: _Index = {}
        self._longest = max((len(s) for s in stems), default=0)
        # a word recurs in every window that holds it: read each once
        self.concepts = functools.lru_cache(maxsize=1 << 16)(self._concepts)
        for stem in stems:
            self._index.setdefault(stem, []).append((stem, -1))
            for deleted, at in _deletions(stem):
                self._index.setdefault(deleted, []).append((stem, at))

    def _concepts(self, word: str) -> frozenset[str]:
        """The concepts of the stems one edit from a start of ``word`` (a stem that starts it as
        written is an exact match, read elsewhere)."""
        found: set[str] = set()
        for size in range(MIN_LETTERS, min(len(word), self._longest + 1) + 1):
            found |= self._near(word[:size])
        return frozenset(found)

    def _near(self, prefix: str) -> set[str]:
        # (stem, where the stem lost a letter, where the prefix did)
        candidates = [(s, at, at) for s, at in self._index.get(prefix, ()) if at >= 0]  # dropped
        for deleted, mine in _deletions(prefix):
            for stem, at in self._index.get(deleted, ()):
                if at < 0:  # a letter added
                    candidates.append((stem, mine, mine))
                elif len(stem) == len(prefix) and abs(at - mine) <= 1:  # changed or swapped
                    candidates.append((stem, at, mine))
        found: set[str] = set()
        for stem, at, mine in candidates:
            if stem == prefix[: len(stem)]:
                continue
            if min(at, mine) >= 2 and prefix[:2] == stem[:2] and prefix[-1] == stem[-1]:
                found |= self._of[stem]
        return found


def typo_concepts(normal: str, index: TypoIndex, matched: Iterable[int]) -> set[str]:
    """The concepts of the words of ``normal`` read through one typo, skipping the words that
    start at a position in ``matched`` (a stem was found there as written)."""
    skip = set(matched)
    found: set[str] = set()
    for m in _WORD.finditer(normal):
        if m.start() not in skip:
            found |= index.concepts(m.group(0))
    return found


@functools.cache
def single_word(stems: tuple[tuple[str, frozenset[str]], ...]) -> TypoIndex:
    """A :class:`TypoIndex` of the stems (normalised, with their concepts) that are one word of
    at least :data:`MIN_LETTERS` letters."""
    kept: dict[str, frozenset[str]] = {}
    for stem, concepts in stems:
        if len(stem) >= MIN_LETTERS and re.fullmatch(r"[^\W\d_]+", stem):
            kept[stem] = kept.get(stem, frozenset()) | concepts
    return TypoIndex(kept)
