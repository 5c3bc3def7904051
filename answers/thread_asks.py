"""How people ask what usually goes wrong on a mailing list, read from the question's words.

"What usually causes PPS problems?", "What problems do people hit running UHD on Windows, and how
are they solved?", "What are the usual reasons an X440 setup misbehaves, going by the list?",
"How do people most often recover a USRP that looks bricked?": a *cue* says the question is
about what happens across the list, not one thread (usually, common, typical, most often, people,
going by the list), and its *asks* say what is grouped: fixes (fix, solve, recover, clear, what
people do about it) or causes (causes, reasons, why, what makes it fail), a problem asked about
in the plural (problems, pitfalls, what goes wrong) being a cause. The *topic* is what is left
of the question's words once the stop words (:data:`text.words.STOP_WORDS`) and the words of
asking are gone, compared as stems (:func:`text.words.stem`), so "fails", "failing" and
"failure" are one word of asking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from text.words import STOP_WORDS, content_stems, stem, tokens

#: Words that make a question about what usually happens on the list, not about one thread.
_CUE_WORDS = (
    r"(?:most\s+)?common(?:ly|est)?|usual(?:ly)?|typical(?:ly)?|(?:most\s+)?frequent(?:ly)?|"
    r"most\s+often|often|recurring|generally|in\s+general|normal(?:ly)?|ordinarily|as\s+a\s+rule|"
    r"people|users|everyone|folks|others|tends?\s+to|"
    # what comes back: "which problems keep coming up"
    r"keeps?\s+(?:coming|cropping|showing|popping|turning)\s+up|"
    # what is known or comes back: "known problems", "classic mistakes", "the standard fix",
    # "the main sources", "the top causes", "come up again and again", "show up repeatedly"
    r"known|classic|standard|main|top|biggest|leading|recurrent|repeated(?:ly)?|go-to|"
    r"again\s+and\s+again|over\s+and\s+over|time\s+and\s+again|"
    # a tendency to fail, asked of a setup: "is it flaky", "unreliable on Fedora"
    r"flak(?:y|ey|iness)|(?:un)?reliab(?:le|ility)|finicky|temperamental|prone\s+to|"
    r"(?:going\s+by|according\s+to|on|from|across|over|throughout)\s+the\s+(?:mailing\s+)?list|"
    # the list's conversations named as many: "according to past threads", "in earlier threads"
    r"(?:past|previous|earlier|other|many)\s+(?:threads|posts|conversations|discussions)|"
    # "most" after what happens, not before a quality ("come up most", not "most recent")
    r"(?<=\w\s)most(?=\s*(?:[?,.;:]|$|(?:in|on|with|when|for|among|across)\b))|"
    # or before the trouble itself: "cause the most trouble", "give the most problems"
    r"most\s+(?:trouble|problems|issues|headaches|errors|failures|complaints)"
)
_FIX_WORDS = (
    r"fix(?:es|ed)?|solutions?|solved?|workarounds?|remed(?:y|ies)|resolv(?:e|ed)|"
    r"resolutions?|cures?|recover(?:s|ed|y)?|clears?|get\s+around|work\s+around|deal\s+with|"
    r"do\s+about|corrected|handled?|advice|tips|help(?:s|ed)|resolves|dealt\s+with|"
    r"recommend(?:s|ed|ations?)?|suggest(?:s|ed|ions?)|troubleshoot(?:ing)?|get\s+rid\s+of|"
    # a fix told as a phrasal verb: "what sorted it out", "get them going again"
    r"sort(?:s|ed)?\s+(?:\w+\s+)?out|"
    # what people do when it happens: "what do most people do when the probe finds nothing"
    r"(?:people|users|folks|others|everyone)\s+(?:\w+\s+)?do\s+(?:when|if|after|once)|"
    r"(?:get|gets|got|getting)\s+(?:\w+\s+){0,2}(?:going|working)\s+again|"
    # getting past or out of it, rescuing it: "how do folks get past", "what rescues it"
    r"(?:get|gets|got|getting)\s+(?:past|out\s+of)|rescu(?:e|es|ed|ing)"
)
_CAUSE_WORDS = (
    r"causes?|caused|reasons?|why|root\s+causes?|leads?\s+to|makes?|"
    # what is suspected or explains it: "the usual culprit", "usual suspects", "sources of"
    r"culprits?|suspects|sources?\s+of|explains?|explanations?|blamed?|"
    # what it was traced to, what is going on: "what have people traced it to"
    r"trac(?:e|es|ed|ing)\s+(?:\w+\s+){0,2}?(?:back\s+)?to|going\s+on"
)
#: A problem asked about in the plural, or what goes wrong: the causes are grouped.
_PROBLEM_WORDS = (
    r"problems|issues|pitfalls|mistakes|gotchas|troubles?|difficult(?:y|ies)|errors|snags|"
    r"headaches|hiccups|glitches|bugs|complaints?|quirks|traps|caveats|woes|themes|"
    r"mistake|pitfall|gotcha|experiences|"
    # one problem named as the usual one: "the most common problem", "the biggest issue"
    r"(?:common|frequent|usual|typical|biggest|main|top|classic|known)\s+(?:problem|issue)|"
    r"failure\s+(?:modes?|points?)|(?:run|runs|ran|running)\s+into|struggl(?:e|es|ed|ing)|"
    r"wrong|fail(?:s|ed|ing|ures?)?|misbehav(?:e|es|ing)|break(?:s|ing)?|broke|"
    r"stop(?:s|ped)?\s+working|act(?:s|ing)?\s+up|"
    # what breaks the program or the hardware: "crashes outright", "damaged the front end"
    r"crash(?:es|ed|ing)?|segfaults?|overheat(?:s|ed|ing)?|hang(?:s|ing)?|freez(?:e|es|ing)|deadlocks?|"
    r"damag(?:e|es|ed|ing)|fried|burn(?:ed|t)?\s+out|blew\s+up|"
    # where people get stuck, what gives them grief or goes sideways
    r"stuck|grief|(?:go|goes|going|gone|went)\s+sideways|"
    r"trip(?:s|ped)?\s+(?:\w+\s+){0,2}up|"
    # what does not work, told by a negated verb: "can't reach", "doesn't behave", "won't simulate"
    r"\w+n[’']t\s+\w+|(?:do|does|did|is|are|was|were)\s+not\s+\w+"
)


def _words(alternatives: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


_CUE, _FIX = _words(_CUE_WORDS), _words(_FIX_WORDS)
#: One conversation named ("people on this thread", "in my post"): what it says, not a pattern.
_ONE_THREAD = _words(
    r"(?:this|that|the|my|your|his|her|their)\s+(?:thread|post|conversation|discussion)|"
    # one named by what it is about: "in my X310 thread", "that GPSDO post"
    r"(?:this|that|my|your|his|her|their)\s+(?:[\w-]+\s+){1,2}(?:thread|post|conversation|discussion)"
)
_CAUSE, _PROBLEM = _words(_CAUSE_WORDS), _words(_PROBLEM_WORDS)
#: Words of asking that name no topic, compared as stems: the verbs people ask with, where
#: they ask, and the problem words themselves.
_ASKING = frozenset(
    stem(w)
    for w in """
    people person users user someone everyone anyone mailing list forum thread threads
    usrp-users problem problems issue issues trouble troubles pitfall pitfalls mistake mistakes
    gotcha gotchas difficulty difficulties wrong fail fails failed failing failure failures
    misbehave misbehaves misbehaving break breaks broke hit hits run runs running ran go goes
    going went make makes made happen happens look looks seem seems get gets got getting give
    gives gave see sees usually usual common commonly typical typically often frequent
    frequently recurring general generally main top root fix fixes fixed fixing solution
    solutions solve solved solving workaround workarounds remedy remedies resolve resolved
    resolution cure cures recover recovers recovered recovery clear clears cause causes caused
    reason reasons lead leads suggested recommended proposed given deal around tend tends
    trip trips tripped done behind expect expected come comes find finds normally normal
    ordinarily kind kinds thing things keep keeps report reports reported past previous earlier
    according lot snag snags headache headaches hiccup hiccups glitch glitches complaint
    complaints quirk quirks confuse confuses confused confusing advice tip tips help helps
    helped handle handled correct corrected folk folks others known classic standard main top
    biggest leading repeated repeatedly recurrent summarize summarise summary overview culprit
    culprits suspect suspects source sources explain explains explanation explanations occur
    occurs occurring troubleshoot troubleshooting step steps recommend recommends recommended
    recommendation recommendations suggest suggests suggested suggestion suggestions dealt
    struggle struggles struggled struggling seen show shows showed trap traps caveat caveats woe
    woes across throughout theme themes tell list give overview figure figured anyone anybody
    go-to flaky flakey flakiness unreliable finicky damage damaged damaging like outright
    reliable reliability temperamental prone blame blamed commonest whats experience experiences
    complaint else stuck grief sideways rescue rescues rescued trace traced past
    """.split()  # noqa: SIM905 - a word list reads better as text
)
#: Stop words that are part of a problem's name ("no devices found").
_KEPT = frozenset({"no", "not"})
_WORD = re.compile(r"[A-Za-z0-9](?:[\w/-]|\.(?=\w))*[A-Za-z0-9]|[A-Za-z0-9]")
#: A negated verb ("doesn't", "won't"), an aside in brackets, a phrasal verb of asking ("stops
#: working", "acting up", "sorted it out", "get them going again") or the errors asked for
#: ("which errors", not "sequence errors") is not the topic's name.
_ASIDE = re.compile(
    r"\b\w+n[’']t\b|\([^)]*\)|(?:(?<=\bwhat\s)|(?<=\bwhich\s))errors\b|"
    r"\b(?:stop(?:s|ped)?\s+working|act(?:s|ing)?\s+up|failure\s+(?:modes?|points?)|"
    r"get\s+rid\s+of|work(?:s|ed)?\s+around|again\s+and\s+again|over\s+and\s+over|time\s+and\s+again|"
    r"sort(?:s|ed)?\s+(?:\w+\s+)?out|(?:get|gets|got|getting)\s+(?:\w+\s+){0,2}"
    r"(?:going|working)\s+again)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ThreadAsk:
    """What a question about the list asks: fixes or causes, and about what."""

    about: str  # fix | cause
    topic: str  # the problem area's words, as the question writes them


def thread_ask(question: str) -> ThreadAsk | None:
    """The ask of a question about what usually fixes or causes a problem on the list; None
    for another question (no cue, nothing asked, or no topic left)."""
    fix, cause, problem = _FIX.search(question), _CAUSE.search(question), _PROBLEM.search(question)
    if not (_CUE.search(question) and (fix or cause or problem)) or _ONE_THREAD.search(question):
        return None
    topic = topic_words(question)
    if not content_stems(tokens(topic)):
        return None
    about = "fix" if fix and (not cause or fix.start() < cause.start()) else "cause"
    return ThreadAsk(about, topic)


def topic_words(question: str) -> str:
    """The question's words that name what it is about, in its order and spelling."""
    kept = []
    for word in _WORD.findall(_ASIDE.sub(" ", question)):
        folded = word.casefold()
        if folded in STOP_WORDS and folded not in _KEPT:
            continue
        if len(folded) < 2 or stem(folded) in _ASKING or folded in _ASKING:
            continue
        kept.append(_singular(word))
    return " ".join(kept)


#: An acronym's plural ("GPSDOs", "NICs", "X310s"): a list names the thing in the singular, and
#: English text search stems "gpsdos" apart from "gpsdo".
_ACRONYM_PLURAL = re.compile(r"(?P<one>[A-Z0-9][A-Z0-9/-]*[A-Z0-9])s")


def _singular(word: str) -> str:
    """``word``, an acronym's plural in the singular ("GPSDOs" is "GPSDO")."""
    match = _ACRONYM_PLURAL.fullmatch(word)
    return match["one"] if match else word
