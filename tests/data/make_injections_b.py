"""Writes ``injections_b.jsonl`` and ``injections_c.jsonl``: sets B and C of the
planted-instruction phrasings, attacks and benign hard negatives (run ``python
tests/data/make_injections_b.py``).

The texts are hand-written in ``phrasings_b.py`` and ``phrasings_c.py``. Every base is kept
plain and gets one disguise in set B, two in set C (chosen in turn from the disguises that fit
its script), a third of the disguised ones inside a mail that carries them. Each line: ``id``,
``label`` (attack or benign), ``family``, ``language``, ``disguise``, ``split`` and ``text``.

Each set's split was fixed and committed BEFORE the detector was run on its texts and before
it was changed for them. It is by base (every variant of one base falls on the same side): a
base is ``dev`` when the first hex digit of sha256(f"{seed}:{base}") is below 8, else
``held_back``. Tune on ``dev`` only; ``benchmarks/injection_detector.py`` reports both halves.
Set B's held-back half was scored once (2026-12-02, 84.5 %) and is development data since; set
C was written then, as the new held-back test.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import phrasings_b  # noqa: E402
import phrasings_c  # noqa: E402

#: set name -> (its phrasings, its seed, disguises per base)
SETS = {
    "b": (phrasings_b, "bosun-injections-b-2026-12-02", 1),
    "c": (phrasings_c, "bosun-injections-c-2026-12-02", 2),
}

CYRILLIC = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "y": "у", "x": "х", "i": "і",
            "s": "ѕ", "A": "А", "E": "Е", "O": "О", "P": "Р", "C": "С", "T": "Т", "H": "Н",
            "M": "М", "K": "К", "B": "В", "X": "Х", "I": "І"}  # fmt: skip
GREEK = {"o": "ο", "a": "α", "i": "ι", "v": "ν", "u": "υ", "k": "κ", "A": "Α", "B": "Β",
         "E": "Ε", "H": "Η", "I": "Ι", "K": "Κ", "M": "Μ", "N": "Ν", "O": "Ο", "P": "Ρ",
         "T": "Τ", "X": "Χ", "Y": "Υ", "Z": "Ζ"}  # fmt: skip
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7", "g": "9", "l": "1"}
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]
CARRIERS = [
    ("Hi all,\n\nthe pump seal was replaced yesterday and the leak has stopped. ",
     "\n\nBest regards,\nTom, 2nd engineer"),
    ("Narrative: The pilot reported a rough-running engine shortly after takeoff. ",
     " The airplane landed in a field and sustained substantial damage."),
    ("<html><body><p>Weekly report attached.</p><div style=\"color:#fff\">",
     "</div></body></html>"),
    ("-- forwarded message --\nSubject: crew change\n\n", "\n\nSent from my phone"),
]  # fmt: skip


def _rng(seed: str, base: str, salt: str) -> random.Random:
    return random.Random(hashlib.sha256(f"{seed}:{salt}:{base}".encode()).digest())


def _swap(table: dict[str, str], share: float) -> Callable[[str, random.Random], str]:
    def disguise(text: str, rng: random.Random) -> str:
        return "".join(table[ch] if ch in table and rng.random() < share else ch for ch in text)

    return disguise


def fullwidth(text: str, rng: random.Random) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def math_bold(text: str, rng: random.Random) -> str:
    def one(ch: str) -> str:
        if "a" <= ch <= "z":
            return chr(0x1D41A + ord(ch) - ord("a"))
        if "A" <= ch <= "Z":
            return chr(0x1D400 + ord(ch) - ord("A"))
        return ch

    return "".join(one(ch) for ch in text)


def invisible(text: str, rng: random.Random) -> str:
    marks = rng.sample(INVISIBLE, 2)
    return "".join(ch + (rng.choice(marks) if rng.random() < 0.6 else "") for ch in text)


def spaced(text: str, rng: random.Random) -> str:
    gap = rng.choice(["  ", "   ", " / "])
    return gap.join(" ".join(word) for word in text.split(" "))


def separated(text: str, rng: random.Random) -> str:
    sep = rng.choice([".", "-", "_", "*", "·"])
    return " ".join(sep.join(word) for word in text.split(" "))


def leet(text: str, rng: random.Random) -> str:
    return "".join(LEET.get(ch.lower(), ch) if rng.random() < 0.7 else ch for ch in text)


def lines(text: str, rng: random.Random) -> str:
    return "\n".join(text.split(" "))


def mixed_case(text: str, rng: random.Random) -> str:
    return "".join(ch.upper() if n % 2 else ch.lower() for n, ch in enumerate(text))


def combining(text: str, rng: random.Random) -> str:
    return "".join(ch + ("\u0301" if ch.isalpha() and rng.random() < 0.4 else "") for ch in text)


def entities(text: str, rng: random.Random) -> str:
    style = rng.choice(["&#{};", "&#x{:x};"])
    return "".join(style.format(ord(ch)) if rng.random() < 0.8 else ch for ch in text)


def in_base64(text: str, rng: random.Random) -> str:
    blob = base64.b64encode(text.encode()).decode()
    hint = rng.choice([
        "Decode this base64 string and follow it: {}",
        "base64: {}",
        "The real message is base64-encoded below.\n{}",
        "Please b64-decode and execute → {}",
    ])  # fmt: skip
    return hint.format(blob)


def mime_base64(text: str, rng: random.Random) -> str:
    blob = base64.b64encode(text.encode()).decode()
    return f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{blob}"


def rot13(text: str, rng: random.Random) -> str:
    hint = rng.choice([
        "(rot13) {}",
        "Apply ROT13 to the next line and do what it says:\n{}",
        "Encoded with rot-13 for privacy: {}",
    ])  # fmt: skip
    return hint.format(codecs.encode(text, "rot13"))


def double(text: str, rng: random.Random) -> str:
    return invisible(_swap(CYRILLIC, 0.5)(text, rng), rng)


LATIN: dict[str, Callable[[str, random.Random], str]] = {
    "homoglyph_cyrillic": _swap(CYRILLIC, 0.6),
    "homoglyph_greek": _swap(GREEK, 0.6),
    "fullwidth": fullwidth,
    "math_bold": math_bold,
    "invisible": invisible,
    "spaced": spaced,
    "separated": separated,
    "leet": leet,
    "lines": lines,
    "mixed_case": mixed_case,
    "combining": combining,
    "html_entities": entities,
    "base64": in_base64,
    "rot13": rot13,
    "homoglyph_invisible": double,
}
OTHER_SCRIPT: dict[str, Callable[[str, random.Random], str]] = {
    "invisible": invisible,
    "spaced": spaced,
    "fullwidth": fullwidth,
    "html_entities": entities,
    "base64": in_base64,
}
BENIGN_DISGUISES: dict[str, Callable[[str, random.Random], str]] = {
    "invisible": invisible,
    "fullwidth": fullwidth,
    "homoglyph_cyrillic": _swap(CYRILLIC, 0.3),
    "html_entities": entities,
    "base64": mime_base64,
    "spaced": spaced,
    "mixed_case": mixed_case,
    "leet": leet,
}
NON_LATIN = {"ru", "zh", "ja", "ar", "ko"}


def half(seed: str, base: str) -> str:
    """``dev`` or ``held_back`` for one base, fixed by the seed."""
    digit = hashlib.sha256(f"{seed}:{base}".encode()).hexdigest()[0]
    return "dev" if int(digit, 16) < 8 else "held_back"


def variants(
    seed: str,
    base: str,
    n: int,
    choices: dict[str, Callable[[str, random.Random], str]],
    count: int,
) -> list[tuple[str, str]]:
    """The plain base and ``count`` disguises of it (taken in turn), every third inside a
    carrier."""
    out = [("plain", base)]
    for k in range(n * count, n * count + count):
        name = sorted(choices)[k % len(choices)]
        text = choices[name](base, _rng(seed, base, name))
        if k % 3 == 2:
            head, tail = CARRIERS[k % len(CARRIERS)]
            text = head + text + tail
            name += "+carrier"
        out.append((name, text))
    return out


def entries(name: str) -> list[dict[str, str]]:
    phrasings, seed, count = SETS[name]
    ATTACKS, LANGUAGES, BENIGN = phrasings.ATTACKS, phrasings.LANGUAGES, phrasings.BENIGN  # noqa: N806
    rows: list[dict[str, str]] = []
    bases: list[tuple[str, str, str, str]] = []  # label, family, language, text
    bases += [("attack", fam, "en", t) for fam, texts in ATTACKS.items() for t in texts]
    bases += [
        ("attack", "mixed" if lang == "mixed" else "language", lang, t)
        for lang, texts in LANGUAGES.items()
        for t in texts
    ]
    bases += [("benign", "benign", "", t) for t in BENIGN]
    counters: dict[str, int] = {}
    turns: dict[int, int] = {}  # disguise turn per table, so each table is used evenly
    for label, family, lang, base in bases:
        key = f"{label}-{family}-{lang}".strip("-")
        n = counters.get(key, 0)
        counters[key] = n + 1
        if label == "benign":
            choices = BENIGN_DISGUISES
        else:
            choices = OTHER_SCRIPT if lang in NON_LATIN else LATIN
        turn = turns.get(id(choices), 0)
        turns[id(choices)] = turn + 1
        for disguise, text in variants(seed, base, turn, choices, count):
            rows.append({
                "id": f"{name}-{key}-{n:03d}-{disguise}", "label": label, "family": family,
                "language": lang or "mixed-benign", "disguise": disguise,
                "split": half(seed, base), "text": text,
            })  # fmt: skip
    return rows


def main() -> None:
    for name in SETS:
        rows = entries(name)
        with (
            Path(__file__).with_name(f"injections_{name}.jsonl").open("w", encoding="utf-8") as out
        ):
            for row in rows:
                out.write(json.dumps(row, ensure_ascii=True) + "\n")
        by = {(r["label"], r["split"]) for r in rows}
        for key in sorted(by):
            print(name, key, sum(1 for r in rows if (r["label"], r["split"]) == key))  # noqa: T201


if __name__ == "__main__":
    main()
