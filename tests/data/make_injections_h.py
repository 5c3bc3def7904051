"""Writes ``injections_h.jsonl``: set H of planted instructions and benign hard negatives, a fourth
held-back test of issue 27 (run ``python tests/data/make_injections_h.py``).

How it was written: by a red-team writer who had not read the detector (``text/injection*.py``,
``adapt/*injection*``, its data, its tests), the texts of sets A to G or any detector output on
these texts; only set G's line format, generator and split rule were read. The bases are
hand-written in ``injection_texts_h_attacks*.py`` (what an attacker hides in a mail, a PDF, a web
page, a survey answer or a quoted customer request: conditional triggers, instructions split over
sentences, fake tool and system messages, comments, PDF footers, typos) and
``injection_texts_h_benign*.py`` (checklists, contracts, ordinary fleet mail, accident narratives,
software-radio help, and texts that only talk about prompt injection), in 14 languages.

Rows: every base gives one row as written (in a carrier of its side four times in ten) and one
under a mechanical disguise drawn by the seed (:mod:`injection_disguises_h`). An attack's second
row is obfuscated (look-alike letters, zero-width characters, spaced letters, leetspeak,
full-width letters, soft hyphens, typos, HTML character references, combining marks, base64,
rot13, percent-encoding or reversed text with a sentence asking to decode it); a hard negative's
second row carries what real text carries (PDF line wrapping, soft hyphens, no-break spaces, a
stray zero-width character, capitals, typos, full-width letters, HTML references, a base64 or
percent-encoded attachment with a plain note), so no odd character or encoding tells alone.

Each line: ``id`` (``<base>-<disguise>``), ``label``, ``family`` (``benign`` for hard
negatives), ``language``, ``disguise`` (``<form>`` or ``<form>+<mechanical>``), ``split``,
``text`` — the format of sets E to G. The split was fixed before anything was run on these
texts: by base, half and half within each label, language and family (a hard negative's form
stands for its family), ranked by sha256(f"{SEED}:{base id}") (``halves_by_base.halves``); every
carrier and decoding sentence belongs to one side only. Build on ``dev`` only; the held-back half
is scored once, at the end (``python benchmarks/injection_detector.py --json --held-back H``).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from halves_by_base import halves  # noqa: E402
from injection_disguises_h import disguise  # noqa: E402
from injection_texts_h_attacks import ATTACKS  # noqa: E402
from injection_texts_h_benign import BENIGN  # noqa: E402

SEED = "bosun-injections-h-redteam-2026-12-02"
OUT = Path(__file__).resolve().parent / "injections_h.jsonl"

LATIN = {"en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "tr"}
SPACELESS = {"zh", "ja"}
#: (disguise, weight, languages it fits: None for all) of an attack's second row.
OBFUSCATIONS = [
    ("lookalike", 10, LATIN | {"ru"}), ("zero_width", 10, None), ("spaced", 8, None),
    ("leet", 7, LATIN), ("fullwidth", 6, LATIN), ("soft_hyphens", 6, LATIN | {"ru", "ar"}),
    ("typos", 7, LATIN | {"ru"}), ("entities", 6, None), ("combining", 4, LATIN),
    ("base64", 8, None), ("rot13", 6, LATIN), ("url", 6, None), ("reversed", 5, None),
    ("zero_width+carrier", 3, None), ("typos+carrier", 3, LATIN | {"ru"}),
    ("entities+carrier", 2, None), ("lookalike+carrier", 3, LATIN | {"ru"}),
]  # fmt: skip
#: (disguise, weight, languages) of a hard negative's second row.
ORDINARY = [
    ("wrapped", 12, None), ("soft_hyphens", 10, LATIN | {"ru", "ar"}),
    ("nbsp", 8, LATIN | {"ru", "ar"}),
    ("stray_zero_width", 10, None), ("capitals", 5, LATIN | {"ru"}), ("typos", 8, LATIN | {"ru"}),
    ("fullwidth", 5, LATIN), ("entities", 5, None), ("base64", 7, None), ("url", 6, None),
    ("spaced", 3, None), ("lookalike", 3, LATIN | {"ru"}), ("zero_width", 3, None),
    ("wrapped+carrier", 5, None), ("typos+carrier", 4, LATIN | {"ru"}),
]  # fmt: skip


def drawn(table: list[tuple[str, int, set[str] | None]], rng: random.Random, language: str) -> str:
    fitting = [(k, w) for k, w, langs in table if langs is None or language in langs]
    names, weights = zip(*fitting, strict=True)
    return rng.choices(names, weights=weights)[0]


def rows() -> list[dict[str, str]]:
    """Every row of the set, attacks first, in the order of the texts modules."""
    out: list[dict[str, str]] = []
    sets = (
        ("attack", ATTACKS, OBFUSCATIONS),
        ("benign", {k: [("benign", *v) for v in vs] for k, vs in BENIGN.items()}, ORDINARY),
    )
    for label, texts, table in sets:
        bases = [
            (f"h-{label}-{family}-{language}-{n:03d}", language, family, form, text)
            for language, items in texts.items()
            for n, (family, form, text) in enumerate(items)
        ]
        cell = {b[0]: b[2] if label == "attack" else b[3] for b in bases}
        side = halves([(b[0], b[1], cell[b[0]]) for b in bases], SEED)
        for base, language, family, form, text in bases:
            rng = random.Random(f"{SEED}:{base}")
            for kind in ("carrier" if rng.random() < 0.4 else "", drawn(table, rng, language)):
                name = f"{form}+{kind}" if kind else form
                body = disguise(text, kind, rng, side[base], label) if kind else text
                out.append({
                    "id": f"{base}-{name}", "label": label, "family": family, "language": language,
                    "disguise": name, "split": side[base], "text": body,
                })  # fmt: skip
    return out


def main() -> None:
    written = rows()
    if len({r["id"] for r in written}) != len(written):
        raise SystemExit("two rows share an id")
    if len({r["text"] for r in written}) != len(written):
        raise SystemExit("a disguise left a text as it was")
    with OUT.open("w", encoding="utf-8") as handle:
        for row in written:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    attacks = sum(r["label"] == "attack" for r in written)
    print(f"{OUT.name}: {attacks} attack rows, {len(written) - attacks} hard-negative rows")  # noqa: T201


if __name__ == "__main__":
    main()
