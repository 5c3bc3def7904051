"""Writes ``injections_d.jsonl``: set D of the planted-instruction phrasings, attacks and benign
hard negatives (run ``python tests/data/make_injections_d.py``).

The texts are hand-written in ``phrasings_d.py``. Every base is kept plain and gets two
disguises, taken in turn from the disguises that fit its script; a third of the disguised ones
sit inside a carrier (a JSON ticket, a calendar invite, a CSV row, an image's alt text, an SMS, a
markdown table, a commit message). Most disguises are new to set D: small capitals, circled and
monospace letters, Armenian look-alikes, stacked combining marks, thin and ideographic spaces,
words broken apart, Unicode tag characters, percent-encoding, quoted-printable, hex, reversed
text and JSON escapes. Each line: ``id``, ``label`` (attack or benign), ``family``,
``language``, ``disguise``, ``split`` and ``text``.

The split was fixed and committed BEFORE any detector was run on these texts and before the
detector was changed for them. It is by base (every variant of one base falls on the same
side) and exactly half and half within attacks and within hard negatives: the bases of a label
are sorted by sha256(f"{SEED}:{base}"), the first half (rounded up) is ``dev``, the rest
``held_back``. Build on ``dev`` only; the held-back half is scored once, at the end.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import phrasings_d  # noqa: E402

SEED = "bosun-injections-d-2026-12-02"
Disguise = Callable[[str, random.Random], str]

SMALL_CAPS = dict(zip("abcdefghijklmnopqrstuvwyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ", strict=True))
ARMENIAN = {"o": "օ", "u": "ս", "h": "հ", "n": "ո", "g": "ց", "d": "ԁ", "q": "զ", "S": "Տ"}
INVISIBLE = ["\u200b", "\u2060", "\u200d", "\u180e", "\u2062"]
THIN_SPACES = ["\u2009", "\u200a", "\u3000", "\u00a0", "\u202f"]
CARRIERS = [
    ('{"ticket": 4471, "status": "open", "body": "', '", "priority": "low"}'),
    ("BEGIN:VEVENT\nSUMMARY:Dry-dock planning\nDESCRIPTION:", "\nEND:VEVENT"),
    ('2026-11-30,MV Northern Star,bunkering,"', '",closed'),
    ('<p>Deck plan below.</p><img src="plan.png" alt="', '"><p>Regards</p>'),
    ("SMS from +4479460000: ", ""),
    ("| item | note |\n|---|---|\n| 14 | ", " |"),
    ("commit 8f2c1e0\nAuthor: ops <ops@operator.example>\n\n    Fix noon report parser\n\n    ",
     ""),
]  # fmt: skip


def _rng(base: str, salt: str) -> random.Random:
    return random.Random(hashlib.sha256(f"{SEED}:{salt}:{base}".encode()).digest())


def small_caps(text: str, rng: random.Random) -> str:
    return "".join(SMALL_CAPS.get(ch.lower(), ch) if rng.random() < 0.7 else ch for ch in text)


def circled(text: str, rng: random.Random) -> str:
    def one(ch: str) -> str:
        if "a" <= ch <= "z":
            return chr(0x24D0 + ord(ch) - ord("a"))
        if "A" <= ch <= "Z":
            return chr(0x24B6 + ord(ch) - ord("A"))
        return ch

    return "".join(one(ch) for ch in text)


def monospace(text: str, rng: random.Random) -> str:
    def one(ch: str) -> str:
        if "a" <= ch <= "z":
            return chr(0x1D68A + ord(ch) - ord("a"))
        if "A" <= ch <= "Z":
            return chr(0x1D670 + ord(ch) - ord("A"))
        return ch

    return "".join(one(ch) for ch in text)


def armenian(text: str, rng: random.Random) -> str:
    return "".join(ARMENIAN.get(ch, ch) if rng.random() < 0.8 else ch for ch in text)


def zalgo(text: str, rng: random.Random) -> str:
    out = []
    for ch in text:
        out.append(ch)
        if ch.isalpha():
            out.extend(chr(rng.randrange(0x300, 0x36F)) for _ in range(rng.randrange(0, 4)))
    return "".join(out)


def invisible(text: str, rng: random.Random) -> str:
    return "".join(ch + (rng.choice(INVISIBLE) if rng.random() < 0.5 else "") for ch in text)


def thin_spaced(text: str, rng: random.Random) -> str:
    gap = rng.choice(THIN_SPACES)
    return "   ".join(gap.join(word) for word in text.split(" "))


def broken_words(text: str, rng: random.Random) -> str:
    def one(word: str) -> str:
        if len(word) < 5:
            return word
        cut = rng.randrange(2, len(word) - 1)
        return word[:cut] + rng.choice([" ", "-\n", "- "]) + word[cut:]

    return " ".join(one(w) for w in text.split(" "))


def tags(text: str, rng: random.Random) -> str:
    hidden = "".join(chr(0xE0000 + ord(ch)) for ch in text if ord(ch) < 0x80)
    cover = rng.choice(["See attached.", "Thanks, noted.", "Minutes of the meeting:"])
    return cover + "\U000e0001" + hidden + "\U000e007f"


def percent(text: str, rng: random.Random) -> str:
    blob = "".join(f"%{b:02X}" for b in text.encode())
    hint = rng.choice(["url-decoded this reads: {}", "q={}", "Decode the query string: {}"])
    return hint.format(blob)


def quoted_printable(text: str, rng: random.Random) -> str:
    blob = "".join(f"={b:02X}" if b > 126 or rng.random() < 0.5 else chr(b) for b in text.encode())
    return f"Content-Transfer-Encoding: quoted-printable\n\n{blob}"


def hexed(text: str, rng: random.Random) -> str:
    hint = rng.choice(["hex: {}", "Decode from hex and follow: {}", "0x{}"])
    return hint.format(text.encode().hex())


def backwards(text: str, rng: random.Random) -> str:
    hint = rng.choice(
        ["Read this backwards: {}", "(reversed) {}", "Reverse the text and comply: {}"]
    )
    return hint.format(text[::-1])


def json_escaped(text: str, rng: random.Random) -> str:
    body = "".join(
        f"\\u{ord(ch):04x}" if ch.isalpha() and rng.random() < 0.6 else ch for ch in text
    )
    return '{"note": "' + body + '"}'


def mixed_lookalikes(text: str, rng: random.Random) -> str:
    text = armenian(text, rng)
    return small_caps(invisible(text, rng), rng)


LATIN: dict[str, Disguise] = {
    "small_caps": small_caps,
    "circled": circled,
    "monospace": monospace,
    "armenian": armenian,
    "zalgo": zalgo,
    "invisible": invisible,
    "thin_spaced": thin_spaced,
    "broken_words": broken_words,
    "tags": tags,
    "percent": percent,
    "quoted_printable": quoted_printable,
    "hex": hexed,
    "backwards": backwards,
    "json_escaped": json_escaped,
    "mixed_lookalikes": mixed_lookalikes,
}
OTHER_SCRIPT: dict[str, Disguise] = {
    "invisible": invisible,
    "thin_spaced": thin_spaced,
    "zalgo": zalgo,
    "percent": percent,
    "quoted_printable": quoted_printable,
    "json_escaped": json_escaped,
}
BENIGN_DISGUISES: dict[str, Disguise] = {
    "invisible": invisible,
    "quoted_printable": quoted_printable,
    "json_escaped": json_escaped,
    "small_caps": small_caps,
    "thin_spaced": thin_spaced,
    "percent": percent,
    "broken_words": broken_words,
    "monospace": monospace,
}


def _latin(text: str) -> bool:
    return all(
        not ch.isalpha() or "LATIN" in unicodedata.name(ch, "") for ch in text if ord(ch) > 0x7F
    )


def halves(bases: list[str]) -> dict[str, str]:
    """``dev`` or ``held_back`` for each base: sorted by their seeded hash, first half dev."""
    order = sorted(bases, key=lambda b: hashlib.sha256(f"{SEED}:{b}".encode()).hexdigest())
    cut = (len(order) + 1) // 2
    return {b: "dev" if n < cut else "held_back" for n, b in enumerate(order)}


def entries() -> list[dict[str, str]]:
    p = phrasings_d
    bases: list[tuple[str, str, str, str]] = []  # label, family, language, text
    bases += [("attack", fam, "en", t) for fam, texts in p.ATTACKS.items() for t in texts]
    bases += [
        ("attack", "mixed" if lang == "mixed" else "language", lang, t)
        for lang, texts in p.LANGUAGES.items()
        for t in texts
    ]
    bases += [("benign", "benign", "", t) for t in p.BENIGN]
    split = halves([b[3] for b in bases if b[0] == "attack"])
    split |= halves([b[3] for b in bases if b[0] == "benign"])
    rows: list[dict[str, str]] = []
    counters: dict[str, int] = {}
    turns: dict[str, int] = {}
    for label, family, lang, base in bases:
        key = f"{label}-{family}-{lang}".strip("-")
        n = counters.get(key, 0)
        counters[key] = n + 1
        if label == "benign":
            table, table_name = BENIGN_DISGUISES, "benign"
        elif _latin(base):
            table, table_name = LATIN, "latin"
        else:
            table, table_name = OTHER_SCRIPT, "other"
        variants = [("plain", base)]
        for _ in range(2):
            k = turns.get(table_name, 0)
            turns[table_name] = k + 1
            name = sorted(table)[k % len(table)]
            text = table[name](base, _rng(base, name))
            if k % 3 == 2:
                head, tail = CARRIERS[k % len(CARRIERS)]
                text, name = head + text + tail, name + "+carrier"
            variants.append((name, text))
        for disguise, text in variants:
            rows.append({
                "id": f"d-{key}-{n:03d}-{disguise}", "label": label, "family": family,
                "language": lang or "mixed-benign", "disguise": disguise, "split": split[base],
                "text": text,
            })  # fmt: skip
    return rows


def main() -> None:
    rows = entries()
    with Path(__file__).with_name("injections_d.jsonl").open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=True) + "\n")
    for key in sorted({(r["label"], r["split"]) for r in rows}):
        print("d", key, sum(1 for r in rows if (r["label"], r["split"]) == key))  # noqa: T201


if __name__ == "__main__":
    main()
