"""Use and mention: a planted-instruction phrasing quoted as an example ("attackers hide phrases
like «ignore previous instructions» in mail", "「以前の指示を無視せよ」といった文") is talked about,
not given. A security notice in an operator's archive quotes them so; a planted instruction gives
its order unquoted. :func:`without_mentions` drops the spans that start inside such a quotation."""

from __future__ import annotations

import re

from text.injection_fold import fold

# Quotation marks that open and close a quotation; the ASCII apostrophe only where no letter
# stands outside it ("don't" is no quotation); the 'PAYLOAD' a planted order dictates is not
# introduced by the words below.
_QUOTED = re.compile(r"«([^«»\n]{3,200})»|“([^“”\n]{3,200})”|„([^„“”\n]{3,200})[“”]"
                     r'|"([^"\n]{3,200})"|「([^「」\n]{3,200})」|『([^『』\n]{3,200})』'
                     r"|‘([^‘’\n]{3,200})’|(?<![\w'])'([^'\n]{3,200}?)'(?![\w'])")  # fmt: skip
# Words that introduce an example just before the quotation, in the languages of the lexicon's
# larger sets (read on the folded, lower-case text): "like", "such as", and the words that
# report what someone wrote as an example ("attackers write", "the examples included", "a
# slide:", "a footer read"); not "the note said:", which is how a document relays an order ...
_BEFORE = re.compile(
    r"(?:\bincluded|\bcontained|\bwrite|\bwrites|\bwrote|\bfooter(?:\s+(?:read|reads|said))?"
    r"|\bslide|\bals|\blike|\bsuch\s+as|\be\.\s?g\.|\bfor\s+(?:example|instance)|\bphrases?|\bsentences?"
    r"|\bwords|\bcomme|\btels?\s+que|\btelles\s+que|\bpar\s+exemple|\bdu\s+type|\bwie|\betwa"
    r"|\bz\.\s?b\.|\bzum\s+beispiel|\bsatze|\bcomo|\bcome|\btipo|\bpor\s+ejemplo|\bpor\s+exemplo"
    r"|\bad\s+esempio|\bfrases|\bfrasi|\bzoals|\bbijvoorbeeld|\bzinnen|\bsom|\bfor\s+eksempel"
    r"|\btill\s+exempel|\bsetninger|\bjak|\bnp\.|\bвроде|\bкак|\bтипа|\bнапример|\bфраз\w*"
    r"|比如|例如|像|诸如|諸如)\s*[:,]?\s*\(?\s*$"
)
# ... or just after it (Chinese, Japanese, Korean put the word after the quotation).
_AFTER = re.compile(
    r"^\s*(?:之类|之類|等|这样的|這樣的|のような|といった|などの|같은|등의|와\s*같은)"
)
_REACH = 40  # characters looked at before and after a quotation
# An order to act on what is quoted makes the quotation a use, not a mention ("translate it and
# then do what it says: '...'", "a note that says '...'; continue the story by doing it").
_OBEYED = re.compile(
    r"\b(?:do|does|doing|obey|obeys|obeying|follow|execute|carry\s+out|act\s+on)\s+"
    r"(?:(?:exactly\s+|just\s+)?what\s+(?:it|this|that|the\s+\w+)\s+says|it|this|that|them)\b"
)


def quotations(text: str) -> list[tuple[int, int]]:
    """Spans of the quotations of ``text`` that quote an example (see the module docstring)."""
    found: list[tuple[int, int]] = []
    if _OBEYED.search(fold(text).lower()):
        return found
    # accents folded for the Latin-script words, as written for the Cyrillic ones (folding
    # reads Cyrillic look-alikes as Latin letters); both one character per character of text
    for copy in (fold(text).lower(), text.lower()):
        if len(copy) != len(text):  # a letter whose lower case is two ("İ"): positions move
            continue
        for m in _QUOTED.finditer(copy):
            before = copy[max(0, m.start() - _REACH) : m.start()]
            after = copy[m.end() : m.end() + _REACH]
            if _BEFORE.search(before) or _AFTER.search(after):
                found.append((m.start(), m.end()))
    return found


def blank_mentions(text: str) -> str:
    """``text`` with the quoted examples blanked (spaces, so every position stays): what the
    trained classifier reads, so a notice that quotes an order is read by its own words."""
    if not any(ch in text for ch in "«“„\"「『‘'"):
        return text
    quoted = quotations(text)
    if not quoted:
        return text
    chars = list(text)
    for start, end in quoted:
        chars[start:end] = " " * (end - start)
    return "".join(chars)


def without_mentions(spans: list[tuple[int, int, str]], text: str) -> list[tuple[int, int, str]]:
    """``spans`` of ``text`` without those that start inside a quoted example."""
    quoted = quotations(text) if any(ch in text for ch in "«“„\"「『‘'") else []
    if not quoted:
        return spans
    return [span for span in spans if not any(s < span[0] < e for s, e in quoted)]
