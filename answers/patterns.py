"""Pattern questions ("most common causes of fatal landing accidents", "what usually goes wrong
with bulk carriers?"): the whole matching set, its cause or outcome statements grouped into named
groups (:mod:`answers.pattern_groups`), each with its count and cited examples.

The set comes from the same filters a count resolves (:func:`answers.counting.plan_for`: dates,
US state, make, aircraft category, weather, flag, vessel type, severity, initial event, outcome)
narrowed to records that mention the question's flight phase or its "involving …" words. What
is grouped: an NTSB record's probable cause (its primary part, before "Contributing to"), an IMO
casualty's recorded initial event (its consequences when the question asks for outcomes), a TAIC
report's findings, one sentence at a time. One record or report is one item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from answers.aircraft_makes import names_kinds_of_aircraft, names_make
from answers.counting import (
    CountPlan,
    count_plan,
    dated,
    kind_stems,
    names_aircraft,
    plan_for,
    plural,
)
from answers.occurrence_kinds import asks_occurrence_kinds, event_stems, occurrence_of
from answers.pattern_asks import (
    asks_afterwards,
    asks_cause_of_set,
    asks_general,
    asks_kinds,
    asks_outcome,
    asks_why,
    mentioned,
    names_records,
    only_taic,
    phases_in,
    taic_mode,
    taic_topic,
)
from answers.pattern_groups import (
    GLUE_SHARE,
    OTHER,
    Group,
    Statement,
    group_categories,
    group_phrases,
    proper_stems,
    stem_shares,
)
from answers.sea_areas import area_in
from answers.sea_events import initial_event
from archive.store.counts import RecordQuery
from archive.store.passages import Passage
from archive.vessel_types import families_in
from text.sentences import sentences
from text.words import content_stems, tokens

#: Words that make a question about what usually happens, not about one event.
_CUE = re.compile(
    r"\b(?:(?:most\s+)?common(?:ly)?|usual(?:ly)?|typical(?:ly)?|main|leading|primary|major|"
    r"(?:most\s+)?frequent(?:ly)?|most\s+often|recurring|top|patterns?|trends?|themes?|"
    # a tendency, or what is known or comes back: "tends to", "in general", "known causes",
    # "classic causes", "again and again"
    r"tends?\s+to|generally|in\s+general|normally|as\s+a\s+rule|known|classic|biggest|"
    r"recurrent|repeated(?:ly)?|again\s+and\s+again)\b|"
    # how often after what happens ("show up most", "happen most")
    r"(?<=\w\s)most\b(?=\s*(?:[?,.;:]|$|(?:in|on|with|when|for|among|during)\b))",
    re.IGNORECASE,
)
#: What such a question asks for: causes, outcomes, findings, what goes wrong.
_ASKS = re.compile(
    r"\b(?:causes?|caused|factors?|reasons?|initial\s+events?|consequences?|outcomes?|"
    r"findings?|safety\s+issues?|problems?|go(?:es)?\s+wrong|went\s+wrong|happens?|crash|themes?|"
    r"patterns?|trends?|"
    # what leads to it, is behind it or explains it; what investigations find
    r"leads?\s+to|behind|explains?|culprits?|sources?\s+of|find|"
    r"(?:kinds?|types?)\s+of)\b",
    re.IGNORECASE,
)
#: The records such a question is about.
_RECORDS = re.compile(
    r"\b(?:accidents?|crash(?:es)?|incidents?|mishaps?|occurrences?|casualt(?:y|ies)|ships?|"
    r"vessels?|carriers?|tankers?|aircraft|airplanes?|helicopters?|inquir(?:y|ies)|"
    r"investigations?|reports?|groundings?|collisions?|fires?)\b",
    re.IGNORECASE,
)
_OUTCOME = re.compile(r"\b(?:consequences?|outcomes?)\b", re.IGNORECASE)
#: What ships do, not aircraft (unless the question names aircraft: "seaplanes that capsized").
_SHIP_EVENTS = re.compile(
    r"\b(?:boats?|aground|capsiz\w*|founder\w*|sinks?|sank|sinking|seafarers)\b", re.IGNORECASE
)
_TAIC = re.compile(r"\bTAIC\b|Transport\s+Accident\s+Investigation\s+Commission", re.IGNORECASE)
_SEA = re.compile(
    r"\b(?:casualt(?:y|ies)|ships?|vessels?|maritime|marine|tankers?|carriers?|ferr(?:y|ies)|"
    r"trawlers?|flag(?:ged|s)?|groundings?)\b",
    re.IGNORECASE,
)
_INVOLVING = re.compile(
    r"\b(?:involving|(?<!what\s)(?<!how\s)about|related\s+to|caused\s+by)\s+(?P<words>[\w\s-]{3,40}?)"
    r"(?=\s+(?:in|on|at|during|from|between|since|before|that|which|investigated)\b|[?.!,]|$)",
    re.IGNORECASE,
)
#: A page marker the text of a report carries where a page ended ("<< Page 11 >>").
_PAGE_MARK = re.compile(r"<<\s*page\s+\w+\s*>>", re.IGNORECASE)
#: Examples cited per group, and groups shown.
EXAMPLES = 3
TOP = 6
#: Two examples this alike (shared content stems over all of theirs) say the same.
ALIKE = 0.6


@dataclass(frozen=True)
class PatternPlan:
    """A pattern question: the set (as a count plan), what is grouped, and the narrowing words."""

    plan: CountPlan
    about: str  # cause | outcome | finding | kind (of occurrence a report investigated)
    topic: str  # words every record of the set mentions ("landing"); "" for none
    ignore: frozenset[str]  # stems of the question's own words, which name no group


def pattern_plan(question: str) -> PatternPlan | None:
    """The plan of a pattern question; None when the question asks for no pattern of records
    (or counts them: "how many …" is a count)."""
    plural = names_kinds_of_aircraft(question)
    if not (
        _asks_pattern(question)
        or asks_cause_of_set(question, plural=plural)
        or _asks_taic_set(question)
    ):
        return None
    if count_plan(question) is not None:
        return None
    own = frozenset(content_stems(tokens(question)))
    if _TAIC.search(question) or only_taic(question):
        return _taic_plan(question, own)
    return _record_plan(question, own, sea=_at_sea(question, _asks_outcome(question)))


def other_readings(question: str, pattern: PatternPlan) -> list[PatternPlan]:
    """``question`` read as a pattern of the archive's other kinds of record (TAIC reports, NTSB
    records, IMO casualties), for an archive that holds none of the kind its words suggest:
    "what usually goes wrong on ferries?" over TAIC's marine reports alone."""
    kind, own = pattern.plan.query.kind, pattern.ignore
    readings = [_taic_plan(question, own)]
    readings += [_record_plan(question, own, sea=sea) for sea in (False, True)]
    return [r for r in readings if r.plan.query.kind != kind]


def _record_plan(question: str, own: frozenset[str], *, sea: bool) -> PatternPlan:
    """A pattern of IMO casualties (``sea``) or NTSB records."""
    plan = _whole_families(question, plan_for(question, sea=sea))
    about = "outcome" if sea and _asks_outcome(question) else "cause"
    topic = "" if sea else _topic(question)
    return PatternPlan(plan, about, topic, own)


def _asks_outcome(question: str) -> bool:
    return bool(_OUTCOME.search(question) or asks_afterwards(question) or asks_outcome(question))


def _asks_pattern(question: str) -> bool:
    """A cue of what usually happens, what is asked (causes, what goes wrong) and the records,
    each in the classic words or in users' own (:mod:`answers.pattern_asks`)."""
    cue = _CUE.search(question) or asks_general(question)
    asks = _ASKS.search(question) or asks_why(question) or asks_outcome(question)
    asks = asks or asks_afterwards(question) or asks_kinds(question)
    return bool(cue and asks and (names_archive_records(question) or selects_records(question)))


def names_archive_records(question: str) -> bool:
    """Whether ``question`` names records of the kinds the archive holds (accidents, casualties,
    ships, TAIC reports, an aircraft make), whatever it asks of them."""
    return bool(
        _RECORDS.search(question)
        or names_records(question)
        or names_make(question)
        or _TAIC.search(question)
        or area_in(question)  # "what usually goes wrong in the Strait of Malacca?"
    )


def selects_records(question: str) -> bool:
    """Whether ``question``'s words select records by a typed field, with no record named: a
    place, a period, a make, a purpose of flight ("Banner towing - what usually goes wrong?",
    "Give me the usual causes for Arizona between 2013 and 2015"). A mailbox holds no such
    records: its question finds an empty set and is grouped over its threads
    (:func:`graph.nodes.count_records.grouped`)."""
    sea = _at_sea(question, _asks_outcome(question))
    query = plan_for(question, sea=sea).query
    phased = not sea and bool(phases_in(_GEAR.sub(" ", question)))  # "landing gear": a part
    return query != RecordQuery(kind=query.kind) or phased


_GEAR = re.compile(r"\blanding\s+gears?\b", re.IGNORECASE)
_TAIC_SET = re.compile(r"\b(?:reports|investigations|inquiries|findings)\b", re.IGNORECASE)


def _asks_taic_set(question: str) -> bool:
    """What TAIC's reports, in the plural, found or say, no cue word needed: "what did TAIC's
    investigations into level crossing collisions find?"."""
    taic = _TAIC.search(question) or only_taic(question)
    asks = _ASKS.search(question) or asks_why(question)
    return bool(taic and asks and _TAIC_SET.search(question))


def _at_sea(question: str, outcome: bool) -> bool:
    """Whether a question is about ship casualties: it names ships, a flag or a grounding; a
    sea area or what only ships do, with no aircraft named; or what follows an event only ships'
    records say what follows of ("what do collisions lead to?")."""
    if _SEA.search(question):
        return True
    if names_make(question) or names_aircraft(question):
        return False
    return bool(
        _SHIP_EVENTS.search(question)
        or area_in(question)
        or (outcome and initial_event(question) is not None)
    )


def _taic_plan(question: str, own: frozenset[str]) -> PatternPlan:
    """A TAIC question's reports: of the one mode it names, in the period it names, mentioning
    what it names ("involving …", "where does fatigue come up", "boats that capsized")."""
    mode = taic_mode(question)
    query = RecordQuery(kind="investigation_report", mode=mode)
    query, period = dated(question, query)
    scope = [f"of {mode} occurrences" if mode else "", period]
    topic = taic_topic(_involving(question), mentioned(question), question=question)
    plan = CountPlan(query, "TAIC reports", " ".join(s for s in scope if s), "")
    about = "kind" if asks_occurrence_kinds(question) else "finding"
    return PatternPlan(plan, about, topic, own)


def _whole_families(question: str, plan: CountPlan) -> CountPlan:
    """A pattern describes what happens to a kind of ship: its set is the whole family the
    archive files the asked type in, related types included ("Ore Carrier" with bulk
    carriers), and says so; a count counts the type as recorded and names those apart."""
    found = families_in(question)
    if found is None or not plan.query.vessel_named:
        return plan
    words = plural(found[1])
    scope = plan.scope.replace(f"of {words}", f"of {words} and related types")
    return replace(plan, query=plan.query.whole_families(), scope=scope)


def _topic(question: str) -> str:
    phases = phases_in(question)
    return " ".join([*phases, _involving(question)]).strip()


def _involving(question: str) -> str:
    match = _INVOLVING.search(question)
    return " ".join(match["words"].split()) if match else ""


def statements_of(pattern: PatternPlan, found: list[tuple[Passage, str]]) -> list[Statement]:
    """What is grouped, one item per record: a record's primary cause, a report's findings one
    sentence at a time (or the occurrence its title names), a casualty's recorded value."""
    out = []
    for passage, text in found:
        text = _PAGE_MARK.sub(" ", text)
        if pattern.about == "kind":
            out.append(Statement(passage["doc_id"], occurrence_of(text), passage))
        elif pattern.about == "finding":
            out += [
                Statement(passage["doc_id"], s, passage) for s in sentences(text) if len(s) > 30
            ]
        elif passage["kind"] == "ntsb_report":
            out.append(Statement(passage["doc_id"], _primary(text), passage))
        else:  # one casualty reported twice (one ship, one day) is one incident
            ship, day = (passage.get("vessel_name") or "").strip().lower(), passage.get("date")
            item = f"{ship}|{day}" if ship and day else passage["doc_id"]
            out.append(Statement(item, text, passage))
    return out


def _primary(cause: str) -> str:
    """A probable cause's primary part: before "Contributing to the accident …"."""
    return re.split(r"contributing\s+to", cause, maxsplit=1, flags=re.IGNORECASE)[0].strip()


def groups_of(
    pattern: PatternPlan, statements: list[Statement], reference: list[str]
) -> list[Group]:
    """Named groups, largest first (the rest, "other causes", last)."""
    if statements and statements[0].passage["kind"] == "casualty":
        return group_categories(statements, several=pattern.about == "outcome")
    shares = stem_shares(_primary(_PAGE_MARK.sub(" ", t)) for t in reference)
    glue = {s for s, share in shares.items() if share >= GLUE_SHARE} if shares else None
    shortest = 2 if pattern.about == "finding" else 1
    texts = [s.text for s in statements]
    events = event_stems(texts) if pattern.about == "kind" else None
    # "New Zealand", "KiwiRail": places and bodies, not causes; a title capitalises every word
    names = proper_stems(texts) if events is None else set()
    return group_phrases(
        statements,
        ignore=pattern.ignore | names,
        glue=glue,
        shortest=shortest,
        kinds=kind_stems(texts),
        nameable=None if events is None else lambda phrase: not events.isdisjoint(phrase),
    )


def _basis(pattern: PatternPlan) -> tuple[str, str]:
    """What the groups are made of, as the answer names it: (grouped by, what a record has)."""
    if pattern.about == "finding":
        return "findings", "findings"
    if pattern.about == "kind":
        return "kind of occurrence (the report's title)", "a title"
    if pattern.plan.query.kind == "casualty":
        if pattern.about == "outcome":
            return "recorded consequences", "consequences"
        return "recorded initial event", "an initial event"
    return "probable cause", "a probable cause"


def compose_pattern(pattern: PatternPlan, size: int, groups: list[Group], *, top: int = TOP) -> str:
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
    grouped = len({m.item for g in groups for m in g.members})
    basis, has = _basis(pattern)
    lead = f"{size:,} {_outcome_last(scope, plan.outcome)} are in the archive"
    if grouped < size:
        lead += f"; {grouped:,} of them record {has}"
    lines = [f"{lead}. Grouped by {basis}:"]
    shown: list[frozenset[str]] = []
    for group in groups[:top]:
        share = 100 * group.count / max(grouped, 1)
        name = (
            "Other occurrences" if group.name == OTHER and pattern.about == "kind" else group.name
        )
        lines.append(f"- **{name}** — {group.count:,} of {grouped:,} ({share:.0f}%)")
        for line in example_lines(group, shown):
            markers = "".join(f"[C:{s.passage['chunk_id']}]" for s in line)
            said = _clip(_said(line[0]))
            if line[0].passage["kind"] != "casualty" and pattern.about != "kind":
                said = "; ".join(s.passage["title"] for s in line) + f": {said}"
            lines.append(f"  - {said} {markers}")
    rest = sum(g.count for g in groups[top:])
    if rest:
        lines.append(f"The other {rest:,} of {grouped:,} fall in none of these groups.")
    return "\n".join(lines)


def _outcome_last(scope: str, outcome: str) -> str:
    """``scope`` with an outcome said as "with …" after the records, not before them ("accident
    records from 2014 with nobody killed", but "fatal accident records")."""
    if not outcome.startswith("with ") or not scope.startswith(outcome):
        return scope
    return f"{scope[len(outcome) :].strip()} {outcome}"


def example_lines(group: Group, shown: list[frozenset[str]]) -> list[list[Statement]]:
    """Up to :data:`EXAMPLES` members, one per document, as lines: members saying the same
    (the same words, near enough) share one line; what an earlier group said is not said again."""
    lines: list[tuple[frozenset[str], list[Statement]]] = []
    for statement in group.members:
        words = frozenset(content_stems(tokens(_said(statement))))
        recorded = statement.passage["kind"] == "casualty"  # its summary names it: no merging
        same = None if recorded else next((line for w, line in lines if _alike(words, w)), None)
        if same is not None:
            same.append(statement)
        elif not any(_alike(words, w) for w in shown):
            lines.append((words, [statement]))
        if sum(len(line) for _, line in lines) >= EXAMPLES:
            break
    shown += [w for w, _ in lines]
    return [line for _, line in lines]


def _alike(a: frozenset[str], b: frozenset[str]) -> bool:
    return len(a & b) >= ALIKE * max(len(a | b), 1)


def _said(statement: Statement) -> str:
    """What an example line says: a casualty's one-line summary (ship, type, severity, event,
    date, place), else the statement."""
    if statement.passage["kind"] == "casualty":
        return statement.passage["summary"] or statement.passage["text"]
    return statement.text


def _clip(text: str, limit: int = 220) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
