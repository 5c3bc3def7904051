"""The names a question gives (capitalised words after the first, numbers, model names) and
whether a text holds them, a model name in any of its written forms (:mod:`text.models`). The
answer's "not in the archive" check and the relevance cutoff's rescue of a question whose every
name the best record holds share this one reading."""

from __future__ import annotations

import re
from collections.abc import Iterable

from text.models import is_model_name, mentions_model, model_keys, model_mentions
from text.words import STOP_WORDS

_WORD = re.compile(r"[A-Za-z0-9][\w/-]*[A-Za-z0-9]|[A-Za-z0-9]")
#: Capitalised words that are not names ("I", question words, month names are kept as names).
_NOT_NAMES = frozenset(
    re.findall(
        r"\w+",
        "i what which who whom whose when where why how was were is are did does do the a an "
        "and or in on at of for to from with by it its this that these those there please tell "
        "show list give find any all no",
    )
)
#: A question holding this many names, all in one record's text, is about that record.
NAMED_RECORD = 2


def names_of(question: str, scope: Iterable[str] = ()) -> list[str]:
    """``question``'s names, numbers and years, each once, in order (``scope``'s words, the
    filters' names, left out)."""
    scoped = {w.casefold() for name in scope for w in _WORD.findall(name)}
    names = []
    for i, word in enumerate(_WORD.findall(question)):
        folded = word.casefold()
        if folded in scoped or folded in _NOT_NAMES or folded in STOP_WORDS:
            continue
        if (i > 0 and word[:1].isupper()) or any(ch.isdigit() for ch in word):
            names.append(word)
    return list(dict.fromkeys(names))


def found_names(question: str, names: Iterable[str], written: str) -> set[str]:
    """Those of ``names`` (from ``question``) that ``written`` holds: as a word, or inside a
    model name ``written`` also names however written ("P-51" and "P-51D")."""
    haystack = written.casefold()
    keys = model_keys(written)
    spans = [(m.start(), m.end()) for m in _WORD.finditer(question)]
    as_models: set[str] = set()
    for start, end, name in model_mentions(question):
        if mentions_model(name, keys):
            as_models |= {question[s:e] for s, e in spans if s >= start and e <= end}
    tails = {t for w in _WORD.findall(haystack) for t in w.split("/")}
    joined = _written_joined(question, names, haystack)
    return {
        word
        for word in names
        if word in as_models or word in joined or _holds(word, haystack, keys, tails)
    }


def _written_joined(question: str, names: Iterable[str], haystack: str) -> set[str]:
    """Names next to each other in ``question`` that ``haystack`` writes as one word ("GNU
    Radio" as "GNURadio")."""
    wanted = set(names)
    words = [(m.start(), m.end(), m[0]) for m in _WORD.finditer(question)]
    out: set[str] = set()
    for (_, end, first), (start, _, second) in zip(words, words[1:], strict=False):
        if question[end:start] not in (" ", "-") or not {first, second} <= wanted:
            continue
        if re.search(rf"(?<![\w-]){re.escape((first + second).casefold())}(?!\w)", haystack):
            out |= {first, second}
    return out


#: A model name at least this long is found at the end of a word whose head is a product's name
#: of at least :data:`MIN_HEAD` letters ("N210" in "USRPN210", not in "AB210").
MIN_TAIL = 4
MIN_HEAD = 3


def _holds(word: str, haystack: str, keys: set[str], tails: set[str]) -> bool:
    """Whether ``haystack`` holds ``word``: as a word (a word of letters also at the head of a
    hyphenated name), as a model name however written, as the
    end of a word that prefixes a product's name to it ("N210" in "USRPN210"), or, a name
    written with slashes ("USRP2/N210"), each of its parts so."""
    # a word of letters also heads a hyphenated model name ("SBX" in "SBX-120")
    after = r"(?!\w)" if word.isalpha() else r"(?![\w-])"
    # a name in its plural or possessive is the same name ("USRPs", "USRP's", "N310s")
    if re.search(rf"(?<![\w-]){re.escape(word.casefold())}(?:'?s|es)?{after}", haystack):
        return True
    if _singular(word) and _holds(_singular(word), haystack, keys, tails):
        return True
    parts = [p for p in word.split("/") if p]
    if len(parts) > 1:
        return all(_holds(p, haystack, keys, tails) for p in parts)
    if not is_model_name(word):
        return False
    if mentions_model(word, keys):
        return True
    folded = word.casefold()
    if len(folded) < MIN_TAIL:
        return False
    heads = (t[: -len(folded)] for t in tails if t.endswith(folded))
    return any(len(head) >= MIN_HEAD and head.isalpha() for head in heads)


#: A plural is read as its singular when that is at least this long ("USRPs", not "Is").
MIN_SINGULAR = 3


def _singular(word: str) -> str:
    """``word`` without a plural's "s" ("USRPs" -> "USRP", "N310s" -> "N310"); "" when it does
    not end in one (or what is left is shorter than :data:`MIN_SINGULAR`)."""
    if word[-1:] not in ("s", "S") or word[-2:-1] in ("s", "S", "'"):
        return ""
    return word[:-1] if len(word) - 1 >= MIN_SINGULAR else ""


def names_record(question: str, written: str) -> bool:
    """Whether ``written`` (one record's title and text) holds every name of ``question``, and
    the question gives at least :data:`NAMED_RECORD` ("the U-206F crash near Kokhanok")."""
    names = names_of(question)
    return len(names) >= NAMED_RECORD and found_names(question, names, written) == set(names)
