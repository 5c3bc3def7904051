"""The text module's words are the BM25 index's: PostgreSQL's ``english`` configuration.

BM25 runs on ``to_tsvector('english', ...)``; the reranker's features, the composer and pair
mining run on :mod:`text.words`. Both must drop the same stop words and give the same stems.
"""

from __future__ import annotations

import pytest

from agent.wiring import Services
from text.words import STOP_WORDS, content_stems, stem, tokens

pytestmark = pytest.mark.integration

# A probable cause, a narrative, a mail and a claim, with the word forms Snowball treats apart.
SAMPLE = """
The pilot's failure to maintain directional control during the landing roll, which resulted in
a runway excursion. Contributing to the accident were the gusting crosswind and the pilot's
fatigue. The mechanic's inadequate preflight inspections; generalizations about the carburetor
icing were hopefully ignored. Engines flew, flies, flying, skies, dying, lying, agreed, agreement,
generously, happily, relational, conditional, ponies, caresses, cats, proceeding, exceeded,
succeeding, news, innings, outing, canning, earring, herrings, atlantic, communism, arsenal,
gently, early, singly, only, ugly, sky, hopefulness, effective, electrical, hopeful.
Thanks for the reply, the B210 drops samples at 61 MS/s with UHD 4; I rebuilt it and it worked.
ERA22LA175 and N3718F were registered; IMO 9234567 reported it in 2019.
Vitamin supplementation reduced mortality in malnourished children across the trials.
"""


#: Where PostgreSQL 18's english_stem (a Snowball English newer than any on PyPI: more R1
#: prefixes, "-ologist" kept) and PyStemmer 3.1 part: 77 of the 36,553 word types of the
#: pc2narr and SciFact corpora (0.2 %). word: (PyStemmer, PostgreSQL).
KNOWN_DIFFERENCES = {
    "universal": ("universal", "univers"),
    "university": ("universiti", "univers"),
    "biologist": ("biolog", "biologist"),
    "organization": ("organiz", "organ"),
    "international": ("internat", "intern"),
    "lateral": ("lateral", "later"),
    "emergency": ("emergenc", "emerg"),
    "evening": ("evening", "even"),
}


async def _lexemes(services: Services, text: str) -> list[str]:
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT lexeme FROM unnest(to_tsvector('english', %s)) ORDER BY lexeme", (text,)
        )
        return [row["lexeme"] for row in await cur.fetchall()]


async def test_content_stems_are_the_lexemes_postgres_indexes(services: Services) -> None:
    ours = set(content_stems(tokens(SAMPLE)))
    theirs = set(await _lexemes(services, SAMPLE))
    # one-letter tokens: PostgreSQL keeps a non-stop one ("4" of "UHD 4"), the features drop it
    assert ours == {lexeme for lexeme in theirs if len(lexeme) > 1}


async def test_each_word_stems_as_postgres_stems_it(services: Services) -> None:
    words = sorted({w for w in tokens(SAMPLE) if w.isalpha() and w not in STOP_WORDS})
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT w, ts_lexize('english_stem', w) AS lexemes FROM unnest(%s::text[]) AS w",
            (words,),
        )
        theirs = {row["w"]: row["lexemes"] for row in await cur.fetchall()}
    assert {w: [stem(w)] for w in words} == theirs


async def test_stop_words_are_postgres_english_stop_words(services: Services) -> None:
    """Every word of STOP_WORDS is one PostgreSQL drops, and of the words other stop lists hold
    (the reranker's and the topic phrases' before this module), PostgreSQL drops no other."""
    others = """
        about above also although always among another anyone anything because cannot could
        either else ever every however indeed just let many may might much must neither
        never often one per please rather really same several shall since still though thus
        upon us via whatever whether within without would yet tell show give find list
        explain describe
    """.split()  # noqa: SIM905 - a word list reads better as text
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT w, ts_lexize('english_stem', w) = '{}' AS stop FROM unnest(%s::text[]) AS w",
            (sorted(STOP_WORDS | set(others)),),
        )
        dropped = {row["w"] for row in await cur.fetchall() if row["stop"]}
    assert dropped == STOP_WORDS


async def test_the_known_differences_from_postgres_are_pinned(services: Services) -> None:
    """If PyStemmer or PostgreSQL moves, this fails and the table above is brought up to date."""
    words = sorted(KNOWN_DIFFERENCES)
    async with services.store.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT w, ts_lexize('english_stem', w) AS lexemes FROM unnest(%s::text[]) AS w",
            (words,),
        )
        theirs = {row["w"]: row["lexemes"][0] for row in await cur.fetchall()}
    assert {w: (stem(w), theirs[w]) for w in words} == KNOWN_DIFFERENCES
