"""Flag states a question names: "flagged in Panama", "Liberian-flagged", "under the flag of
Malta", "registered in France or Antigua and Barbuda", "Hong Kong-registered", "Greek tankers",
read as ISO 3166 alpha-3 codes."""

from __future__ import annotations

import pycountry

from text.patterns import LazyPattern

_FLAG = LazyPattern(
    r"\b(?:flagged\s+(?:in|by|to|under)\s+(?:the\s+)?|under\s+(?:the\s+)?flag\s+of\s+(?:the\s+)?|"
    r"flag(?:\s+state)?\s+(?:of\s+)?(?:the\s+)?|registered\s+in\s+(?:the\s+)?)"
    # "the Isle of Man", "Antigua and Barbuda", "Saint Vincent and the Grenadines"
    r"(?P<after>[A-Z][\w.'-]*(?:\s+(?:(?:and|of)\s+(?:the\s+)?)?[A-Z][\w.'-]*){0,3})"
    r"|(?P<before>[A-Z][\w.'-]*(?:\s+(?:and\s+(?:the\s+)?)?[A-Z][\w.'-]*){0,2})"
    r"[- ](?:flag(?:ged)?|registered)\b",
)
#: What people call flag states that pycountry names otherwise.
FLAG_ALIASES = {
    "russia": "RUS",
    "south korea": "KOR",
    "korea": "KOR",
    "north korea": "PRK",
    "north korean": "PRK",
    "iran": "IRN",
    "vietnam": "VNM",
    "syria": "SYR",
    "tanzania": "TZA",
    "bolivia": "BOL",
    "venezuela": "VEN",
    "moldova": "MDA",
    "taiwan": "TWN",
    "st vincent": "VCT",
    "saint vincent": "VCT",
    "st. vincent": "VCT",
    "uk": "GBR",
    "britain": "GBR",
    "great britain": "GBR",
    "united kingdom": "GBR",
    "us": "USA",
    "usa": "USA",
    "united states": "USA",
    "america": "USA",
    "holland": "NLD",
    "the netherlands": "NLD",
    "turkey": "TUR",
    "south korean": "KOR",
    "hong kong": "HKG",
}
#: What people call a flag state's ships ("Liberian-flagged", "Greek tankers").
DEMONYMS = {
    demonym: code
    for code, names in {
        "LBR": "liberian",
        "PAN": "panamanian",
        "MLT": "maltese",
        "BHS": "bahamian",
        "CYP": "cypriot",
        "GBR": "british",
        "RUS": "russian",
        "NOR": "norwegian",
        "GRC": "greek",
        "CHN": "chinese",
        "JPN": "japanese",
        "NLD": "dutch",
        "DEU": "german",
        "DNK": "danish",
        "ITA": "italian",
        "TUR": "turkish",
        "KOR": "korean south-korean",
        "USA": "american",
        "SGP": "singaporean singapore-flagged",
        "ATG": "antiguan",
        "MHL": "marshallese",
        "IND": "indian",
        "FRA": "french",
        "ESP": "spanish",
        "PHL": "filipino philippine",
        "IDN": "indonesian",
        "VNM": "vietnamese",
        "KHM": "cambodian",
        "BLZ": "belizean",
        "HND": "honduran",
        "CAN": "canadian",
        "SWE": "swedish",
        "FIN": "finnish",
        "PRT": "portuguese",
        "UKR": "ukrainian",
        "POL": "polish",
        "HKG": "hong-kong",
        "VCT": "vincentian",
        "IMN": "manx",
        "IRL": "irish",
    }.items()
    for demonym in names.split()
}
FLAG_ALIASES |= DEMONYMS
# A demonym right before the ships it qualifies: "Greek tankers", "Liberian bulk carriers".
_DEMONYM_SHIPS = LazyPattern(
    r"\b([A-Z][a-z]+)\s+(?=(?:[\w-]+\s+){0,2}?(?:ships?|vessels?|tankers?|carriers?|ferries|"
    r"trawlers?|freighters?|boats?|fleet)\b)"
)


def flag_in(question: str) -> str | None:
    """The ISO alpha-3 code of the flag state a question names ("flagged in Panama": PAN)."""
    return next(iter(flags_in(question)), None)


def flags_in(question: str) -> tuple[str, ...]:
    """The flag states a question names, each once: "flagged in France or Antigua and Barbuda"
    names two (FRA, ATG)."""
    found: list[str] = []
    for match in _FLAG.finditer(question):
        if code := _longest_country((match["after"] or match["before"] or "").split()):
            found.append(code)
        at = match.end() if match["after"] else len(question)
        while (other := _OR_FLAG.match(question, at)) and (
            code := _longest_country(other[1].split())
        ):
            found.append(code)
            at = other.end()
    found += [
        DEMONYMS[m[1].lower()]
        for m in _DEMONYM_SHIPS.finditer(question)
        if m[1].lower() in DEMONYMS
    ]
    return tuple(dict.fromkeys(found))


# The flags after the first one: "... or Antigua and Barbuda", "..., Malta or Cyprus".
_OR_FLAG = LazyPattern(
    r"(?:\s*,\s*|\s+or\s+)(?:the\s+)?([A-Z][\w.'-]*(?:\s+(?:and\s+(?:the\s+)?)?[A-Z][\w.'-]*){0,3})"
)


def _longest_country(words: list[str]) -> str | None:
    for n in range(len(words), 0, -1):  # "Panama in 2011": the longest name that is one
        code = country_code(" ".join(words[:n]))
        if code:
            return code
    return None


def country_code(name: str) -> str | None:
    """ISO alpha-3 code of a country name, alias or code; None when it names no country."""
    key = name.strip(" .,").lower()
    if key in FLAG_ALIASES:
        return FLAG_ALIASES[key]
    if len(key) == 3 and pycountry.countries.get(alpha_3=key.upper()):
        return key.upper()
    for country in pycountry.countries:
        names = (getattr(country, f, "") for f in ("name", "common_name", "official_name"))
        if key in {n.lower() for n in names if n}:
            return str(country.alpha_3)
    return None


def country_name(code: str) -> str:
    found = pycountry.countries.get(alpha_3=code)
    return str(getattr(found, "common_name", None) or found.name) if found else code
