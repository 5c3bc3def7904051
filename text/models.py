"""Model names written several ways: "P-51D", "P51D" and "P 51D" are one aircraft, and a user's
"P-51" names the P-51D; "B-737" is the Boeing 737, "A380" the A-380. Retrieval searches a
question's model names in their other written forms (:func:`with_model_forms`; a name the
collection holds as written is searched as written only), and the claim that the archive lacks a
name is checked against the same forms (:func:`mentions_model`)."""

from __future__ import annotations

import re
from collections.abc import Collection

#: A model name: letters, digits and a variant suffix, joined by nothing, a hyphen or a space
#: ("P-51D", "PA-28-140", "ASW 27", "737-800", "R44"). Group 1 letters, 2 digits, 3 suffix,
#: 4 the sub-model ("-140").
_MENTION = re.compile(
    r"(?<![A-Za-z0-9-])(?:([A-Za-z]{1,4})(?:-|(?<=[A-Z])\s(?=\d))?)?(\d{1,4})([A-Za-z]{0,3})"
    r"((?:-\d{1,4}[A-Za-z]{0,2})*)(?![A-Za-z0-9])"
)
#: A maker's word before a model number ("Boeing 737", "Airbus 380"): its initial is the
#: model's prefix ("B-737", "A380").
_MAKER_NUMBER = re.compile(r"\b([A-Za-z])[a-z]{2,}[\s-]+(\d{2,4})(?![A-Za-z0-9])", re.IGNORECASE)
_FOLD = re.compile(r"[\s\-./]")
#: A model name whose number is followed by a word ("B200mini", "X300mini"): text also writes
#: the word apart ("B200 mini", "B200-mini"), which English text search reads as two.
_WORD_SUFFIX = re.compile(r"(?P<name>[A-Za-z]+[0-9]+)(?P<word>[A-Za-z]{3,})")


def model_key(name: str) -> str:
    """``name`` folded for comparison: case, hyphens, spaces and dots dropped ("P-51" -> "p51")."""
    return _FOLD.sub("", name).casefold()


def is_model_name(word: str) -> bool:
    """Whether ``word`` reads as a model name: letters and digits together ("P-51", "A380",
    "172H"), not a plain number or a word."""
    return bool(re.search(r"\d", word)) and bool(re.search(r"[A-Za-z]", word))


def model_keys(text: str) -> set[str]:
    """Every folded form under which ``text`` names a model: whole ("p51d"), without its
    variant letters ("p51"), without its sub-model ("pa28" of "PA-28-140"), by the maker's
    initial ("b737" of "Boeing 737")."""
    keys: set[str] = set()
    for m in _MENTION.finditer(text):
        letters, digits, suffix, sub = (m[1] or "").casefold(), m[2], m[3].casefold(), m[4]
        if not letters and not suffix and not sub and len(digits) < 3:
            continue  # "12", "45": a count, not a model
        for head in {letters, ""} if len(digits) >= 3 or not letters else {letters}:
            keys |= {head + digits, head + digits + suffix, model_key(head + digits + suffix + sub)}
    for m in _MAKER_NUMBER.finditer(text):
        keys.add(m[1].casefold() + m[2])
    return keys


def model_mentions(text: str) -> list[tuple[int, int, str]]:
    """The model names ``text`` holds: (start, end, name as written); a plain number of fewer
    than three digits is none."""
    return [
        (m.start(), m.end(), m[0])
        for m in _MENTION.finditer(text)
        if m[1] or m[3] or m[4] or len(m[2]) >= 3
    ]


def mentions_model(name: str, text_keys: set[str]) -> bool:
    """Whether a text whose :func:`model_keys` are ``text_keys`` names the model ``name``."""
    return model_key(name) in text_keys


def model_forms(name: str) -> list[str]:
    """Other ways to write the model ``name`` ("P-51" -> "P51", "P 51"; "ASW 27" -> "ASW-27",
    "ASW27"); [] when it is no model name."""
    m = _MENTION.fullmatch(name.strip())
    if m is None or not m[1]:
        return []
    letters, rest = m[1], m[2] + m[3] + m[4]
    forms = [f"{letters}-{rest}", f"{letters}{rest}", f"{letters} {rest}"]
    return [f for f in dict.fromkeys(forms) if f != name.strip()]


def written_forms(word: str) -> list[str]:
    """The other ways ``word`` is written that text search tells apart, each as a phrase: "B200
    mini" (which also matches "B200-mini") for "B200mini"; [] for other words."""
    match = _WORD_SUFFIX.fullmatch(word)
    return [f"{match['name']} {match['word']}"] if match else []


def searched_model_names(text: str) -> list[str]:
    """The model names of ``text`` that :func:`with_model_forms` searches in other forms, as
    written ("R-66", "PA28"), once each."""
    return list(
        dict.fromkeys(m[0] for m in _MENTION.finditer(text) if m[1] and is_model_name(m[0]))
    )


def with_model_forms(text: str, held: Collection[str] = ()) -> str:
    """``text`` followed by the other written forms of the model names it holds (what a search
    matches words by: "R-66" finds the record that says "R66"), except the names in ``held``:
    those the collection already holds as written, which their other forms would only dilute
    ("PD-1" searched as "PD1" too lowered SciFact's BM25)."""
    extra: list[str] = []
    for name in searched_model_names(text):
        if name not in held:
            extra += [f for f in model_forms(name) if " " not in f and f not in text]
    return f"{text} {' '.join(dict.fromkeys(extra))}" if extra else text
