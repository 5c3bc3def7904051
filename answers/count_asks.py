"""Where a count question says "how many": first ("How many accidents in Hawaii?") or after the
records it counts ("Hawaii, 2010 to 2012 - how many accidents?", "Groundings of Greek-flagged
ships: how many are recorded?", "ferry flights: number of accidents?").

A question asked last is read again with its asking clause first, so the count's own reading
(:func:`answers.counting.count_plan`) sees the head and the counted records in their usual order;
the filters are still read from the whole question. A clause before the separator that is itself
a question ("What caused the crash, how many people died?") is not the records counted.
"""

from __future__ import annotations

import re

from text.patterns import LazyPattern

_ASKED_LAST = LazyPattern(
    r"^(?P<topic>.+?)\s*(?:[:;\u2013\u2014]|\s-+\s|,)\s*"
    r"(?P<head>how\s+many|(?:the\s+)?(?:total\s+)?number\s+of|tally(?:\s+of)?|count\s+of)\b"
    r"(?P<tail>[^?]*)\?*\s*$",
    re.IGNORECASE,
)
#: A clause that asks something itself: the records counted never start so.
_QUESTION = LazyPattern(
    r"^\s*(?:what|why|who|whom|whose|when|where|which|how|did|does|do|was|were|is|are|can|"
    r"could|would|should|has|have|had)\b",
    re.IGNORECASE,
)


def head_first(question: str) -> list[str]:
    """``question`` with its asking clause moved first, counted words then the records ("how many
    accidents Hawaii, 2010 to 2012") and records then words ("how many Groundings of
    Greek-flagged ships are recorded"); empty when it does not ask last."""
    match = _ASKED_LAST.match(question)
    if match is None or _QUESTION.match(match["topic"]):
        return []
    head, topic, tail = match["head"], match["topic"].strip(), match["tail"].strip()
    return [" ".join(f"{head} {tail} {topic}".split()), " ".join(f"{head} {topic} {tail}".split())]


__all__ = ["head_first"]
