"""Named groups of a set's cause or outcome statements, found in the statements themselves.

Two kinds of statement, two ways to group, neither from a list of expected causes:

- a *recorded category* (an IMO casualty's initial event, its consequences): the group is the
  value, spellings that stem alike merged ("Foundered", "Foundering"), named by its most used
  spelling;
- *free text* (an NTSB probable cause, a TAIC finding): the statements' content stems
  (:mod:`text.words`) are cut into phrases of one to three stems; the phrase found in the most
  items not yet grouped (a longer phrase weighs a little more, so "loss of engine power" names
  the group rather than "engine") becomes a group, its items leave the pool, and so on. Stems in
  nearly every statement of the set ("pilot", "resulted") name nothing and are not phrase ends.
  A group is named by the words the statements themselves use for the phrase.

An *item* is one incident (one record, one report): it counts once in one group however many of
its statements match, so the counts add up to the set.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from archive.store.passages import Passage
from text.sentences import sentences
from text.words import STOP_WORDS, stem, tokens

#: A stem in at least this share of the set's items is glue ("pilot", "failure"), not a cause.
GLUE_SHARE = 0.45
#: Statements a reference set needs before its common words are taken for glue.
MIN_REFERENCE = 20
#: Groups named before the rest is "other".
MAX_GROUPS = 6
#: Weight of a phrase of one, two, three stems: a pair names a cause better than a word.
WEIGHT = {1: 0.3, 2: 1.0, 3: 1.15}
#: Content words a pair may have between its two stems.
GAP = 1
#: A group holds at least this many items (and this share of the set).
MIN_ITEMS = 2
MIN_SHARE = 0.03
OTHER = "Other causes"
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: A longer phrase names a group when it holds this share of the shorter phrase's items.
SPECIALISE = 0.5
#: Where a clause of free text ends: a *tight* phrase (:func:`group_phrases`) never crosses one.
_CLAUSE = re.compile(r"[,;:()\[\]!?\"“”]|\.(?=\s|$)|\s[-–—]+\s")
#: Words a tight phrase may have between two of its content words ("loss of lock", not "threads
#: are not executed").
TIGHT_BETWEEN = 1
#: Weight of a phrase the caller prefers (``prefer``: one naming a thing, "set the MTU" over
#: "jumbo frames reach").
PREFERRED = 1.25


@dataclass(frozen=True)
class Statement:
    """One cause or outcome statement of one item of the set."""

    item: str  # the incident it belongs to (document id)
    text: str  # what is grouped: a sentence, or a recorded category
    passage: Passage  # what an example cites


@dataclass
class Group:
    """A named group: one statement per member item, the matching one."""

    name: str
    members: list[Statement] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.members)


#: An item's statements, each with its words and their stems.
Said = list[tuple[Statement, list[str], list[str]]]


def group_categories(statements: Sequence[Statement], *, several: bool = False) -> list[Group]:
    """Groups by recorded value; ``several``: a value lists several, comma-separated, and an item
    counts in each it lists (consequences: "Loss of life,Total loss of the ship")."""
    members: dict[str, dict[str, Statement]] = defaultdict(dict)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for statement in statements:
        values = statement.text.split(",") if several else [statement.text]
        for value in values:
            value = value.strip(" *")
            if not value or value.startswith("["):
                continue
            key = " ".join(_stems(value)) or value.lower()
            members[key].setdefault(statement.item, statement)
            spellings[key][value] += 1
    groups = [
        Group(_capital(spellings[key].most_common(1)[0][0]), list(found.values()))
        for key, found in members.items()
    ]
    return sorted(groups, key=lambda g: (-g.count, g.name))


def stem_shares(texts: Iterable[str]) -> dict[str, float]:
    """Each content stem with the share of ``texts`` that hold it ({} for fewer than
    :data:`MIN_REFERENCE` texts: too few to tell)."""
    counts: Counter[str] = Counter()
    n = 0
    for text in texts:
        n += 1
        counts.update(set(_stems(text)))
    return {s: k / n for s, k in counts.items()} if n >= MIN_REFERENCE else {}


def glue_stems(texts: Iterable[str], *, share: float = GLUE_SHARE) -> set[str]:
    """Stems in at least ``share`` of ``texts`` (a reference set: every cause statement of the
    archive's records of one kind): words every statement uses, which name no cause."""
    return {s for s, k in stem_shares(texts).items() if k >= share}


def group_phrases(
    statements: Sequence[Statement],
    *,
    ignore: Iterable[str] = (),
    glue: Iterable[str] | None = None,
    max_groups: int = MAX_GROUPS,
    shortest: int = 1,
    nameable: Callable[[tuple[str, ...]], bool] | None = None,
    kinds: Iterable[str] = (),
    tight: bool = False,
    prefer: Callable[[tuple[str, ...]], bool] | None = None,
) -> list[Group]:
    """Groups of free-text statements by the phrases most items share; the items no group took
    form a last group, :data:`OTHER`. ``ignore``: stems that name no group (the question's own
    words: "landing" in a question about landing accidents); ``glue``: stems that name nothing
    (:func:`glue_stems` of a reference set; by default those of this set); ``shortest``: the
    fewest stems a group's phrase has (2 where an item says many things, as a report's
    findings do: one word is in most of them); ``nameable``: whether a phrase (its stems) may
    name a group (None: any); ``kinds``: stems that say what the records are, not why
    ("helicopter", "airplane", "tanker"): never a group's name alone, and a group whose name
    differs from an earlier one's only by them, or says less than it, joins it ("loss of
    control" and "loss of airplane control", "loss of engine" and "loss of engine power");
    ``tight``: a phrase's words stand together within one clause, at most
    :data:`TIGHT_BETWEEN` word between two of them (free text by many writers, a mailing
    list's: two replies that say "pin" and "high" a few words apart, or "arguments, the
    session" across a comma, share no thing; a record's formulaic "failure to maintain
    directional control" and "failure to maintain control" do); ``prefer``: phrases that weigh
    :data:`PREFERRED` times as much (of equals, the one that names a thing)."""
    items = _items(statements, tight=tight)
    if glue is None:
        glue = glue_stems(s.text for s in statements)
    glue = set(glue) | set(ignore) | {stem(w) for w in STOP_WORDS}
    phrases, where = _phrase_items(items, glue, tight=tight)
    least = max(MIN_ITEMS, round(MIN_SHARE * len(items)))
    kind_stems = set(kinds)

    def may_name(phrase: tuple[str, ...]) -> bool:
        if len(phrase) == 1 and phrase[0] in kind_stems:
            return False
        return nameable is None or nameable(phrase)

    left, groups = set(items), list[Group]()
    banned: set[tuple[str, ...]] = set()  # phrases that would only repeat an earlier group's name
    while left and len(groups) < max_groups:
        scored = [
            (len(found & left) * WEIGHT[len(p)] * _weight(p, prefer), -where[p] / len(found), p)
            for p, found in phrases.items()
            if len(found & left) >= least and len(p) >= shortest and p not in banned and may_name(p)
        ]
        if not scored:
            break
        best = _specialised(max(scored)[2], phrases, left, least, may_name)
        taken = sorted(phrases[best] & left)
        group = _named(best, [items[i] for i in taken])
        same = next((g for g in groups if _same_cause(g.name, group.name, kind_stems)), None)
        if same is not None:  # "maintain airplane control", "maintain control of the airplane"
            same.members += group.members
            same.name = _joined_name(same.name, group.name, kind_stems)
        elif any(_within(group.name, g.name, kind_stems) for g in groups):
            banned.add(best)  # "interface" after "network interface": a name said already
            continue
        else:
            groups.append(group)
        left -= set(taken)
    groups.sort(key=lambda g: -g.count)
    if left:
        groups.append(Group(OTHER, [items[i][0][0] for i in sorted(left)]))
    return groups


def _items(statements: Sequence[Statement], *, tight: bool) -> dict[str, Said]:
    """Each item's statements with their words and stems; ``tight``: each clause apart."""
    items: dict[str, Said] = defaultdict(list)
    for statement in statements:
        parts = [p for p in _CLAUSE.split(statement.text) if p.strip()] if tight else []
        for part in parts or [statement.text]:
            words = grouped_words(part)
            items[statement.item].append((statement, words, [stem(w) for w in words]))
    return items


def _weight(phrase: tuple[str, ...], prefer: Callable[[tuple[str, ...]], bool] | None) -> float:
    return PREFERRED if prefer is not None and prefer(phrase) else 1.0


def _phrase_items(
    items: dict[str, Said], glue: set[str], *, tight: bool = False
) -> tuple[dict[tuple[str, ...], set[str]], Counter[tuple[str, ...]]]:
    """Each phrase with the items that hold it, and its summed positions (a cause's head comes
    first)."""
    phrases: dict[tuple[str, ...], set[str]] = defaultdict(set)
    where: Counter[tuple[str, ...]] = Counter()
    for item, said in items.items():
        for _, words, stems in said:
            for phrase, at in _phrases(words, stems, glue, tight=tight).items():
                phrases[phrase].add(item)
                where[phrase] += at
    return phrases, where


def _same_cause(a: str, b: str, kinds: set[str]) -> bool:
    """Whether two group names name one cause: the same stems, what the records are aside, or
    one's (two at least) all in the other's."""
    x, y = set(_stems(a)) - kinds, set(_stems(b)) - kinds
    if not x or not y:
        return False
    return x == y or (min(len(x), len(y)) >= 2 and (x <= y or y <= x))


def _joined_name(first: str, then: str, kinds: set[str]) -> str:
    """The name of a group that ``then``'s items joined: ``first``, unless ``then`` says less
    and what ``first`` says more qualifies a word both say: "maintain directional control"
    joined by "maintain control" (items that do not say directional) is "Maintain control", true
    of every example; "loss of engine power" joined by "loss of engine" stays, its last word
    only completes the phrase."""
    old = [s for s in _stems(first) if s not in kinds]
    new = [s for s in _stems(then) if s not in kinds]
    if not set(new) < set(old):
        return first
    shared = [i for i, s in enumerate(old) if s in new]
    qualifies = any(s not in new and i < shared[-1] for i, s in enumerate(old))
    return then if qualifies else first


def _within(a: str, b: str, kinds: set[str]) -> bool:
    """Whether every word of name ``a`` (what the records are aside) is in name ``b``."""
    x = set(_stems(a)) - kinds
    return bool(x) and x <= set(_stems(b)) - kinds


def proper_stems(texts: Iterable[str], *, share: float = 0.6) -> set[str]:
    """Stems written as names (capitalised inside a sentence, "New Zealand", "KiwiRail") in at
    least ``share`` of their uses past a sentence's first word, twice at least: places and
    organisations, which name no cause."""
    uses: Counter[str] = Counter()
    named: Counter[str] = Counter()
    for text in texts:
        for sentence in sentences(text):
            for word in _WORD.findall(sentence)[1:]:
                key = stem(word.lower())
                uses[key] += 1
                named[key] += word[0].isupper() and not word.isupper()
    return {k for k, n in uses.items() if n >= 2 and named[k] >= share * n}


def _specialised(
    phrase: tuple[str, ...],
    phrases: dict[tuple[str, ...], set[str]],
    left: set[str],
    least: int,
    nameable: Callable[[tuple[str, ...]], bool],
) -> tuple[str, ...]:
    """The longest phrase holding ``phrase`` that still holds at least :data:`SPECIALISE` of its
    items ("engine" -> "loss of engine power" when most mentions of the engine are that), and
    at least ``least``, and may name a group."""
    while True:
        base = len(phrases[phrase] & left)
        longer = [
            (len(found & left), p)
            for p, found in phrases.items()
            if len(p) == len(phrase) + 1 and (p[:-1] == phrase or p[1:] == phrase) and nameable(p)
        ]
        best = max(longer, default=(0, phrase))
        if best[0] < max(SPECIALISE * base, least):
            return phrase
        phrase = best[1]


def _phrases(
    words: list[str], stems: list[str], glue: set[str], *, tight: bool = False
) -> dict[tuple[str, ...], int]:
    """Single content stems, ordered pairs at most :data:`GAP` content words apart ("maintain …
    control" in both "maintain directional control" and "maintain control of the airplane") and
    runs of three; no glue at either end. ``tight``: pairs and runs of neighbouring content
    words only, at most :data:`TIGHT_BETWEEN` other word between two of them."""
    at = [k for k, w in enumerate(words) if w not in STOP_WORDS and len(w) > 1]
    content = [stems[k] for k in at]
    gap = 0 if tight else GAP

    def near(i: int, j: int) -> bool:
        return not tight or at[j] - at[i] - 1 <= TIGHT_BETWEEN

    out: dict[tuple[str, ...], int] = {}
    for i, first in enumerate(content):
        if first in glue:
            continue
        out.setdefault((first,), i)
        for j in range(i + 1, min(len(content), i + gap + 2)):
            if content[j] not in glue and content[j] != first and near(i, j):
                out.setdefault((first, content[j]), i)
        run = tuple(content[i : i + 3])
        tied = len(run) == 3 and near(i, i + 1) and near(i + 1, i + 2)
        if tied and run[-1] not in glue and len(set(run)) == 3:
            out.setdefault(run, i)
    return out


def _named(
    phrase: tuple[str, ...], members: list[list[tuple[Statement, list[str], list[str]]]]
) -> Group:
    """The group of ``phrase``: per item its first statement holding the phrase, named by the
    words the statements use for it most often ("loss of engine power"), of those that add no
    word of their own when some do: "maintain control", not "maintain directional control",
    when some of its items do not say directional (a name true of every example)."""
    spellings: Counter[str] = Counter()
    chosen = []
    for said in members:
        for statement, words, stems in said:
            span = _span(words, stems, phrase)
            if span:
                spellings[span] += 1
                chosen.append(statement)
                break
        else:
            chosen.append(said[0][0])
    plain = Counter({w: n for w, n in spellings.items() if set(_stems(w)) <= set(phrase)})
    name = (plain or spellings).most_common(1)[0][0] if spellings else " ".join(phrase)
    return Group(_capital(name), chosen)


def _span(words: list[str], stems: list[str], phrase: tuple[str, ...]) -> str:
    """The words of a statement from the phrase's first stem to its last, stop words between
    kept ("loss of engine power"); "" when the statement does not hold the phrase in order."""
    for start, s in enumerate(stems):
        if s != phrase[0]:
            continue
        at, end = 1, start
        gaps = 0
        for j in range(start + 1, min(len(stems), start + 4 * len(phrase) + 1)):
            if at == len(phrase):
                break
            if stems[j] == phrase[at]:
                at, end = at + 1, j
            elif words[j] not in STOP_WORDS:
                gaps += 1
                if gaps > GAP:
                    break
        if at == len(phrase):
            return " ".join(words[start : end + 1])
    return ""


#: A quantity written with its unit ("10mhz", "1gbe", "200msps"): the unit is the word.
_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?([a-z]{2,})")


#: A word's contraction with its apostrophe: "you're", "I've", "doesn't" (:func:`tokens` splits
#: it: "you", "re"); the pieces are no content word. A possessive ("pilot’s") keeps its word.
_CONTRACTED = re.compile(r"\b[A-Za-z]+[’'](?:re|ve|ll|d|m|t)\b", re.IGNORECASE)


def grouped_words(text: str) -> list[str]:
    """The words of ``text`` that phrases are made of: its alphabetic tokens, and the unit of a
    quantity written with it ("10MHz" is "mhz", as "10 MHz" is); a contraction ("you're",
    "doesn't") is none: its pieces ("re", "doesn") would be read as words."""
    out = []
    for word in tokens(_CONTRACTED.sub(" ", text)):
        if word.isalpha():
            out.append(word)
        elif unit := _QUANTITY.fullmatch(word):
            out.append(unit[1])
    return out


def _stems(text: str) -> list[str]:
    return [stem(w) for w in tokens(text) if w.isalpha() and w not in STOP_WORDS]


#: A possessive's "s", which :func:`grouped_words` reads apart ("instructor s delayed").
_POSSESSIVE = re.compile(r"(?<=[a-z]) s\b")


def _capital(name: str) -> str:
    name = _POSSESSIVE.sub("’s", re.sub(r"\s+", " ", name).strip())
    return name[:1].upper() + name[1:].lower() if name.isupper() else name[:1].upper() + name[1:]
