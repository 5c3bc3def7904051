"""How the planted-instruction detector reads a text: invisible characters dropped, styled and
look-alike letters as the ASCII they imitate, leet digits as letters, letters spaced apart joined
up. :mod:`text.injection` matches its phrasings and cues on these copies; the trained classifier
(:mod:`text.injection_model`) reads :func:`model_text`."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable

# Control characters (Unicode category Cc) except newline and tab, plus format characters that can
# hide text (zero-width spaces and joiners, bidirectional overrides), private-use and surrogates
# (what invalid UTF-8 on a command line decodes to).
_KEEP = {"\n", "\t"}
_DROPPED = ("Cc", "Cf", "Co", "Cs")

# Look-alike letters (Cyrillic, Greek, Armenian, Latin variants) folded to the ASCII they imitate.
_LOOKALIKES = str.maketrans(
    "аᴀвеєёкмнорсԁтуухѕіїјһӏԛԝɡɑαβεηικνορτυχωϲϳօսᴦАВЕКМНОРСТХУЅІЈԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aabeeekmhopcdtyyxsiijhlqwgaabenikvoptuxwcjourABEKMHOPCTXYSIJQWABEZHIKMNOPTYX",
)
# ... and small capitals and more Armenian ones.
_LOOKALIKES.update(str.maketrans("ʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘʀꜱᴛᴜᴠᴡʏᴢꞯոհցզՏ", "bcdefghijklmnoprstuvwyzqnhgqS"))
# ... and Cyrillic izhitsa, Latin iota and dotless letters (set F's "rеcеіѵеԁ").
_LOOKALIKES.update(str.maketrans("ѵѴɩıȷ", "vViij"))
LEET = str.maketrans("0134579@$", "oieastgas")
LEET_CHARS = frozenset("0134579@$")
_LEET_WORD = re.compile(r"[A-Za-z0-9@$]+")
_HAS_LETTER = re.compile(r"[A-Za-z]")
# Single letters spaced apart by one space, dot, dash, star or slash ("i g n o r e",
# "i.g.n.o.r.e.", "a/s/s/i/s/t/a/n/t"), words by wider gaps; three letters or more.
_SEPARATORS = " .*_-·|/"
_LETTER = r"[^\W\d_](?![^\W_])"
_SPACED = re.compile(
    rf"(?<![^\W_]){_LETTER}(?:(?:[ .*_\-·|/]| {{2,}}|[.*_\-·|/] +){_LETTER}){{2,}}[.*_\-·|/]?"
)


def strip_control(text: str) -> tuple[str, int]:
    """``text`` without control and invisible format characters (newline and tab stay)."""
    kept = [ch for ch in text if ch in _KEEP or unicodedata.category(ch) not in _DROPPED]
    return "".join(kept), len(text) - len(kept)


class _CharMap(dict[int, str]):
    """A ``str.translate`` table filled on first sight of each character (``of(char)``)."""

    def __init__(self, of: Callable[[str], str]) -> None:
        super().__init__()
        self._of = of

    def __missing__(self, code: int) -> str:
        self[code] = mapped = self._of(chr(code))
        return mapped


# Each character's base letter (accents dropped), look-alikes as ASCII: one for one.
_FOLDED = _CharMap(lambda ch: (unicodedata.normalize("NFKD", ch)[:1] or ch).translate(_LOOKALIKES))
# Each character decomposed, combining marks dropped, look-alikes as ASCII (the model's reading).
_MODEL = _CharMap(
    lambda ch: "".join(
        c for c in unicodedata.normalize("NFKD", ch) if unicodedata.category(c) != "Mn"
    ).translate(_LOOKALIKES)
)


def fold(text: str) -> str:
    """``text`` as injection matching reads it, one character per character of ``text``:
    accents dropped, look-alike letters as the ASCII they imitate, leet digits in words that
    have letters ("1gn0re") as letters."""
    folded = text.translate(_FOLDED)
    return _LEET_WORD.sub(
        lambda m: m.group(0).translate(LEET) if _HAS_LETTER.search(m.group(0)) else m.group(0),
        folded,
    )


def despaced(folded: str) -> tuple[str, list[int]]:
    """``folded`` with letters spaced apart joined up ("i g n o r e   a l l" reads "ignore
    all"), and the index in ``folded`` of each character kept."""
    runs = list(_SPACED.finditer(folded))
    if not runs and folded.isascii():  # nothing spaced apart, no combining marks: as it is
        return folded, list(range(len(folded)))
    keep = [True] * len(folded)
    for run in runs:
        gaps = Counter(folded[run.start() + 1 : run.end() : 2])
        own = gaps.most_common(1)[0][0] if gaps else " "
        for i in range(run.start(), run.end()):
            if own != " " and folded[i] == " ":  # dotted letters, words apart: the gap stays
                continue
            if (
                folded[i] in _SEPARATORS
                and (
                    folded[i - 1] != " "
                    and folded[i + 1 : i + 2] not in (" ", "")
                    or i + 1 == run.end()
                    and folded[i] == folded[run.start() + 1]  # "D.A.N.," but not "i.t. What"
                    and folded[i + 1 : i + 2] not in (" ", "\n", "")
                )
            ):
                keep[i] = False
    if folded.isascii():
        index = [i for i, k in enumerate(keep) if k]
    else:
        index = [i for i, k in enumerate(keep) if k and unicodedata.category(folded[i]) != "Mn"]
    return "".join(folded[i] for i in index), index  # combining marks left over are dropped


_TAGS = {code: code - 0xE0000 for code in range(0xE0020, 0xE007F)}


def readable(text: str) -> str:
    """``text`` as the detector reads it: Unicode tag characters as the ASCII they smuggle,
    control and invisible format characters (zero-width spaces and joiners, bidi controls)
    removed, full-width and styled letters as ASCII (NFKC)."""
    cleaned, _ = strip_control(text.translate(_TAGS))
    return unicodedata.normalize("NFKC", cleaned)


_HYPHENATED = re.compile(r"(?<=\w)-\n\s*(?=\w)")  # a word broken at a line end: "sum-\nmary"


def model_text(text: str) -> str:
    """``text`` as the trained classifier reads it: accents and other combining marks dropped
    (other scripts keep their letters), look-alikes and leet digits folded, letters spaced apart
    joined, lower case, white space single."""
    folded = (_HYPHENATED.sub("", text) if "-\n" in text else text).translate(_MODEL)
    if not LEET_CHARS.isdisjoint(folded):  # no leet digit or sign: no word to read as letters
        folded = _LEET_WORD.sub(
            lambda m: m.group(0).translate(LEET) if _HAS_LETTER.search(m.group(0)) else m.group(0),
            folded,
        )
    joined = despaced(folded)[0] if _SPACED.search(folded) else folded
    return " ".join(joined.lower().split())
