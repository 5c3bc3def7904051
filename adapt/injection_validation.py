"""How the planted-instruction classifier generalises, measured without in-sample scores: fitted
again with one part of the labelled texts left out, and scored on that part only.

- leave one *set* out (A to H, the training phrasings): the
  nearest measure of a writer the classifier never saw;
- leave one *language family* out (Romance, Germanic, Slavic ...): every labelled and generated
  text of those languages is dropped from training, so the family is read only through what the
  lexicon and the other languages taught;
- leave one *attack family* out (override, role play, reveal ...): the sets' texts of that family
  and the generated texts of the matching intents are dropped.

Each held-out set entry counts once (recognised when any of its readings, plain or decoded, is);
"classifier" is the refitted classifier alone at the shipped threshold; "detector" adds what the
hand-written phrasings find and the cues of meaning the refitted classifier supports (at the
shipped support), as
:func:`text.injection.find_injections` joins them (whole texts, not windows). Real archive
windows stay in every training fold (their false positives are measured by the benchmark).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from adapt.injection_matrix import Csr, matrix, rows_of
from adapt.shipped_injection_model import (
    Example,
    by_entry,
    fit,
    marked,
    probabilities,
)

#: Language families for leaving one out (ISO 639-1 codes; "mixed": several in one text).
LANGUAGE_FAMILIES = {
    "en": "English",
    **dict.fromkeys(("fr", "es", "pt", "it", "ro"), "Romance"),
    **dict.fromkeys(("de", "nl", "sv", "da", "no"), "Germanic"),
    **dict.fromkeys(("pl", "cs", "sk", "ru", "uk", "bg", "hr"), "Slavic"),
    **dict.fromkeys(("fi", "hu"), "Uralic"),
    "el": "Greek",
    "tr": "Turkic",
    **dict.fromkeys(("ar", "he", "fa"), "Arabic, Hebrew, Persian"),
    **dict.fromkeys(("hi", "bn"), "Indic"),
    **dict.fromkeys(("zh", "ja", "ko"), "Chinese, Japanese, Korean"),
    **dict.fromkeys(("vi", "id", "ms", "th", "tl"), "South-East Asian"),
    "sw": "Swahili",
    "mixed": "mixed languages",
}
#: The sets' attack family each generated intent belongs to (left out with it).
INTENT_FAMILIES = {
    "override": "override", "override_short": "override", "override_prompt": "override",
    "reveal": "reveal", "reveal_secret": "reveal", "reveal_keys": "reveal",
    "role": "role_play", "role_override": "role_play", "role_reveal": "role_play",
    "forced_answer": "output_forcing", "forced_answer_earlier": "output_forcing",
    "no_citation": "output_forcing", "begin": "start_with", "begin_model": "start_with",
    "exfiltrate": "exfiltration", "exfiltrate_secret": "exfiltration",
    "exfiltrate_user": "exfiltration", "tool": "tool_call", "addressed": "addressed",
    "answer_always": "output_forcing", "answer_always_user": "output_forcing",
    "omit": "output_forcing", "deny": "output_forcing", "delete": "delete",
    "obey_doc": "obey_doc", "persist": "persist", "persist_model": "persist",
    "reader": "addressed", "reader_send": "exfiltration", "modify": "action",
}  # fmt: skip
#: Sets' names for the same attack family, read as one.
FAMILY_ALIASES = {
    "answer_hijack": "output_forcing", "prompt_reveal": "reveal", "prompt_leak": "reveal",
    "exfil": "exfiltration", "persona": "role_play", "output": "output_forcing",
}  # fmt: skip
_SCORED = ("attack", "hard")
Key = Callable[[Example], str | None]


def by_set(e: Example) -> str | None:
    return e.source if e.kind in _SCORED and e.source != "off_topic" else None


def by_language(e: Example) -> str | None:
    """The language family; None (always trained on, never scored) for real text and for hard
    negatives whose set does not say their language; "unknown" (never trained on when a family
    is left out, never scored) for attacks whose set does not say it."""
    family = LANGUAGE_FAMILIES.get(e.language)
    if e.kind == "real" or (family is None and e.label == 0):
        return None
    return family or "unknown"


def by_family(e: Example) -> str | None:
    if e.kind == "generated":
        return INTENT_FAMILIES.get(e.family) if e.label else None
    return FAMILY_ALIASES.get(e.family, e.family) if e.kind == "attack" else None


KEYS: dict[str, Key] = {"set": by_set, "language family": by_language, "attack family": by_family}
#: A writer never seen: each set scored by a classifier fitted on the sets written before it
#: only (``(scored, not trained on)``: A to D for E; A to E for F; A to F for G; A to G for H).
WRITERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("injections_e", frozenset({"injections_f", "injections_g", "injections_h"})),
    ("injections_f", frozenset({"injections_g", "injections_h"})),
    ("injections_g", frozenset({"injections_h"})),
    ("injections_h", frozenset()),
)


def by_writer(scored: str, later: frozenset[str]) -> Key:
    """The key that scores ``scored`` and neither trains on nor scores the ``later`` sets."""

    def key(e: Example) -> str | None:
        if e.source in later:
            return "unknown"
        return scored if e.source == scored and e.kind in _SCORED else None

    return key


def leave_out(
    examples: list[Example],
    key: Key,
    cutoffs: tuple[float, float],
    hits: dict[str, tuple[bool, bool]],
    epochs: int = 150,
    csr: Csr | None = None,
) -> list[list[object]]:
    """One row per held-out group: attacks (entries), recognised by the classifier and by the
    detector, hard negatives (entries), flagged by each (``csr``: the examples'
    :func:`adapt.injection_matrix.matrix`, read once for every fit)."""
    groups = sorted({g for e in examples if e.kind in _SCORED and (g := key(e)) is not None})
    csr = matrix(examples) if csr is None else csr
    keys = [key(e) for e in examples]
    rows: list[list[object]] = []
    for group in groups:
        if group == "unknown":
            continue
        trained = np.array([k not in (group, "unknown") for k in keys])
        scored = np.array(
            [e.kind in _SCORED and k == group for e, k in zip(examples, keys, strict=True)]
        )
        train = [e for e, t in zip(examples, trained, strict=True) if t]
        test = [e for e, t in zip(examples, scored, strict=True) if t]
        w, b = fit(train, epochs=epochs, csr=rows_of(csr, trained))
        best = by_entry(test, np.asarray(probabilities(test, w, b, csr=rows_of(csr, scored))))
        rows.append([group, *_rates(best, hits, cutoffs)])
    return rows


def _rates(
    best: dict[str, tuple[int, float]],
    hits: dict[str, tuple[bool, bool]],
    cutoffs: tuple[float, float],
) -> list[object]:
    flags = marked(best, hits, *cutoffs)
    out: list[object] = []
    for label in (1, 0):
        entries = [(entry, p) for entry, (lab, p) in best.items() if lab == label]
        classifier = sum(p >= cutoffs[0] for _, p in entries)
        detector = sum(flags[entry] for entry, _ in entries)
        n = len(entries)
        out += [n, _pct(classifier, n), _pct(detector, n)]
    return out


def _pct(hit: int, n: int) -> str | None:
    return f"{hit / n:.1%}" if n else None


def tables(
    examples: list[Example],
    cutoffs: tuple[float, float],
    hits: dict[str, tuple[bool, bool]],
    keys: Iterable[str] = (*KEYS, "writer"),
    epochs: int = 150,
) -> dict[str, list[list[object]]]:
    """The leave-one-out rows for each of ``keys`` (of :data:`KEYS`, and ``writer``:
    :data:`WRITERS`) at the shipped ``cutoffs`` (threshold, cue support), ``epochs`` per fit."""
    found: dict[str, list[list[object]]] = {}
    present = {e.source for e in examples}
    csr = matrix(examples)
    for name in keys:
        if name != "writer":
            found[name] = leave_out(examples, KEYS[name], cutoffs, hits, epochs, csr)
            continue
        found[name] = [
            row
            for scored, later in WRITERS
            if scored in present
            for row in leave_out(examples, by_writer(scored, later), cutoffs, hits, epochs, csr)
        ]
    return found


COLUMNS = [
    "held out", "attacks", "classifier", "detector", "hard negatives", "classifier flagged",
    "detector flagged",
]  # fmt: skip


def mean_recognition(rows: list[list[object]]) -> float:
    """The detector's recognition over all held-out attacks of one table."""
    n = sum(int(r[1]) for r in rows)  # type: ignore[call-overload]
    hit = sum(int(r[1]) * float(str(r[3]).rstrip("%")) / 100 for r in rows if r[3])  # type: ignore[call-overload]
    return float(np.round(hit / max(n, 1), 4))
