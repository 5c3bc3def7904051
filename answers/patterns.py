"""Pattern questions ("most common causes of fatal landing accidents"): the cause statements of
the whole matching set grouped into named groups, with counts and cited examples.

An NTSB record's probable cause is put in every group whose words it uses (one record may count
in two groups: "loss of control in a gusting crosswind"); a record matching no group counts as
"other causes". An IMO casualty's group is its recorded initial event.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from answers.counting import CountPlan, plan_for
from archive.store.passages import Passage

_ASKS_PATTERN = re.compile(
    r"\b(?:(?:most\s+)?common|main|typical|usual|leading|frequent|top|recurring)\s+"
    r"(?:causes?|factors?|reasons?|initial\s+events?)\s+(?:of|for|behind|in)\s+(?P<rest>.+)",
    re.IGNORECASE,
)
_SEA = re.compile(
    r"\b(?:casualt(?:y|ies)|ships?|vessels?|maritime|marine|collisions?|groundings?|"
    r"tankers?|carriers?|ferr(?:y|ies)|trawlers?)\b",
    re.IGNORECASE,
)
_RECORDS = re.compile(r"\b(?:accidents?|crash(?:es)?|incidents?|casualt(?:y|ies))\b", re.I)
#: Flight phases a question may narrow the set to (records mentioning the word).
PHASES = (
    "landing",
    "takeoff",
    "approach",
    "taxi",
    "go-around",
    "climb",
    "descent",
    "cruise",
    "hover",
    "maneuvering",
)
#: (group name, pattern over a probable cause), in the order groups are tried.
_GROUP_WORDS = (
    ("loss of control", r"(?:maintain|loss of)\s+(?:directional\s+|aircraft\s+|airplane\s+)?contr"),
    ("airspeed and stall", r"airspeed|aerodynamic stall|stall|angle of attack"),
    ("fuel exhaustion or starvation", r"fuel (?:exhaustion|starvation|contamination)|fuel"),
    ("loss of engine power", r"loss of (?:engine )?power|engine (?:failure|power)"),
    ("landing flare and touchdown", r"flare|touchdown|bounced|hard landing|landing technique"),
    ("wind and crosswind", r"crosswind|tailwind|gust|winds?\b"),
    ("clearance from terrain or obstacles", r"clearance|obstacle|terrain|trees|wires"),
    ("maintenance and mechanical failure", r"maintenance|mechanic|fatigue|fracture|failure of the"),
    ("decision-making and planning", r"decision|planning|preflight|inadequate"),
    ("weather and visibility", r"meteorological|visibility|spatial disorientation|weather|icing"),
    ("impairment and medical", r"impair|alcohol|medical|incapacitat"),
)
CAUSE_GROUPS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(rf"\b(?:{pattern})", re.IGNORECASE)) for name, pattern in _GROUP_WORDS
)
OTHER = "other causes"
#: Examples cited per group.
EXAMPLES = 3


@dataclass(frozen=True)
class PatternPlan:
    """A pattern question: the set (as a count plan) and the word it is narrowed to."""

    plan: CountPlan
    topic: str  # a flight phase the records mention ("landing"); "" for none


@dataclass(frozen=True)
class Group:
    """A named group of the set's cause statements."""

    name: str
    count: int
    examples: list[Passage]  # every member, latest first


def pattern_plan(question: str) -> PatternPlan | None:
    """The plan of a pattern question; None when the question asks for no pattern of records."""
    match = _ASKS_PATTERN.search(question)
    if match is None or not _RECORDS.search(match["rest"]):
        return None
    sea = bool(_SEA.search(question))
    topic = next((p for p in PHASES if re.search(rf"\b{p}\b", question, re.I)), "")
    return PatternPlan(plan=plan_for(question, sea=sea), topic=topic)


def cause_of(passage: Passage) -> str:
    """The statement grouped: a casualty's initial event and consequences, a record's cause."""
    return passage["summary"] if passage["kind"] == "casualty" else passage["text"]


def group_causes(statements: list[Passage]) -> list[Group]:
    """Named groups, largest first; each record counts once per group it falls in."""
    members: dict[str, list[Passage]] = defaultdict(list)
    for passage in statements:
        if passage["kind"] == "casualty":
            event = cause_of(passage).split(";")[0].strip() or "unrecorded initial event"
            members[event].append(passage)
            continue
        names = [name for name, pattern in CAUSE_GROUPS if pattern.search(passage["text"])]
        for name in names or [OTHER]:
            members[name].append(passage)
    groups = [Group(name, len(found), found) for name, found in members.items()]
    return sorted(groups, key=lambda g: (g.name == OTHER, -g.count, g.name))


def compose_pattern(pattern: PatternPlan, statements: list[Passage], *, top: int = 5) -> str:
    """The answer: the set, then its largest named groups with counts and cited examples."""
    plan = pattern.plan
    scope = " ".join(
        part
        for part in (
            plan.outcome,
            plan.noun,
            f"mentioning {pattern.topic}" if pattern.topic else "",
            plan.scope,
        )
        if part
    )
    groups = group_causes(statements)
    first = "".join(f"[C:{p['chunk_id']}]" for p in groups[0].examples[:1]) if groups else ""
    lines = [f"Across all {len(statements):,} {scope} in the archive, the causes group so {first}:"]
    shown: set[str] = set()
    for group in groups[:top]:
        share = 100 * group.count / len(statements)
        # A record is quoted once; a group whose members were all quoted above cites them.
        examples = [p for p in group.examples if p["chunk_id"] not in shown][:EXAMPLES]
        shown.update(p["chunk_id"] for p in examples)
        mark = f"[C:{(examples or group.examples)[0]['chunk_id']}]"
        lines.append(f"- **{group.name}**: {group.count:,} records ({share:.0f}%) {mark}.")
        for passage in examples:
            cause = _clip(cause_of(passage))
            lines.append(f"  - {passage['title']}: {cause} [C:{passage['chunk_id']}]")
    return "\n".join(lines)


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
