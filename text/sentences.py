"""Sentences: where one ends, decided in one place for ingest, answers, citations and streaming.

A sentence ends at ``!`` or ``?`` followed by white space, or at ``.`` (or ``...``) followed by
white space and a capital letter, a digit, an opening quote or bracket, or a list item's mark
("- On", where a line break was folded into a space; closing quotes and brackets after the mark
belong to the sentence) — or at a blank line, or at a line break before a list item ("- x",
"* x", "• x", "2. x", "3) x"). A full stop does not end a sentence after:

- a title or an abbreviation that always runs on: "Mr. Smith", "Capt. Olsen", "approx. 3 nm",
  "e.g. X", "et al. (2005)";
- a number word before a number: "No. 3 engine", "Fig. 2", "Jan. 5" (but "said no. Then" ends);
- an initial or a dotted initialism: "J. Smith", "U.S. Navy", "10 a.m. local" (``a.m.``/``p.m.``
  before a capitalised word end one: "at 10 a.m. The pilot");
- an enumerator alone: "findings: 1. The pilot ..." keeps "1." with its item.

A decimal ("3.5 hours") or a dotted identifier ("v4.7.1") has no space after its points and is
never cut.
"""

from __future__ import annotations

import re

#: Run on whatever follows: titles before a name, and abbreviations that never end a sentence.
RUN_ON = frozenset(
    """mr mrs ms messrs dr prof st capt cpt cmdr cdr lt col gen sgt adm gov sen rep rev fr jr sr
    eng approx ca cf vs viz al incl esp resp dept""".split()  # noqa: SIM905 - a word list reads better
)
#: Run on before a number: "No. 3", "Fig. 2", "pp. 12", "Jan. 5".
BEFORE_NUMBER = frozenset(
    """no nos nr num fig figs vol vols p pp para sec ch art ref eq tab
    jan feb mar apr jun jul aug sep sept oct nov dec""".split()  # noqa: SIM905
)
#: Dotted initialisms that end a sentence when a capitalised word follows ("at 10 a.m. The").
TIMES = frozenset({"a.m.", "p.m."})

_END = re.compile(r"(?<![.!?])([.!?]++)[\"'”’)\]]*+(\s++)(?=\S)")  # possessive: linear time
#: What a sentence after a full stop starts with: a capital, a digit, or a list item whose line
#: break was folded into a space ("... everything. - On an FPGA ...").
_STARTS = re.compile(r"(?:[-*•]\s)?[\"'“‘(\[]?[A-Z0-9]")
_BREAK = re.compile(r"\n[ \t]*+\n\s*+|\n(?=[ \t]*+(?:[-*•]|\d{1,2}[.)])\s)")
_WORD_BEFORE = re.compile(r"(\S+)\.$")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.){2,}")
_ENUMERATOR = re.compile(r"\(?(?:\d{1,2}|[A-Za-z]|[ivxIVX]{1,4})[.)]")
_CAPITALISED = re.compile(r"[\"'“‘(\[]?[A-Z][a-z]")
_TAIL = 80  # characters before a mark that decide whether it ends a sentence
_GLUED = re.compile(r"(?<=[a-z]{2})\.(?=[A-Z][a-z])")  # "report.The pilot"


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text``, in order, white space around it excluded."""
    spans: list[tuple[int, int]] = []
    start = 0
    for block_end, next_start in [
        *((m.start(), m.end()) for m in _BREAK.finditer(text)),
        (len(text), len(text)),
    ]:
        for end in _ends(text, start, block_end):
            _add(spans, text, start, end)
            start = end
        _add(spans, text, start, block_end)
        start = next_start
    return spans


def sentences(text: str) -> list[str]:
    """The sentences of ``text``, each with its white space flattened to single spaces."""
    return [" ".join(text[s:e].split()) for s, e in sentence_spans(text)]


def sentence_pieces(text: str) -> list[str]:
    """``text`` cut after each sentence, white space kept, so the pieces join back to ``text``."""
    starts = [s for s, _ in sentence_spans(text)]
    if not starts:
        return [text] if text else []
    cuts = [0, *starts[1:], len(text)]
    return [text[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


def unglue(text: str) -> str:
    """``text`` with a space after each full stop glued to the next sentence ("report.The pilot",
    as some exports join narrative lines); "v4.7", "e.g.X" and "example.com" stay whole."""
    return _GLUED.sub(". ", text)


def _ends(text: str, start: int, stop: int) -> list[int]:
    """Sentence ends between ``start`` and ``stop`` (a block without blank lines). Each decision
    reads a bounded window around the mark, so a long text is split in linear time."""
    ends: list[int] = []
    for match in _END.finditer(text, start, stop):
        end, after = match.start(2), match.end()
        tail = text[max(start, end - _TAIL) : end]
        alone = end - start <= _TAIL and len(tail.split()) == 1
        if _ends_sentence(tail, alone, match.group(1), text[after : min(stop, after + 4)]):
            ends.append(end)
            start = after
    return ends


def _ends_sentence(tail: str, alone: bool, mark: str, following: str) -> bool:
    """Whether a sentence ending in ``tail`` (its last characters, the ``mark`` and perhaps
    closers; ``alone``: it is one word) ends before ``following`` (the next characters)."""
    if "?" in mark or "!" in mark:
        return True  # "Why? because ...", "Done! then"
    if not _STARTS.match(following):
        return False  # "approx. five", "e.g. the", "etc. and"
    words = tail.split()
    if _ENUMERATOR.fullmatch(words[-1]) and (alone or (len(words) > 1 and words[-2].endswith(":"))):
        return False  # "1." alone or after a colon: its item follows
    last = words[-1]
    word = _WORD_BEFORE.search(last)
    if word is None:
        return True  # 'he said "stop."' — a closer after the point
    token = word.group(1).lstrip("\"'“‘([").lower()
    if token in RUN_ON:
        return False
    if token in BEFORE_NUMBER:
        return not following[:1].isdigit() and not following.startswith("#")
    dotted = f"{token}."
    if _INITIALISM.fullmatch(dotted):
        return dotted in TIMES and bool(_CAPITALISED.match(following))
    return not (len(token) == 1 and word.group(1)[-1].isupper())  # "J. Smith"


def _add(spans: list[tuple[int, int]], text: str, start: int, end: int) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start < end:
        spans.append((start, end))
