"""Words: tokens, stop words and stems, the same as the BM25 index reads them.

The lexical arm of retrieval is PostgreSQL's ``english`` text-search configuration: it drops the
stop words of ``tsearch_data/english.stop`` and stems the rest with Snowball English
(``english_stem``). Everything else that compares words (the reranker's features, the composer,
topic phrases) uses this module, so a word means the same thing to all of them: :data:`STOP_WORDS`
is that list, :func:`stem` the same Snowball algorithm (PyStemmer), checked against
``to_tsvector('english', ...)`` by ``tests/integration/test_text_postgres.py``. PostgreSQL 18
ships a newer Snowball English than PyStemmer 3.1 (more exceptional prefixes: "univers",
"organ", "intern", "later"; "-ologist" kept): 77 of the 36,553 word types of the pc2narr and
SciFact corpora (0.2 %) stem differently; that test pins them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import Stemmer

#: PostgreSQL's English stop words (``share/postgresql/tsearch_data/english.stop``, the Snowball
#: list), in that file's order; ``to_tsvector('english', ...)`` keeps none of them.
STOP_WORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
    her hers herself it its itself they them their theirs themselves what which who whom this that
    these those am is are was were be been being have has had having do does did doing a an the and
    but if or because as until while of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only own
    same so than too very s t can will just don should now
    """.split()  # noqa: SIM905 - a word list reads better as text
)

#: Words a question asks with, and filler and modal words, that PostgreSQL's list keeps ("tell
#: me which reports describe ...", "what might cause ..."): :func:`topic_stems` leaves them out
#: too, for the reranker's features, where they match any passage that says "find" or "may".
ASKING_WORDS = frozenset(
    """
    also anything could describe either else ever explain find get give got however kind know let
    like list made make many may might much must need one ones per please shall show someone
    something tell thing things upon us use used using via want way ways whatever whether whose
    within without would yet
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_TOPIC_STOP_WORDS = STOP_WORDS | ASKING_WORDS

#: Names of the tokenisation and stemming, recorded with anything fitted on stems (the reranker's
#: weights), so a model fitted on other stems is refused rather than silently misread.
STEMMER = "snowball-english, asking words dropped"

_TOKEN = re.compile(r"[a-z0-9]+(?:[-/.][a-z0-9]+)*")
_STEMMER = Stemmer.Stemmer("english")


def tokens(text: str) -> list[str]:
    """Lower-case word tokens; hyphenated and dotted identifiers (ERR-4711, v4.7) stay whole, an
    apostrophe splits ("pilot's" -> "pilot", "s") as PostgreSQL's parser does."""
    return _TOKEN.findall(text.lower())


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball English stem of a lower-case alphabetic word (PostgreSQL's ``english_stem``);
    anything else (numbers, identifiers, hyphenated words) is returned as it is."""
    if not word.isalpha():
        return word
    return str(_STEMMER.stemWord(word))


def content_stems(words: Sequence[str]) -> list[str]:
    """Stems of the words that carry meaning: stop words and one-letter tokens dropped."""
    return [stem(w) for w in words if len(w) > 1 and w not in STOP_WORDS]


def topic_stems(words: Sequence[str]) -> list[str]:
    """Stems of the words that name a topic: :func:`content_stems` without :data:`ASKING_WORDS`."""
    return [stem(w) for w in words if len(w) > 1 and w not in _TOPIC_STOP_WORDS]


def is_identifier(token: str) -> bool:
    """A token naming one thing: a report, registration, part or IMO number (ERA22LA175, N3718F,
    ERR-4711, 9234567) — at least 5 characters and 2 digits, so gene names (p53, IL-6, BRCA1)
    and years (2019) are not."""
    compact = token.replace("-", "").replace("/", "").replace(".", "")
    digits = sum(ch.isdigit() for ch in compact)
    return len(compact) >= 5 and digits >= 2
