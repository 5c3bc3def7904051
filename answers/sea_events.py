"""The initial event a question about ship casualties names, as a noun ("groundings", "a
collision with another ship") or as what the ship does ("when a tanker runs aground", "ships that
catch fire", "after a ferry capsizes", "if the engine breaks down"), as a pattern over the
casualties' recorded initial event ("Stranding / grounding", "Fire or explosion")."""

from __future__ import annotations

import re

from text.patterns import LazyPattern

# A collision with no other ship in it: "collision with fixed objects", "collision to berth wall".
WITH_OBJECT = r"(?:with|to) (?:a |an |the )?(?:fixed|flo|submerged|channel|berth|pier|quay|buoy)"
#: What the records' initial events say for an event named otherwise (a pattern).
EVENT_RECORDS = {
    "sinking or foundering": "sinking|sank|founder",
    "contact": rf"contact|allision|collision {WITH_OBJECT}",
}
# "a collision with another ship": the collisions of ships, not those with a quay or a buoy
_SHIP_COLLISION = LazyPattern(
    r"collisions?\s+(?:with\s+(?:another|other)\s+(?:ships?|vessels?)|between\s+(?:two\s+)?ships)",
    re.IGNORECASE,
)
_STRUCTURE = r"(?:a|the)\s+(?:quay|pier|berth|bridge|jetty|dock|wharf|breakwater|lock)"
#: (the event as the answer names it, how a question says it), the first one said wins.
EVENTS = (
    ("collision", r"collisions?|collid(?:e|es|ed|ing)"),
    ("grounding", r"groundings?|grounded|strand(?:s|ed|ing|ings)?|aground"),
    (
        "fire or explosion",
        r"fires?|explosions?|explod(?:e|es|ed|ing)|(?:catch(?:es|ing)?|caught)\s+fire|blazes?",
    ),
    ("capsizing", r"capsiz\w*|listing|(?:turn|roll|keel)(?:s|ed|ing)?\s+over"),
    ("contact", rf"contacts?|allisions?|(?:hits?|hitting|strikes?|striking|struck)\s+{_STRUCTURE}"),
    (
        "machinery",
        r"machinery|engine\s+(?:failure|damage)|engines?\s+(?:fails?|failed|breaks?\s+down)"
        r"|(?:breaks?|broke|breaking)\s+down|(?:loses?|lost|losing)\s+(?:power|propulsion)",
    ),
    # sinking names the event only as the event ("began with sinking", "when a ship sinks"),
    # else it is an outcome ("ships that sank": the total loss of the ship)
    (
        "sinking or foundering",
        r"founder\w*|(?:began|started|starting|beginning)\s+with\s+(?:a\s+)?sinking"
        r"|sinking\s+as\s+the\s+(?:initial|first)\s+event|sinks",
    ),
    ("overboard", r"(?:fell|falling|fall|lost|went|going)\s+overboard|overboard"),
    ("flooding", r"flooding|flooded"),
    ("hull failure", r"hull\s+(?:failures?|fail(?:s|ed|ing)?)"),
    # the ship went missing, not people ("crew dead or missing" is no event)
    (
        "missing",
        r"(?<!dead or )(?<!die or )(?<!go )(?<!gone )missing(?!\s+(?:people|persons|crew))"
        r"|disappeared",
    ),
)


def initial_event(question: str) -> tuple[str, str] | None:
    """The initial event a question names, as (its name, a pattern over recorded initial
    events, lower case); None when it names none."""
    for event, said in EVENTS:
        if re.search(rf"\b(?:{said})\b", question, re.IGNORECASE):
            recorded = EVENT_RECORDS.get(event, event.split(" or ")[0])
            if event == "collision" and _SHIP_COLLISION.search(question):
                recorded = rf"^collision(?! {WITH_OBJECT})"
            return event, recorded
    return None
