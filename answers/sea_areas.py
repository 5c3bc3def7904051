"""Sea areas a question about ship casualties may name ("collisions in the North Sea", "ships in
the Baltic"), each as a pattern over the casualty's recorded location, which writes the area by
its name ("North sea", "Baltic sea, port Klaipeda", "GULF OF MEXICO 20 MILES SOUTH OF …").

An area named by several names (the Persian or Arabian Gulf, the Strait of Istanbul or the
Bosphorus) matches a location that uses any of them. An area's words are not a flag: "South China
Sea" names no Chinese ship, "Gulf of Mexico" no Mexican one (:func:`without_areas`).
"""

from __future__ import annotations

import re

from text.patterns import LazyPattern

#: (the area as the answer names it, its names as a pattern), the longer names first.
SEA_AREAS = (
    ("the South China Sea", r"south\s+china\s+sea"),
    ("the East China Sea", r"east\s+china\s+sea"),
    ("the North Sea", r"north\s+sea"),
    ("the Baltic", r"baltic"),
    ("the Mediterranean", r"mediterranean"),
    ("the Black Sea", r"black\s+sea"),
    ("the Red Sea", r"red\s+sea"),
    ("the Yellow Sea", r"yellow\s+sea"),
    ("the Sea of Japan", r"sea\s+of\s+japan"),
    ("the Java Sea", r"java\s+sea"),
    ("the Arabian Sea", r"arabian\s+sea"),
    ("the Andaman Sea", r"andaman\s+sea"),
    ("the Bay of Bengal", r"bay\s+of\s+bengal"),
    ("the Bay of Biscay", r"bay\s+of\s+biscay|biscay"),
    ("the Persian Gulf", r"persian\s+gulf|arabian\s+gulf"),
    ("the Gulf of Oman", r"gulf\s+of\s+oman"),
    ("the Gulf of Aden", r"gulf\s+of\s+aden"),
    ("the Gulf of Mexico", r"gulf\s+of\s+mexico"),
    ("the Gulf of Finland", r"gulf\s+of\s+finland"),
    ("the Gulf of Guinea", r"gulf\s+of\s+guinea"),
    ("the Caribbean", r"caribbean"),
    ("the English Channel", r"english\s+channel"),
    ("the Irish Sea", r"irish\s+sea"),
    ("the Adriatic", r"adriatic"),
    ("the Aegean", r"aegean"),
    ("the Bering Sea", r"bering\s+sea"),
    ("the Barents Sea", r"barents\s+sea"),
    ("the Tasman Sea", r"tasman\s+sea"),
    ("the Caspian Sea", r"caspian"),
    ("the Kattegat", r"kattegat"),
    ("the Skagerrak", r"skagerr?ak"),
    ("the Strait of Malacca", r"malacca"),
    ("the Singapore Strait", r"singapore\s+straits?|straits?\s+of\s+singapore"),
    ("the Dover Strait", r"dover\s+straits?|straits?\s+of\s+dover"),
    ("the Strait of Gibraltar", r"straits?\s+of\s+gibraltar|gibraltar\s+straits?"),
    ("the Bosphorus", r"bosp(?:h)?orus|strait\s+of\s+istanbul|istanbul\s+strait"),
    ("the Dardanelles", r"dardanelles|canakkale\s+strait"),
    ("the Sea of Okhotsk", r"(?:sea\s+of\s+)?okhotsk"),
    ("the Indian Ocean", r"indian\s+ocean"),
    ("the North Atlantic", r"north\s+atlantic"),
    ("the South Atlantic", r"south\s+atlantic"),
    ("the North Pacific", r"north\s+pacific"),
    ("the South Pacific", r"south\s+pacific"),
    ("the Atlantic", r"atlantic"),
    ("the Pacific", r"pacific(?!\s+(?:coast|northwest))"),
)
#: A place a casualty happened off or near, as the question names it: "near Singapore", "off
#: the coast of China", "in the port of Rotterdam" (its recorded location names it).
_PLACE = LazyPattern(
    r"\b(?:(?:off|near|around|outside)\s+(?:the\s+(?:coast|coasts|shores?|waters?|port)\s+"
    r"(?:of|off)\s+)?|in\s+the\s+(?:port|harbou?r|waters?)\s+(?:of|off)\s+)"
    r"(?P<place>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})"
)


def area_in(question: str) -> tuple[str, str] | None:
    """The sea area a question names, as (its name, a pattern over recorded locations, which
    PostgreSQL's regular expressions read as Python's do: no ``\\b``); None
    when it names none. The first area named wins."""
    found = [
        (m.start(), name, pattern)
        for name, pattern in SEA_AREAS
        if (m := re.search(rf"\b(?:{pattern})\b", question, re.IGNORECASE))
    ]
    if not found:
        return None
    _, name, pattern = min(found)
    return name, pattern


def place_in(question: str) -> tuple[str, str] | None:
    """A place a question asks about casualties off or near, as (the words that say so, a
    pattern over recorded locations); None when it names none."""
    match = _PLACE.search(question)
    if match is None:
        return None
    words = match["place"].split()
    return f"near {' '.join(words)}", r"\s+".join(re.escape(w.lower()) for w in words)


def without_areas(question: str) -> str:
    """``question`` with the sea areas it names blanked out (their words name no flag)."""
    for _, pattern in SEA_AREAS:
        question = re.sub(rf"\b(?:{pattern})\b", " ", question, flags=re.IGNORECASE)
    return question
