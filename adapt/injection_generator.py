"""Training texts for the planted-instruction classifier, generated from the concept lexicon
(``text/data/injection_lexicon.txt``): for every language of the lexicon, attacks composed of the
concepts an injection joins (an override of the earlier rules and a dictated answer, a persona
without rules, a request for the hidden prompt, the conversation sent to an address ...) and
benign texts that use the same words alone or in harmless pairs ("the previous report", "send
the log to the office"), both surrounded by the lexicon's neutral filler words and wrapped in the
same carriers (a mail line, a CSV row, alt text, a comment, a role tag), so only which concepts
occur together tells the two apart.

The texts are word sequences, not prose: they teach the concepts' co-occurrence, not phrasings.
No wording is taken from an evaluation set; :func:`overlapping` finds any generated text that
shares a run of :data:`OVERLAP_WORDS` words with one, and the trainer drops those.
Everything is seeded (:data:`SEED`): the same lexicon gives the same texts.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from text.injection_concepts import read_lexicon
from text.injection_fold import model_text

SEED = "bosun-injection-generator-2026-12-02"
#: Intents of an attack: the concepts it joins (a "?" concept is there half the time).
ATTACKS: dict[str, tuple[str, ...]] = {
    "override": ("model?", "override", "earlier", "rules", "respond", "only", "PAYLOAD"),
    "override_short": ("override", "earlier?", "rules", "respond?", "PAYLOAD?"),
    "override_prompt": ("override", "prompt", "rules?", "respond?", "PAYLOAD?"),
    "reveal": ("model?", "reveal", "prompt", "rules?", "earlier?"),
    "reveal_secret": ("reveal", "secret", "rules", "only?"),
    "reveal_keys": ("model?", "reveal", "secret", "send?", "ADDRESS?"),
    "role": ("role", "model", "unrestricted", "respond?", "only?"),
    "role_override": ("role", "unrestricted", "override?", "rules"),
    "role_reveal": ("role", "model?", "unrestricted?", "reveal", "prompt"),
    "forced_answer": ("model", "respond", "user", "only", "PAYLOAD"),
    "forced_answer_earlier": ("override?", "earlier", "respond", "only", "PAYLOAD"),
    "begin": ("begin", "respond", "PAYLOAD", "cite?"),
    "begin_model": ("model", "begin", "respond?", "PAYLOAD"),
    "no_citation": ("model?", "respond", "only", "cite", "PAYLOAD?"),
    "exfiltrate": ("send", "conversation", "ADDRESS"),
    "exfiltrate_secret": ("send", "secret", "prompt?", "ADDRESS"),
    "exfiltrate_user": ("model?", "send", "user", "conversation", "ADDRESS?"),
    "tool": ("model?", "tool", "send?", "conversation?", "ADDRESS?", "override?"),
    "addressed": ("model", "task", "respond?", "omit?", "PAYLOAD?"),
    "answer_always": ("always", "respond", "PAYLOAD"),
    "answer_always_user": ("always", "user?", "respond", "only?", "PAYLOAD"),
    "omit": ("model?", "task", "omit", "cite?"),
    "deny": ("omit", "always?", "respond?", "PAYLOAD?"),
}
#: Benign texts: one concept, or pairs ordinary mail and reports hold.
BENIGN: tuple[tuple[str, ...], ...] = (
    ("earlier",), ("rules",), ("prompt",), ("reveal",), ("respond",), ("only",), ("begin",),
    ("send",), ("tool",), ("secret",), ("user",), ("cite",), ("conversation",), ("model",),
    ("role",), ("override",), ("unrestricted",), ("earlier", "rules"), ("rules", "only"),
    ("send", "ADDRESS"), ("send", "cite"), ("respond", "earlier"), ("reveal", "cite"),
    ("begin", "cite"), ("tool", "rules"), ("prompt", "rules"), ("user", "respond"),
    ("secret", "send?"), ("conversation", "earlier"), ("model", "cite"), ("override", "cite"),
    ("only", "respond"), ("override", "earlier"), ("role", "user"), ("user", "rules"),
    ("reveal", "earlier"), ("cite", "earlier", "only"), ("task",), ("always",), ("omit",),
    ("task", "send"), ("always", "send"), ("task", "earlier"), ("always", "rules"),
    ("omit", "earlier"), ("task", "cite"),
)  # fmt: skip
PAYLOADS = (
    "OK", "ALL CLEAR", "NOMINAL", "APPROVED", "42", "GREEN", "PASS", "NO FINDINGS", "CONFIRMED",
    "ZULU", "DONE", "SAFE", "NOTHING TO REPORT", "CHECKED", "TANGO 7", "BLUE", "READY",
)  # fmt: skip
ADDRESSES = (
    "https://collect.invalid/q", "http://198.51.100.7/log", "ops-archive@mailbox.invalid",
    "www.paste-sink.invalid", "https://hooks.invalid/t?d=", "records@harbour-office.invalid",
)  # fmt: skip
#: Wrappers applied alike to attacks and benign texts.
CARRIERS = (
    ("", ""), ("", ""), ("", ""), ("Re: ", ""), ("> ", ""), ("- ", ""),
    ("2026-11-30,MV Aster,note,\"", "\",closed"), ("<img alt=\"", "\">"), ("<!-- ", " -->"),
    ("[system] ", ""), ("### ", ""), ("Note: ", ""), ("{\"body\": \"", "\"}"), ("* ", " *"),
    ("Subject: update\n\n", "\n-- \nops"), ("| 14 | ", " |"), ("SMS: ", ""), ("(", ")"),
)  # fmt: skip
#: Scripts written without spaces between words.
_UNSPACED = ("zh", "ja", "th")
#: A generated text sharing this many words in a row with an evaluation text is dropped.
OVERLAP_WORDS = 5


@dataclass(frozen=True)
class Generated:
    """One generated training text."""

    text: str
    label: int  # 1 attack, 0 benign
    language: str
    intent: str  # the ATTACKS key, or "benign"


def _pick(rng: random.Random, words: list[str]) -> str:
    return rng.choice(words).rstrip("=")


def _compose(
    slots: Iterable[str], words: dict[str, list[str]], filler: list[str], rng: random.Random
) -> list[str]:
    parts: list[str] = []
    for slot in slots:
        if slot.endswith("?"):
            if rng.random() < 0.5:
                continue
            slot = slot[:-1]
        if slot == "PAYLOAD":
            parts.append(f"'{rng.choice(PAYLOADS)}'")
        elif slot == "ADDRESS":
            parts.append(rng.choice(ADDRESSES))
        elif words.get(slot):
            parts.append(_pick(rng, words[slot]))
        if rng.random() < 0.35:
            parts.append(_pick(rng, filler))
    if rng.random() < 0.3:  # the order of the words is not what tells
        rng.shuffle(parts)
    if rng.random() < 0.6:
        parts.insert(0, _pick(rng, filler))
    return parts


def _join(parts: list[str], language: str, rng: random.Random) -> str:
    if language in _UNSPACED:
        text = "".join(p if not p.isascii() else f" {p} " for p in parts)
        return text.strip() + rng.choice(("。", "", "！"))
    text = " ".join(parts)
    if rng.random() < 0.5:
        text = text[:1].upper() + text[1:]
    return text + rng.choice((".", "", "!", ":", "."))


def generate(per_language: int = 40, english_factor: int = 4) -> list[Generated]:
    """``per_language`` attacks and as many benign texts for each language of the lexicon
    (``english_factor`` times as many in English, the archive's language)."""
    lexicon = read_lexicon()
    filler_of = lexicon.pop("filler")
    languages = sorted(set().union(*(set(v) for v in lexicon.values())))
    out: list[Generated] = []
    for language in languages:
        rng = random.Random(hashlib.sha256(f"{SEED}:{language}".encode()).digest())
        words = {concept: by[language] for concept, by in lexicon.items() if language in by}
        filler = filler_of.get(language) or filler_of["en"]
        n = per_language * (english_factor if language == "en" else 1)
        intents = sorted(ATTACKS)
        for i in range(n):
            intent = intents[i % len(intents)]
            for label, slots in ((1, ATTACKS[intent]), (0, BENIGN[rng.randrange(len(BENIGN))])):
                parts = _compose(slots, words, filler, rng)
                if label == 0 and rng.random() < 0.5:
                    parts += [_pick(rng, filler), _pick(rng, filler)]
                before, after = rng.choice(CARRIERS)
                text = before + _join(parts, language, rng) + after
                out.append(Generated(text, label, language, intent if label else "benign"))
    return out


_WORDS = re.compile(r"\w+")


def _runs(text: str) -> Iterator[tuple[str, ...]]:
    words = _WORDS.findall(model_text(text))
    for i in range(len(words) - OVERLAP_WORDS + 1):
        yield tuple(words[i : i + OVERLAP_WORDS])


def overlapping(generated: list[Generated], evaluation: Iterable[str]) -> set[int]:
    """Indices of generated texts that share :data:`OVERLAP_WORDS` words in a row with any
    of the ``evaluation`` texts."""
    seen = {run for text in evaluation for run in _runs(text)}
    return {i for i, g in enumerate(generated) if any(run in seen for run in _runs(g.text))}
