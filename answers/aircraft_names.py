"""Aircraft people call by a model's name, not its make and designator ("Bonanzas", "Piper
Cubs", "a Skyhawk"), as the make and the pattern over the records' models they stand for
(:func:`answers.count_filters.model_pattern`'s form: spaces and hyphens written "-")."""

from __future__ import annotations

import re

#: (how it is said, the make, a pattern over the model, the name the answer gives).
NAMES = (
    (r"skyhawks?", "CESSNA", r"^172(?![0-9])", "Cessna 172 Skyhawk"),
    (r"skylanes?", "CESSNA", r"^182(?![0-9])", "Cessna 182 Skylane"),
    (r"caravans?", "CESSNA", r"^208(?![0-9])", "Cessna 208 Caravan"),
    (r"citations?", "CESSNA", r"^5[0-9]{2}(?![0-9])", "Cessna Citation"),
    (r"cherokees?", "PIPER|NEW PIPER", r"^PA-?28(?![0-9])", "Piper PA-28 Cherokee"),
    (r"super[\s-]?cubs?", "PIPER|NEW PIPER", r"^PA-?18(?![0-9])", "Piper PA-18 Super Cub"),
    (r"cubs?", "PIPER|NEW PIPER", r"^(?:J-?3|PA-?11|PA-?18)(?![0-9])", "Piper Cub"),
    (
        r"bonanzas?",
        "BEECH|BEECHCRAFT|HAWKER BEECHCRAFT|HAWKER-BEECHCRAFT",
        r"^(?:[A-Z]-?)?3[356](?![0-9])",
        "Beech Bonanza",
    ),
    (
        r"barons?",
        "BEECH|BEECHCRAFT|HAWKER BEECHCRAFT|HAWKER-BEECHCRAFT",
        r"^(?:95-)?(?:[A-Z]-?)?5[58](?![0-9])",
        "Beech Baron",
    ),
    (
        r"king\s*airs?",
        "BEECH|BEECHCRAFT|HAWKER BEECHCRAFT|HAWKER-BEECHCRAFT",
        r"^(?:[A-Z]-?)?(?:90|100|200|300|350)(?![0-9])",
        "Beech King Air",
    ),
)


def named_model(question: str) -> tuple[str, str, str] | None:
    """The make, model pattern and name of the aircraft a question calls by its model's name;
    None when it calls none so ("a Cessna 172" names its make and designator instead). A name
    is read as one only capitalised ("Barons", not "oil barons' cubs")."""
    for said, make, model, name in NAMES:
        found = re.search(rf"\b(?:{said})\b", question, re.IGNORECASE)
        if found and found[0][0].isupper():
            return make, model, name
    return None


def plural_model(question: str) -> bool:
    """Whether a question calls aircraft by a model's name in the plural ("Bonanzas")."""
    return named_model(question) is not None and any(
        re.search(rf"\b{said.replace('s?', 's')}\b", question, re.IGNORECASE)
        for said, *_ in NAMES
        if said.endswith("s?")
    )
