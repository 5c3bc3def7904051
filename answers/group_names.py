"""Names of the groups of a mailing list's statements, as the list writes them.

A list's replies name things as terms ("DRAM", "OctoClock", ``benchmark_rate``): a single word
names a group only as such a term (:func:`term_stems`), and a group is named as its statements
write the name (:func:`as_written`: "RT_RUNTIME_SHARE", not "Rt runtime share"). Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from answers.pattern_groups import OTHER, Statement
from text.words import stem

#: A word (with the identifiers a list writes: "benchmark_rate", "recv_buff_size", "X310").
_WRITTEN = re.compile(r"[A-Za-z][A-Za-z0-9_.'’-]*[A-Za-z0-9]|[A-Za-z]")
#: Share of its uses a word must be written as a term in to be one.
TERM_SHARE = 0.5


def term_stems(texts: Iterable[str]) -> set[str]:
    """Stems the statements write as technical terms in at least :data:`TERM_SHARE` of their
    uses: capitalised past a sentence's first word or inside ("DRAM", "OctoClock", "Linux"),
    or part of an identifier ("benchmark" of ``benchmark_rate``, "x310"). A single word names
    a group of a list's statements only as such a term: "Loaded", "Close", "Decided" say
    nothing alone; "DRAM", "GPSDO" and "benchmark_rate" name a thing."""
    uses: Counter[str] = Counter()
    named: Counter[str] = Counter()
    for text in texts:
        for at, match in enumerate(_WRITTEN.finditer(text)):
            word = match[0]
            term = (
                any(ch.isupper() for ch in word[1:])
                or (at > 0 and word[0].isupper())
                or any(ch in word for ch in "_0123456789")
            )
            for part in re.split(r"[_.'’-]+", word):
                part = part.lstrip("0123456789")  # "10MHz": the unit
                if part.isalpha():
                    key = stem(part.lower())
                    uses[key] += 1
                    named[key] += term
    return {k for k, n in uses.items() if named[k] >= TERM_SHARE * n}


def as_written(name: str, members: Sequence[Statement]) -> str:
    """A group's name as its statements write it most often ("DRAM", "OctoClock", not "Dram"),
    its first letter capitalised; the name itself when no statement writes it so."""
    words = name.split()
    if name == OTHER or not words:
        return name
    if len(words) == 1 and (identifier := _identifier(words[0], members)):
        return identifier
    between = r"[\W_]+"  # "rt runtime share" is written RT_RUNTIME_SHARE
    pattern = re.compile(
        r"(?<![A-Za-z0-9.])(?:\d+(?:\.\d+)?\s?)?"  # a quantity's number with its unit: "10MHz"
        + between.join(map(re.escape, words))
        + r"(?![A-Za-z0-9])",
        re.I,
    )
    found = Counter(m[0] for s in members for m in pattern.finditer(s.text))
    if not found:
        return name
    written = found.most_common(1)[0][0]
    if len({m[0].strip() if (m := _NUMBER.match(w)) else "" for w in found}) > 1:
        written = _NUMBER.sub("", written)  # "1 GbE" and "10GbE": the unit names the group
    written = " ".join(_PUNCTUATION.sub(" ", written).split())
    return written if "_" in written else written[:1].upper() + written[1:]


def _identifier(word: str, members: Sequence[Statement]) -> str:
    """The identifier most of the statements write ``word`` inside ("benchmark_rate" for
    "benchmark", "rfnoc_image_builder" for "builder"); "" when most write the word alone."""
    part = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", re.IGNORECASE)
    found = Counter(
        token
        for s in members
        for token in {t for t in _IDENTIFIER.findall(s.text) if part.search(t)} or {""}
    )
    best, n = found.most_common(1)[0] if found else ("", 0)
    return best if best and "_" in best and n > len(members) / 2 else ""


#: A word as a list writes it, identifiers whole ("uhd_images_downloader", "RT_RUNTIME_SHARE").
_IDENTIFIER = re.compile(r"[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+|[A-Za-z0-9]+")
#: A quantity's number before its unit.
_NUMBER = re.compile(r"\d+(?:\.\d+)?\s?")
#: Punctuation inside a name's span ("attr(usrp, bank"), not that of identifiers ("_", "-").
_PUNCTUATION = re.compile(r"[^\w\s./-]+")
