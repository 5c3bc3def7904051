"""How people ask for the pattern of a set of records in their own words, beyond "most common
causes of …": the ways of saying *what usually happens* ("is there a common thread", "what tends
to go wrong", "what keeps going wrong"), the ways of asking *why* ("what was behind", "what
started it", "what set those casualties off", "what led up to it", "what brings them down"), and
a cause asked of several records at once ("what caused the helicopter crashes that killed
someone?": plural records are a set, not one event).

Also what such a question narrows a TAIC report set to: the modes it names (all of them named:
no narrowing) and the event or factor it is about ("boats that capsized", "where does fatigue
come up").
"""

from __future__ import annotations

import re

#: Words that make a question about what generally happens, beyond :mod:`answers.patterns`' own.
GENERAL = re.compile(
    r"\b(?:common\s+threads?|common\s+denominators?|tends?\s+to|keeps?\s+(?:on\s+)?\w+ing|"
    r"again\s+and\s+again|over\s+and\s+over|time\s+and\s+again|in\s+general|generally|"
    r"mostly|most\s+of\s+the\s+time|more\s+often\s+than\s+not|often|repeatedly|"
    # a request for the set's causes grouped: "break down the causes of …"
    r"break\s+down\s+(?:the\s+)?(?:causes?|reasons?|factors?|outcomes?|consequences?)|"
    r"breakdown\s+of\s+(?:the\s+)?(?:causes?|reasons?|factors?)|"
    # where a factor comes up across reports: "where does fatigue come up"
    r"(?:comes?|crops?|shows?|turns?)\s+up)\b",
    re.IGNORECASE,
)
#: An event said of any ship or aircraft of a kind, not of one: "when a tanker runs aground",
#: "after a ferry capsizes", "whenever ships collide".
GENERIC_EVENT = re.compile(
    r"\b(?:when(?:ever)?|after|once|if)\s+(?:(?:a|an)\s+(?:[\w-]+\s+){1,3}?[a-z]+s\b|"
    r"(?:[\w-]+\s+){0,2}?(?:ships|vessels|boats|tankers|carriers|ferries|trawlers|aircraft|"
    r"airplanes|planes|helicopters|pilots)\b)",
    re.IGNORECASE,
)
#: Ways of asking why, or what happened, beyond :mod:`answers.patterns`' own words.
WHY = re.compile(
    r"\b(?:why|what\s+(?:was|were|is|are|lies|lay)\s+behind|what\s+(?:\w+\s+){0,2}?(?:started|starts|"
    r"triggered|triggers|sets?\s+(?:\w+\s+){0,3}?off|set\s+off|brings?\s+(?:\w+\s+){0,2}?down|"
    r"brought\s+(?:\w+\s+){0,2}?down|led\s+(?:up\s+)?to|leads?\s+(?:up\s+)?to|"
    r"went\s+wrong|goes\s+wrong|go\s+wrong|going\s+wrong|happened|happens?)|"
    r"(?:go|goes|going|gone|went)\s+wrong|happened|threads?|"
    # where a factor appears across the reports: "where does fatigue come up"
    r"where\s+(?:does|do|did)\s+[\w\s-]{3,40}?\s+(?:comes?|crops?|shows?|turns?)\s+up|"
    # what it comes down to, what is to blame, what keeps coming up, what reports conclude
    r"(?:comes?|coming|came|boils?|boiling)\s+down\s+to|stem(?:s|med)?\s+from|to\s+blame|"
    r"responsible\s+for|root\s+causes?|(?:comes?|coming|crops?|cropping|shows?|showing)\s+up|"
    r"conclu\w+|say|says|kills?|killed)\b",
    re.IGNORECASE,
)
#: What follows an event, however asked: "what usually follows", "how bad does it get", "what
#: comes of it", "how do groundings usually end", "what do collisions lead to", "the results".
OUTCOMES = re.compile(
    r"\bwhat\s+(?:\w+\s+){0,2}?(?:follows?|followed|comes?\s+(?:after|next|of)|"
    r"came\s+(?:after|next|of)|happens?\s+(?:next|then|after|afterwards))\b"
    r"|\bhow\s+(?:bad(?:ly)?|serious(?:ly)?|severe(?:ly)?)\b"
    r"|\bhow\s+(?:do|does|did)\b[^?]*?\bend\b"
    r"|\b(?:results?|effects?|aftermath)\b(?!\s+(?:in|from)\b)"
    r"|\bwhat\s+(?:do|does|did)\b[^?]*?\blead\s+to\b",
    re.IGNORECASE,
)
#: A cause asked without a cue: "what caused …", "what was behind …", "why did … crash".
CAUSE = re.compile(
    r"\bwhat\s+(?:\w+\s+)?(?:caused|causes|started|triggered|set\s+(?:\w+\s+){0,3}?off|"
    r"led\s+(?:up\s+)?to|brought\s+(?:\w+\s+){0,2}?down)\b|"
    r"\bwhat(?:'s|\s+(?:was|were|is|are))\s+behind\b|"
    # why records end as they do, not why they are as they are ("why do planes have wings")
    r"\bwhy\s+(?:did|do|does|were|are)\b[^?.]*?\b(?:crash\w*|happen\w*|fail\w*|sink|sank|"
    r"capsiz\w*|collid\w*|ground\w*|aground|go\s+down|stall\w*|break\s+up|catch\s+fire)\b|"
    r"\bwhat(?:'s|\s+is|\s+keeps?)\s+(?:\w+\s+)?causing\b|\bwhat\s+(?:\w+\s+)?leads?\s+(?:up\s+)?to\b|"
    # what goes wrong for ships, what kills pilots: said of the kind, a set
    r"\bwhat\s+(?:\w+\s+)?(?:goes|go|went)\s+wrong\b|\bwhat\s+(?:\w+\s+)?(?:kills|killed)\b",
    re.IGNORECASE,
)
#: Records named in the plural: a set of them, not one event.
PLURAL_RECORDS = re.compile(
    r"\b(?:accidents|crashes|incidents|mishaps|occurrences|casualties|ships|vessels|boats|"
    r"carriers|tankers|trawlers|ferries|aircraft|airplanes|helicopters|gliders|balloons|"
    r"groundings|collisions|fires|sinkings|capsizes|derailments|inquiries|investigations|"
    r"planes|seaplanes|gyroplanes|gyrocopters|sailplanes|rotorcraft|trains|floatplanes|jets|"
    r"dusters|taildraggers|ultralights|trikes|airships|blimps|derailments)\b",
    re.IGNORECASE,
)
#: Records the pattern may be about, beyond :mod:`answers.patterns`' own nouns.
MORE_RECORDS = re.compile(
    r"\b(?:boats?|trawlers?|ferr(?:y|ies)|gliders?|balloons?|gyroplanes?|railways?|trains?|"
    r"derailments?|sinkings?|capsiz\w*|floatplanes?|jets?|dusters?|taildraggers?|ultralights?|"
    r"level\s+crossings?|flights?)\b",
    re.IGNORECASE,
)
#: A question about what becomes of ships after the event: their recorded consequences.
AFTERWARDS = re.compile(
    r"\bafterwards?\b|\baftermath\b|\bwhat\s+(?:\w+\s+)?(?:happens?|happened)\s+to\s+"
    r"(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:ships?|vessels?|boats?|crews?|them|tankers?|carriers?|"
    r"ferr(?:y|ies)|trawlers?)\b|\bwhat\s+(?:\w+\s+)?becomes?\s+of\b",
    re.IGNORECASE,
)
#: What only TAIC's reports hold among the archive's records: rail occurrences, and New
#: Zealand's own investigations ("New Zealand rail accident investigations").
TAIC_ONLY = re.compile(
    r"\b(?:rail(?:ways?|roads?)?|trains?|level\s+crossings?|derail\w*|locomotives?)\b|"
    r"\bnew\s+zealand(?:'s)?\s+(?:[\w-]+\s+){0,3}?(?:investigat\w*|inquir\w*|reports?)\b",
    re.IGNORECASE,
)
#: TAIC modes and the words that name them.
MODES = (
    ("rail", r"rail\w*|trains?|level\s+crossings?"),
    ("marine", r"marine|maritime|ships?|vessels?|ferr(?:y|ies)|boats?|sea"),
    ("aviation", r"aviation|aircraft|air|flights?|helicopters?|aeroplanes?|airplanes?"),
)
#: Flight phases a question about NTSB records may narrow its set to, as the records write each
#: (the set's text is searched for it) and the ways a user says it.
PHASES = (
    ("landing", r"landings?|landed|touch(?:ing)?[\s-]?downs?"),
    ("takeoff", r"take[\s-]?offs?|taking\s+off"),
    ("approach", r"approach(?:es|ing)?"),
    ("taxi", r"taxi(?:ing|ed)?"),
    ("go-around", r"go[\s-]arounds?"),
    ("climb", r"climb(?:s|ing)?|climb[\s-]?out"),
    ("descent", r"descent|descending"),
    ("cruise", r"cruise|cruising"),
    ("maneuvering", r"maneuvering|manoeuvring"),
    ("hover", r"hover(?:ing)?"),
)
#: Where a question names the event or factor its reports mention: "where does fatigue come
#: up", "boats that capsized", "trains that derailed".
_MENTIONS = re.compile(
    r"\bwhere\s+(?:does|do|did)\s+(?P<where>[\w\s-]{3,40}?)\s+(?:come|show|crop|turn)\s+up\b|"
    r"\bwhere\s+(?:does|do|did)\s+(?P<feature>[\w\s-]{3,40}?)\s+(?:appear|feature|arise)\b|"
    r"\b(?:boats?|ships?|vessels?|ferr(?:y|ies)|trains?|aircraft|helicopters?|planes?)\s+"
    r"(?:that|which)\s+(?P<did>\w+ed)\b",
    re.IGNORECASE,
)


#: What TAIC reports "on" or "into" are about ("reports on fatigue", "inquiries into
#: fatigue"), up to the words of asking.
_ON_TOPIC = re.compile(
    r"\b(?:on|into|concerning|regarding)\s+(?P<words>[\w\s'-]{3,40}?)(?=\s+(?:in|at|during|"
    r"from|between|since|before|after|that|which|investigated|usually|typically|commonly|often|"
    r"generally|mostly|most|tend|tends|keep|keeps|find|found|show|say|says|conclude|do|does|did|"
    r"are|were|is|was|have|has|had)\b|[?.!,:;]|$)",
    re.IGNORECASE,
)
#: Words of a TAIC topic that say which reports, not what they mention.
_NOT_TOPIC = re.compile(
    r"\b(?:TAIC(?:'s)?|reports?|accidents?|incidents?|occurrences?|investigations?|inquir(?:y|ies)|"
    r"new\s+zealand(?:'s)?|the|a|an|its|their|rail(?:ways?|roads?)?|trains?|marine|maritime|sea|"
    r"aviation|air)\b",
    re.IGNORECASE,
)


def taic_topic(*found: str, question: str) -> str:
    """What a TAIC question's reports must mention: the words ``found`` ("involving …", "where
    does fatigue come up") or what it asks reports "on" or "into", less the words that only say
    which reports ("level crossing accidents": "level crossing"; "reports on rail": none)."""
    said = [w for w in found if w]
    if not said and (match := _ON_TOPIC.search(question)):
        said = [match["words"]]
    words = " ".join(_NOT_TOPIC.sub(" ", w) for w in said)
    return " ".join(words.split())


def asks_general(question: str) -> bool:
    """Whether ``question`` says it is about what generally happens, in words beyond the
    classic cues ("is there a common thread", "what tends to go wrong", "when a tanker runs
    aground")."""
    return bool(GENERAL.search(question) or GENERIC_EVENT.search(question))


#: The kinds of record asked after a cue ("the typical casualties", "common kinds?"), and what a
#: set was about ("what were they mostly about?"): what the set's records were is what is asked.
KINDS = re.compile(
    r"\b(?:common(?:est)?|usual|typical|frequent|main)\s+(?:(?:kinds?|types?)\s+of\s+)?"
    r"(?:casualties|accidents|incidents|occurrences|events|kinds|types|first\s+events?)\b"
    r"|\b(?:were|are)\s+(?:they|these|those|the\s+\w+)\s+(?:\w+\s+)?about\b",
    re.IGNORECASE,
)


def asks_kinds(question: str) -> bool:
    """Whether ``question`` asks what kinds of record a set holds, after a cue."""
    return bool(KINDS.search(question))


def asks_outcome(question: str) -> bool:
    """Whether ``question`` asks what follows an event ("how bad does it usually get", "what do
    collisions lead to"), not what leads to it."""
    return bool(OUTCOMES.search(question))


def asks_why(question: str) -> bool:
    """Whether ``question`` asks why, or what happened or went wrong, in its own words."""
    return bool(WHY.search(question))


#: People who fly or sail, in the plural and of a kind ("Piper pilots", "student pilots", not
#: "the pilots" of one accident): a set of records by whom they were about.
_PLURAL_PEOPLE = re.compile(
    r"\b(?!(?:the|these|those|both|two|its|their)\b)[\w-]+\s+(?:pilots|crews|skippers)\b",
    re.IGNORECASE,
)


def asks_cause_of_set(question: str, *, plural: bool = False) -> bool:
    """A cause asked of records named in the plural ("what caused the helicopter crashes that
    killed someone?", "what was behind the fatal Mooney crashes?", "what goes wrong for Piper
    pilots?"; ``plural``: the caller found aircraft named so, "why do Bonanzas crash?"): a
    pattern of a set."""
    plural = plural or bool(PLURAL_RECORDS.search(question) or _PLURAL_PEOPLE.search(question))
    return bool(CAUSE.search(question) and plural)


def names_records(question: str) -> bool:
    """Whether ``question`` names records of a kind :mod:`answers.patterns` does not list."""
    return bool(MORE_RECORDS.search(question))


def asks_afterwards(question: str) -> bool:
    """Whether ``question`` asks what becomes of the ships (their recorded consequences)."""
    return bool(AFTERWARDS.search(question))


def only_taic(question: str) -> bool:
    """Whether ``question`` asks about what only TAIC's reports hold (rail, New Zealand's
    investigations), naming TAIC or not."""
    return bool(TAIC_ONLY.search(question))


def taic_mode(question: str) -> str:
    """The one TAIC mode a question names; "" when it names none or several ("across air,
    rail and sea": every report)."""
    named = [m for m, p in MODES if re.search(rf"\b(?:{p})\b", question, re.IGNORECASE)]
    return named[0] if len(named) == 1 else ""


def mentioned(question: str) -> str:
    """The event or factor a question asks reports that mention it about ("fatigue",
    "capsized"); "" for none."""
    match = _MENTIONS.search(question)
    if match is None:
        return ""
    words = next(g for g in match.groups() if g)
    return " ".join(words.split())


def phases_in(question: str) -> list[str]:
    """The flight phases a question names, as the records write them ("take-off": takeoff)."""
    return [p for p, said in PHASES if re.search(rf"\b(?:{said})\b", question, re.IGNORECASE)]
