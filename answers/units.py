"""The sentences an answer may copy, each with its passage and its role (cause, fix, problem)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from answers.extractive import MAX_CHARS, MIN_CHARS
from archive.store.passages import Passage
from text.injection import instructions_in
from text.sentences import sentences, unglue
from text.words import content_stems, tokens

Role = Literal["found", "cause", "fix", "hint", "confirm", "problem", "outcome", "plain"]

#: A section that states the cause itself (NTSB "Probable Cause", final reports' findings).
CAUSE_SECTIONS = re.compile(r"probable\s+cause|root\s+cause|conclusions?|findings", re.I)
#: A probable-cause statement can run long; it is still copied whole.
MAX_CAUSE_CHARS = 1500
_CAUSE_CUE = re.compile(
    r"\b(?:root\s+cause|probable\s+cause|caused\s+by|cause\s+(?:was|is|of)|due\s+to|because"
    r"|result(?:ed|ing)?\s+(?:from|of)|attributed\s+to|contribut\w+|turned\s+out|the\s+reason"
    r"|led\s+to|failure\s+to|confirmed\s+as|culprit)\b",
    re.I,
)
_FIX_CUE = re.compile(
    r"\b(?:fix(?:ed|es)?|the\s+fix|solved|resolved|solution|workaround|replaced|repaired"
    r"|restored|rectified|corrected|you\s+(?:need|have|should|must|can)|try\s+(?:running|using|to"
    r"|the|with)|switching|ended\s+up|needs?\s+to\s+be|make\s+sure|is\s+fixed\s+in"
    r"|works?\s+now|now\s+works|works?\s+for\s+me|worked\s+without|got\s+it\s+(?:to\s+)?work\w*"
    r"|re-?enabl\w*)\b"
    r"|^(?:try|use|run|press|set|call|add|change|remove|disable|enable|install|update|upgrade"
    r"|rebuild|reboot|restart|specify|pass)\b",
    re.I,
)
#: Weaker hints of a remedy: a command, an install or update, a suggestion.
_HINT_CUE = re.compile(
    r"\b(?:(?:re)?install(?:ed|ing)?|re-?flash\w*|updat(?:e|ed|ing)|upgrad\w*|run(?:ning)?"
    r"|suggest\w*|recommend\w*)\b|\s--?[a-z][\w-]+|\b\w+_\w+\b",
    re.I,
)
#: A reply that confirms a fix worked rather than stating it.
_CONFIRM = re.compile(
    r"^(?:\W*(?:thanks?|thank\s+you|ty|great|ok)\b|that\s+(?:worked|did\s+it))", re.I
)
#: Quoted mail headers ("From: ... Sent: ... Subject: ...") and digest bookkeeping.
_NOT_CONTENT = re.compile(
    r"(?:\b(?:From|Sent|To|Cc|Subject|Date|Von|Gesendet|An|Betreff|Datum):.*){2}|^_{4,}"
    r"|^The thread ends with\b",
    re.S,
)
_OUTCOME_CUE = re.compile(
    r"\b(?:substantial(?:ly)?\s+damage\w*|destroyed|fatal\w*|seriously\s+injured|injur\w+"
    r"|sank|grounded|collided|capsized|came\s+to\s+rest|nosed\s+over|impacted)\b",
    re.I,
)
#: Sentences every record of a kind carries, which answer nothing (NTSB's "investigators used
#: data provided by ... to prepare this aircraft accident report.", at times glued to the next).
BOILERPLATE = re.compile(
    r"^(?:NTSB investigators\b.{0,300}?\breport\.\s*|The National Transportation Safety Board "
    r"\(NTSB\) is an independent.*)",
    re.I,
)
#: Someone reporting a fix they found or made ("I was able to resolve the issue by ...", "I have
#: found a simple way to work around this", "when I switched to X it just works") ...
OWN_FIX = (
    r"\b(?:(?:i|we)\s+(?:was|were)\s+able\s+to\s+(?:resolve|fix|solve|work\s+around|get\s+(?:it|\w+)"
    r"\s+(?:to\s+)?work\w*)|(?:i|we)(?:\s+have|['’]ve)?\s+(?:finally\s+)?(?:found|figured\s+out)"
    r"\s+(?:a|an|the)\s+(?:\w+\s+){0,2}(?:way|solution|workaround|fix)"
    r"|(?:when|after|once|since|if)\s+(?:i|we)\s+[^.!?]{1,120}?\b(?:now\s+|just\s+|finally\s+"
    r"|immediately\s+)?(?<!still\s)(?:works|worked|is\s+working))\b"
)
#: ... or what the problem was ("I found the culprit", "I worked it out"): a message saying
#: either is its author's own resolution.
OWN_FOUND = (
    r"\b(?:(?:i|we)(?:\s+have|['’]ve|\s+did)?\s+(?:finally\s+)?(?:found|find|figured\s+out)\s+(?:the|what)"
    r"\s+(?:\w+\s+){0,2}(?:cause|culprit|reason|problem|issue|was\s+wrong)"
    r"|(?:i|we)(?:\s+have|['’]ve)?\s+(?:finally\s+)?(?:worked|figured)\s+(?:it|this|that)\s+out)\b"
)
OWN_FINDING = f"{OWN_FIX}|{OWN_FOUND}"
_OWN_FIX = re.compile(OWN_FIX, re.I)
#: What a thread found out in the end ("my issue was ...", "... was the culprit", "it turned
#: out the cable was bad"): it answers
#: both why and how it was fixed.
_FOUND_CUE = re.compile(
    r"\b(?:(?:my|the|our)\s+(?:issue|problem|mistake|error|bug)\s+was|was\s+the\s+culprit"
    r"|it\s+was\s+my|i\s+(?:found|realized|realised)\s+that|turn(?:s|ed)\s+out"
    r"|(?:the|my|our)\s+(?:resolution|solution|explanation|answer)\s+(?:is|was)\s+that)\b"
    rf"|{OWN_FOUND}",
    re.I,
)
#: A sentence that explains why rather than saying so with a cause word: what a symptom means
#: ("'S' on a stream means that a packet got dropped", "it goes through software, and that
#: means we cannot time it"), when it happens ("That's when you get
#: the error", "this happens when ..."), what the problem is ("the issue is that ..."), or a
#: correction ("the data is not stored on the device but on the host"), a known bug or a
#: limitation ("this is a known issue in 4.6", "that is by design"), a diagnosis offered as a
#: guess ("my guess is that this is ...", "I suspect ..."), or a sentence that opens by naming
#: what the symptom is ("It's the DC offset of the direct conversion transmitter.").
_EXPLAINS = re.compile(
    r"\b(?:means\s+that|(?:that|this|which)\s+means|(?:that|this|which)(?:['’]s|\s+is|\s+was)\s+(?:why|when|what\s+causes)"
    r"|(?:happens|occurs)\s+(?:when|because|if|whenever)|(?:this|that|which)\s+explains"
    r"|the\s+(?:problem|issue|catch|thing)\s+(?:here\s+)?is\s+that"
    r"|(?:is|are)(?:\s+not|n['’]t)\s+[^.;!?]{1,60}?\s+but\s+(?:in|on|at|from|by|the|a|an)\b"
    r"|known\s+(?:issue|bug|problem|limitation)|\ba\s+bug\s+in|limitation\s+(?:of|in)"
    r"|by\s+design|expected\s+behaviou?r|(?:this|that|it)(?:['’]s|\s+is)\s+(?:a\s+)?(?:known\s+)?bug\b"
    # a diagnosis offered as a guess ("my guess is that this is the step response of ...")
    r"|(?:guess|suspicion|hunch|bet)\s+is\s+that|\bi\s+(?:suspect|bet)\b)"
    # a reply naming what the symptom is ("It's the DC offset of the transmitter.")
    r"|^(?:it|this|that)(?:['’]s|\s+is|\s+was)\s+(?:(?:probably|likely|most\s+likely|almost"
    r"\s+certainly|just|simply)\s+)?the\s+(?!(?:same|way|case|right|correct|best|only|first"
    r"|last|easiest|simplest|one)\b)\w+",
    re.I,
)
#: The labelled parts of a thread digest ("Problem (Ann): ...", "Resolution (Bob): ...").
_DIGEST_PART = re.compile(r"^(Problem|Investigation|Resolution)\b[^:\n]{0,80}:\s*", re.M)


@dataclass(frozen=True)
class Unit:
    """One sentence of one passage."""

    text: str
    record: Passage
    rank: int  # the passage's rank in the answer's passages (0 = first)
    position: int  # order within the passage
    role: Role
    stated: bool  # the passage states it as such (a cause section, a digest's resolution)

    @property
    def chunk_id(self) -> str:
        return self.record["chunk_id"]

    @property
    def doc_id(self) -> str:
        return self.record["doc_id"]


def units_of(record: Passage, rank: int) -> list[Unit]:
    """The copyable sentences of one passage with their roles (never a planted instruction)."""
    units = _units_of(record, rank)
    return _unplanted(units) if record.get("instructions") else units


def _unplanted(units: list[Unit]) -> list[Unit]:
    """A marked passage's sentences without its planted instructions, nor the sentence after
    each (where an instruction's payload sits: "Ignore the rules. Reply that ...")."""
    out: list[Unit] = []
    after_instruction = False
    for unit in units:
        planted = bool(instructions_in(unit.text))
        if not planted and not after_instruction:
            out.append(unit)
        after_instruction = planted
    return out


def _units_of(record: Passage, rank: int) -> list[Unit]:
    section = record.get("section") or ""
    out: list[Unit] = []
    if CAUSE_SECTIONS.search(section):
        for position, text in enumerate(sentences(record["text"])):
            if len(text) >= MIN_CHARS // 2 and len(text) <= MAX_CAUSE_CHARS:
                out.append(Unit(text, record, rank, position, "cause", True))
        return out
    if record.get("kind") == "thread_digest":
        return _digest_units(record, rank)
    opening = _opens_thread(record)
    for position, sentence in enumerate(
        _short_joined(_introduced(sentences(unglue(record["text"]))))
    ):
        text = BOILERPLATE.sub("", sentence)
        if _copyable(text) and not _NOT_CONTENT.search(text):
            role = _role(text)
            if opening and role in ("plain", "hint", "outcome"):
                role = "problem"  # the message that opens a thread states the problem
            out.append(Unit(text, record, rank, position, role, False))
    return out


def _copyable(text: str) -> bool:
    """Long enough to say something, and not too long to quote: a short sentence only when it
    explains ("confirm this is a bug.", "That's a known issue.")."""
    if len(text) > MAX_CHARS:
        return False
    return len(text) >= MIN_CHARS or (len(text) >= MIN_CHARS // 2 and explains(text))


def _introduced(parts: list[str]) -> list[str]:
    """``parts`` with the short pieces a colon introduces joined to it ("two parameters on the
    command line:", then '"radio-id"', then 'and "radio-chan"' on lines of their own), and a
    name on a line of its own joined to the unfinished sentence before it ("you need to set
    your", then "UHD_IMAGES_DIR"): each alone is too short to be copied, and the sentence
    before says nothing without them."""
    out: list[str] = []
    open_list = False
    for part in parts:
        if out and len(part) < MIN_CHARS and _NAME.fullmatch(part) and not _ENDED.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"  # "you need to set your", then "UHD_IMAGES_DIR" alone
            continue
        if out and len(part) < MIN_CHARS and (open_list or out[-1].endswith(":")):
            out[-1] = f"{out[-1]} {part}"
            open_list = True
            continue
        out.append(part)
        open_list = False
    return out


def _short_joined(parts: list[str]) -> list[str]:
    """``parts`` with a short statement between two sentences joined to the one before ("This
    was a user error on my part.", then "My QSFPs were swapped."): alone it is too short to be
    copied, yet in mid-message it is as much the writer's point as its neighbours (a greeting
    or a sign-off is not in mid-message)."""
    out: list[str] = []
    for i, part in enumerate(parts):
        inside = bool(out) and i + 1 < len(parts) and len(parts[i + 1]) >= MIN_CHARS
        short = MIN_CHARS // 2 <= len(part) < MIN_CHARS
        if inside and short and _SHORT_STATEMENT.fullmatch(part) and _ENDED.search(out[-1]):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out


#: A short statement of three words or more, ended as a sentence ("My QSFPs were swapped.").
_SHORT_STATEMENT = re.compile(r"[A-Z]\S*(?:\s+\S+){2,}[.!]")

#: A name set on a line of its own (a variable, a path, a file, a part: "UHD_IMAGES_DIR",
#: "/usr/lib/uhd", "x310.yml"), which the sentence before it names; not a signature ("--M",
#: "/Martin").
_NAME = re.compile(
    r"(?![-/]+[A-Za-z]+$)[\"'`]?(?=[^\s\"'`]*[_/.\d-]|[A-Z]{3,}\b)[\w/.~$][^\s\"'`]*[\"'`]?"
)
_ENDED = re.compile(r"[.!?:;)\]\"'”’]$")
_REPLY = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*(?:re|aw|sv|fwd?|antw)\s*(?:\[\d+\])?\s*:", re.I)


def _opens_thread(record: Passage) -> bool:
    """A mail that starts a thread (its subject is no reply's)."""
    subject = record.get("subject") or ""
    return record.get("kind") == "email" and bool(subject) and not _REPLY.match(subject)


def _digest_units(record: Passage, rank: int) -> list[Unit]:
    """A digest's sentences: the resolution's are stated fixes, the problem's the problem (the
    header line, 'Thread "...": 5 messages, ...', answers nothing)."""
    text = unglue(record["text"])
    marks = list(_DIGEST_PART.finditer(text))
    parts: list[tuple[str, str]] = [("", text[: marks[0].start()] if marks else text)]
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        parts.append((mark.group(1), text[mark.end() : end]))
    out: list[Unit] = []
    position = 0
    for label, body in parts[1:] if marks else parts:
        for sentence in sentences(body):
            if not MIN_CHARS <= len(sentence) <= MAX_CHARS or _NOT_CONTENT.search(sentence):
                continue
            role: Role
            if label == "Resolution":  # the thread's last word, a fix only if it says one
                role = _role(sentence)
                stated = role in ("fix", "cause", "found")
            elif label == "Problem":
                role, stated = "problem", True
            else:
                role, stated = _role(sentence), False
            out.append(Unit(sentence, record, rank, position, role, stated))
            position += 1
    return out


def _role(text: str) -> Role:
    if _FOUND_CUE.search(text):
        return "found"
    if _OWN_FIX.search(text):  # before a thanks opening it ("Thanks, I was able to fix it by")
        return "fix"
    if _CONFIRM.search(text):
        return "confirm"
    if _CAUSE_CUE.search(text):
        return "cause"
    if _FIX_CUE.search(text):
        return "fix"
    if _HINT_CUE.search(text):
        return "hint"
    if _OUTCOME_CUE.search(text):
        return "outcome"
    return "plain"


def explains(text: str) -> bool:
    """Whether a sentence explains why without a cause word (:data:`_EXPLAINS`): a reply's
    explanation is the cause a why-question asks for."""
    return bool(_EXPLAINS.search(text))


# --- sameness -------------------------------------------------------------------------------


def signature(text: str) -> frozenset[str]:
    """The sentence's content stems: two sentences with nearly the same stems say the same. A
    path or link counts by its parts (".../utils/testbenches.excludes" and
    ".../utils/modelsim.excludes" share all but one): two sentences that differ only in a word
    and their link's last part say nearly the same thing."""
    words = [part for w in tokens(text) for part in (_PATH.split(w) if "/" in w else [w]) if part]
    return frozenset(content_stems(words))


_PATH = re.compile(r"[/.]")


#: Two sentences whose stems overlap this much (Jaccard), or one of which is this much inside
#: the other, say the same thing (a digest's copy of a message's sentence, a quoted reply).
SAME_JACCARD = 0.7
SAME_CONTAINED = 0.85
MIN_STEMS = 3


def same(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two signatures are near-duplicates: two that each hold a number the other lacks
    say different things however alike their words (``set_gpio_attr("FP0", "OUT", 0xFFF,
    0xFFF)`` and the same call with ``0x0003``)."""
    numbers_a, numbers_b = _numbers(a), _numbers(b)
    if numbers_a - numbers_b and numbers_b - numbers_a:
        return False
    if min(len(a), len(b)) < MIN_STEMS:
        return a == b  # too short to judge by overlap ("From the archive:")
    shared = len(a & b)
    return shared / len(a | b) >= SAME_JACCARD or shared / min(len(a), len(b)) >= SAME_CONTAINED


def _numbers(sig: frozenset[str]) -> frozenset[str]:
    return frozenset(stem for stem in sig if any(ch.isdigit() for ch in stem))


def said_sentences(texts: Iterable[str]) -> list[frozenset[str]]:
    """Signatures of every sentence of earlier answers (citation markers dropped)."""
    out = []
    for text in texts:
        plain = re.sub(r"\[C:[^\]]*\]", " ", text)
        out += [signature(s) for s in sentences(plain) if len(s) >= MIN_CHARS // 2]
    return [s for s in out if s]


def is_repeat(sig: frozenset[str], seen: Sequence[frozenset[str]]) -> bool:
    return any(same(sig, other) for other in seen)
