"""Input sanitisation at the boundary: control characters, injection patterns, length caps.

:func:`sanitize` is the one function every entry point calls (the graph's first node, ``bosun
search``, the web server). Injection patterns are matched on a *folded* copy of the text (NFKC,
Cyrillic/Greek look-alikes, leet digits, letters spaced apart), so disguised phrasings are caught
too; what is removed is recorded by pattern name and length only, never echoed back.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

#: Classification, filter detection and topic extraction read at most this many characters.
SHORT_LIMIT = 500
#: Search and answer generation read at most this many characters.
FULL_LIMIT = 4000

# Control characters (Unicode category Cc) except newline and tab, plus format characters that can
# hide text (zero-width spaces and joiners, bidirectional overrides), private-use and surrogates
# (what invalid UTF-8 on a command line decodes to).
_KEEP = {"\n", "\t"}
_DROPPED = ("Cc", "Cf", "Co", "Cs")

_END = r"[^.!?;\n]*[.!?;]?"  # the rest of the clause an injected instruction started
_OVERRIDE = r"(?:ignore|disregard|forget|override|bypass|skip|drop|abandon)"
_EARLIER = r"(?:previous|prior|above|earlier|preceding|former|original|system|initial|all|any)"
_RULES = r"(?:instructions?|prompts?|messages?|rules|directions|context|guidelines|directives)"
_ROLES = r"(?:system|assistant|developer|instructions?|context|passages?|tool|user)"

#: Prompt-injection phrasings by name, matched (case-insensitively) on the folded text.
INJECTION_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(p, re.IGNORECASE | re.MULTILINE)
    for name, p in {
        "override": rf"\b(?:please\s+)?{_OVERRIDE}\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
        r"(?:the\s+|your\s+|my\s+|these\s+|those\s+)?"
        rf"{_EARLIER}\s+(?:of\s+)?(?:the\s+|your\s+)?(?:\w+\s+)?{_RULES}" + _END,
        "override_prompt": rf"\b{_OVERRIDE}\s+(?:the\s+|your\s+)?system\s+prompt" + _END,
        "override_told": r"\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:that\s+)?"
        r"(?:you\s+were\s+told|you\s+have\s+been\s+told)" + _END,
        "role_play": r"\byou\s+are\s+now\b" + _END,
        "role_play_henceforth": r"\b(?:from\s+now\s+on|henceforth),?\s+"
        r"(?:you\s+(?:are|will|must)|act\s+as|pretend)" + _END,
        "role_play_act": r"\b(?:act|behave|respond|answer)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?"
        r"(?:an?\s+)?(?:dan|unrestricted|unfiltered|jailbroken|evil|uncensored|root|admin"
        r"|developer|the\s+system)\b" + _END,
        "role_play_pretend": r"\b(?:pretend|imagine|roleplay|role-play)\s+(?:to\s+be|that\s+you"
        r"(?:\s+are)?|you\s+are|as)\b" + _END,
        "jailbreak": r"\b(?:dan\s+mode|developer\s+mode|jailbreak(?:en|ed)?|do\s+anything\s+now"
        r"|god\s+mode)\b" + _END,
        "reveal_prompt": r"\b(?:reveal|show|print|repeat|output|display|leak|dump|tell\s+me)\s+"
        r"(?:me\s+)?(?:your\s+|the\s+)?(?:full\s+|hidden\s+|secret\s+|original\s+)?"
        r"(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions"
        r"|instructions\s+above|prompt\s+above)" + _END,
        "new_instructions": r"\b(?:new|updated|real|actual)\s+(?:system\s+)?instructions\s*:"
        + _END,
        "delimiter_block": rf"<\s*({_ROLES})\s*>[\s\S]{{0,2000}}?<\s*/\s*\1\s*>"
        r"|<\|im_start\|>[\s\S]{0,2000}?(?:<\|im_end\|>|\Z)|\[\s*INST\s*\][\s\S]{0,2000}?\[\s*/\s*INST\s*\]"
        r"|<<\s*SYS\s*>>[\s\S]{0,2000}?<<\s*/\s*SYS\s*>>",
        "delimiter_tag": rf"</?\s*{_ROLES}\s*/?>",
        "delimiter_token": r"<\|[^|<>\n]{0,40}\|>|<<\s*/?\s*SYS\s*>>|\[\s*/?\s*(?:INST|SYS)\s*\]",
        "delimiter_heading": r"^\s*(?:#+|={2,}|-{2,}|\*{2,})\s*"
        r"(?:system|assistant|developer|instructions?)\b[^\n]*" + r"(?:\n" + _END + ")?",
        "delimiter_banner": r"\b(?:begin|end)\s+(?:of\s+)?(?:the\s+)?(?:system\s+prompt|context"
        r"|passages|instructions)\b",
        "role_label": r"(?:^|(?<=[>\]\)|#*=\-}.!?;:]))\s*(?:system|assistant|developer)\s*:" + _END,
        "citation_header": r"\[\s*CITE\s*:[^\]\n]{0,400}\]?",
        "citation_marker": r"\[\s*C\s*:[^\]\n]{0,60}\]?",
    }.items()
}
#: The same phrasings with every space, punctuation mark and digit gone (``i.g.n.o.r.e``).
_COMPACT_PATTERNS: dict[str, re.Pattern[str]] = {
    name: re.compile(p)
    for name, p in {
        "override": r"(?:ignore|disregard|forget|override|bypass)(?:all|any|every)?(?:of)?"
        r"(?:the|your|my|these|those)?(?:previous|prior|above|earlier|preceding|system|initial)"
        r"(?:instructions?|prompts?|rules|directions|guidelines)",
        "override_prompt": r"(?:ignore|disregard|forget|override|bypass)(?:the|your)?systemprompt",
        "role_play": r"youarenow(?:dan|an?(?:unrestricted|unfiltered|jailbroken|evil))",
        "jailbreak": r"danmode|developermode|jailbreak|doanythingnow",
        "reveal_prompt": r"(?:reveal|show|print|repeat|leak|dump)(?:me)?(?:your|the)?"
        r"(?:full|hidden|secret)?(?:systemprompt|initialinstructions|hiddeninstructions)",
        "override_told": r"(?:ignore|disregard|forget)(?:all|everything)?(?:that)?"
        r"you(?:were|havebeen)told",
        "role_play_henceforth": r"(?:fromnowon|henceforth)(?:you(?:are|will|must)|actas|pretend)",
        "role_play_act": r"actas(?:an?)?(?:dan|unrestricted|unfiltered|jailbroken|evil|uncensored)",
        "role_play_pretend": r"pretend(?:tobe|youare|thatyouare)",
        "new_instructions": r"(?:new|updated)(?:system)?instructions",
    }.items()
}
# The role-label pattern in capitals anywhere ("... ]] SYSTEM: obey"): case-sensitive.
_SHOUTED_ROLE = re.compile(r"\b(?:SYSTEM|ASSISTANT|DEVELOPER)\s*:" + _END)

# Look-alike letters (Cyrillic, Greek, Armenian, Latin variants) folded to the ASCII they imitate.
_LOOKALIKES = str.maketrans(
    "аᴀвеєёкмнорсԁтуухѕіїјһӏԛԝɡɑαβεηικνορτυχωϲϳօսᴦАВЕКМНОРСТХУЅІЈԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aabeeekmhopcdtyyxsiijhlqwgaabenikvoptuxwcjourABEKMHOPCTXYSIJQWABEZHIKMNOPTYX",
)
_LEET = str.maketrans("013457@$", "oieastas")
_LEET_CHARS = frozenset("013457@$")
_LEET_WORD = re.compile(r"[A-Za-z0-9@$]+")
_HAS_LETTER = re.compile(r"[A-Za-z]")
# Single letters spaced apart by one space, dot, dash or star ("i g n o r e", "i.g.n.o.r.e."),
# words by wider gaps; three letters or more.
_SEPARATORS = " .*_-·|"
_LETTER = r"[^\W\d_](?![^\W_])"
_SPACED = re.compile(
    rf"(?<![^\W_]){_LETTER}(?:(?:[ .*_\-·|]| {{2,}}|[.*_\-·|] +){_LETTER}){{2,}}[.*_\-·|]?"
)
_CLAUSE = re.compile(_END)

_SPACES = re.compile(r"[ \t]{2,}")
_BLANK_LINES = re.compile(r"\n{3,}")


@dataclass(frozen=True)
class Sanitized:
    """Cleaned text and a record of what was taken out (names and lengths, not the text)."""

    text: str  # at most FULL_LIMIT characters
    short: str  # at most SHORT_LIMIT characters, for classification and topic extraction
    control_chars: int = 0  # control and invisible format characters removed
    injections: tuple[str, ...] = field(default_factory=tuple)  # names of the patterns removed
    removed_chars: int = 0  # characters removed as injections
    original_length: int = 0  # characters received
    truncated: bool = False  # the cleaned text was longer than FULL_LIMIT

    @property
    def changed(self) -> bool:
        return bool(self.control_chars or self.injections or self.truncated)

    def record(self) -> dict[str, object]:
        """Plain data for state and traces."""
        return {
            "control_chars": self.control_chars,
            "injections": list(self.injections),
            "removed_chars": self.removed_chars,
            "original_length": self.original_length,
            "truncated": self.truncated,
            "length": len(self.text),
        }


def strip_control(text: str) -> tuple[str, int]:
    """``text`` without control and invisible format characters (newline and tab stay)."""
    kept = [ch for ch in text if ch in _KEEP or unicodedata.category(ch) not in _DROPPED]
    return "".join(kept), len(text) - len(kept)


def fold(text: str) -> str:
    """``text`` as injection matching reads it, one character per character of ``text``:
    accents dropped, look-alike letters as the ASCII they imitate, leet digits in words that
    have letters ("1gn0re") as letters."""
    out = []
    for ch in text:
        base = unicodedata.normalize("NFKD", ch)[:1] or ch
        out.append(base.translate(_LOOKALIKES))
    folded = "".join(out)
    return _LEET_WORD.sub(
        lambda m: m.group(0).translate(_LEET) if _HAS_LETTER.search(m.group(0)) else m.group(0),
        folded,
    )


def _despaced(folded: str) -> tuple[str, list[int]]:
    """``folded`` with letters spaced apart joined up ("i g n o r e   a l l" reads "ignore
    all"), and the index in ``folded`` of each character kept."""
    keep = [True] * len(folded)
    for run in _SPACED.finditer(folded):
        for i in range(run.start(), run.end()):
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
    index = [i for i, k in enumerate(keep) if k]
    return "".join(folded[i] for i in index), index


def find_injections(text: str) -> list[tuple[int, int, str]]:
    """Spans ``(start, end, pattern name)`` of injection phrasings in ``text`` (after
    :func:`strip_control` and NFKC), found on folded, de-spaced and compacted copies."""
    spans: list[tuple[int, int, str]] = []
    despaced, index = _despaced(fold(text))
    for name, pattern in (*INJECTION_PATTERNS.items(), ("role_label", _SHOUTED_ROLE)):
        for m in pattern.finditer(despaced):
            if m.end() > m.start():
                spans.append((index[m.start()], index[m.end() - 1] + 1, name))
    # Letters only, every leet digit read as a letter ("Ac7 45 4n" is "actasan").
    letters = [
        i for i, ch in enumerate(despaced) if ch.isascii() and (ch.isalpha() or ch in _LEET_CHARS)
    ]
    compact = "".join(despaced[i] for i in letters).translate(_LEET).lower()
    for name, pattern in _COMPACT_PATTERNS.items():
        for m in pattern.finditer(compact):
            start, end = letters[m.start()], letters[m.end() - 1] + 1
            clause = _CLAUSE.match(despaced, end)
            end = clause.end() if clause else end
            spans.append((index[start], index[end - 1] + 1, name))
    return spans


def strip_injections(text: str) -> tuple[str, list[str], int]:
    """``text`` with prompt-injection phrasings removed, the names of the patterns that matched
    (once each, in order) and the number of characters removed."""
    spans = sorted(find_injections(text))
    if not spans:
        return text, [], 0
    names: dict[str, None] = {}
    parts: list[str] = []
    pos = removed = 0
    for start, end, name in spans:
        names.setdefault(name)
        start = max(start, pos)
        if end <= start:
            continue
        parts.append(text[pos:start])
        parts.append(" ")
        removed += end - start
        pos = end
    parts.append(text[pos:])
    return "".join(parts), list(names), removed


def cap(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, at a word boundary when one is near."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ", int(limit * 0.9))
    return cut[:space] if space > 0 else cut


def sanitize(text: str) -> Sanitized:
    """Strip control characters and injection phrasings; cap the length (see the module limits).

    The one sanitiser of every entry point: the graph, ``bosun search``, the web server.
    """
    cleaned, controls = strip_control(text)
    cleaned = unicodedata.normalize("NFKC", cleaned)  # full-width and styled letters as ASCII
    cleaned, _ = strip_control(cleaned)  # NFKC can compose nothing hidden, but stay certain
    injections: list[str] = []
    removed = 0
    for _ in range(3):  # removing one phrase can join the halves of another
        cleaned, found, n = strip_injections(cleaned)
        if not found:
            break
        injections.extend(f for f in found if f not in injections)
        removed += n
    cleaned = _BLANK_LINES.sub("\n\n", _SPACES.sub(" ", cleaned)).strip().lstrip(";,:.- ")
    full = cap(cleaned, FULL_LIMIT)
    return Sanitized(
        text=full,
        short=cap(full, SHORT_LIMIT),
        control_chars=controls,
        injections=tuple(injections),
        removed_chars=removed,
        original_length=len(text),
        truncated=len(full) < len(cleaned),
    )
