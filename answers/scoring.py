"""How well each sentence answers the question: shared terms, meaning, and the role it plays."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Sequence

import numpy as np

from answers.aspects import Aspect
from answers.units import Unit
from text.words import content_stems, is_identifier, tokens

logger = logging.getLogger(__name__)

#: Sentence embeddings, one L2-normalised row per text (MiniLM or the configured model).
Embed = Callable[[list[str]], np.ndarray]

#: Weight of the sentence's cosine to the question against its shared terms: MiniLM cosines of
#: a sentence that answers sit around 0.4-0.7, of an unrelated one around 0.0-0.2.
SEMANTIC_WEIGHT = 2.5
#: A sentence sharing no term with the question answers it when this close in meaning.
SEMANTIC_ALONE = 0.35
#: Sentences embedded per answer, the most promising by shared terms and role.
MAX_EMBEDDED = 24
#: Bonus per (aspect, role): a why-question wants causes, a how-fixed one the fix.
ROLE_BONUS: dict[Aspect, dict[str, float]] = {
    "cause": {"cause": 1.5, "found": 1.5, "problem": -0.5, "fix": -0.3, "confirm": -0.5},
    "fix": {"fix": 1.5, "found": 1.5, "hint": 0.5, "confirm": 0.3, "problem": -1.0, "cause": 0.2},
    "happened": {"outcome": 1.0, "cause": 0.5},
    "pattern": {"cause": 0.8, "outcome": 0.5},
    "general": {},
}
#: How fast a role's bonus fades with its passage's rank.
ROLE_RANK_DECAY = 0.25
#: A sentence that is itself a question, for a why or how-fixed question.
QUESTION_PENALTY = 1.0
#: A sentence that asks back or is a courtesy rather than an outcome, question mark or not:
#: a request for information ("can you send the log", "please post the output", "if you can
#: provide that", "a bug report would help") or a greeting or sign-off ("hope this helps").
ASKS_BACK = re.compile(
    r"\b(?:(?:can|could|would)\s+you\s+(?:please\s+)?(?:send|share|post|provide|attach|paste"
    r"|tell|show|give|check\s+whether)|please\s+(?:send|share|post|provide|attach|paste)"
    r"|if\s+you\s+can\s+(?:provide|send|share|post)|(?:logs?|output|report)\s+would\s+help"
    r"|what\s+(?:version|does|is\s+the\s+output)|hope\s+(?:this|that)\s+helps|good\s+luck)\b"
    r"|^(?:hi|hello|dear|thanks|thank\s+you|regards|cheers|best)\b[^.!?]{0,30}[.!,]?\s*$",
    re.I,
)
#: A cause section's or a digest's resolution carries its role by construction.
STATED_BONUS = 1.0


def scores(
    query: str,
    units: Sequence[Unit],
    aspect: Aspect,
    *,
    scope: Sequence[str] = (),
    embed: Embed | None = None,
    also_cause: bool = False,
) -> list[float]:
    """One score per unit; 0 for a sentence that neither shares a term with ``query``, nor is
    close to it in meaning, nor plays the role the question asks for (a cause for a why)."""
    words = tokens(query)
    scoped = {t for name in scope for t in tokens(name)}
    stems = set(content_stems(words)) - set(content_stems(list(scoped)))
    ids = {w for w in words if is_identifier(w)} - scoped
    if not stems and not ids:  # the question is only the scope: use it after all
        stems, ids = set(content_stems(words)), {w for w in words if is_identifier(w)}
    bonus = ROLE_BONUS[aspect]
    if also_cause and aspect == "fix":  # "what was the culprit and how was it fixed?"
        bonus = {**bonus, "cause": ROLE_BONUS["cause"]["cause"]}
    lexical = []
    for unit in units:
        unit_words = tokens(unit.text)
        overlap = len(stems & set(content_stems(unit_words))) / math.sqrt(len(stems) or 1)
        role = bonus.get(unit.role, 0.0)
        if unit.stated and role > 0:
            role += STATED_BONUS
        if role > 0:  # a lower passage's role counts for less: it is about something else
            role /= 1 + ROLE_RANK_DECAY * unit.rank
        if aspect in ("cause", "fix") and unit.text.rstrip().endswith("?"):
            role -= QUESTION_PENALTY  # a question asked in the thread answers nothing
        elif aspect in ("cause", "fix") and ASKS_BACK.search(unit.text):
            role -= QUESTION_PENALTY  # so does a request for information or a courtesy
        lexical.append((overlap + len(ids & set(unit_words)), role + 0.3 / (1 + unit.rank)))
    # Only the most promising sentences are embedded (a sentence embedding costs ~5 ms here).
    promising = sorted(range(len(units)), key=lambda i: -sum(lexical[i]))[:MAX_EMBEDDED]
    cosines = dict(
        zip(promising, _cosines(query, [units[i] for i in promising], embed), strict=True)
    )
    out = []
    for i, unit in enumerate(units):
        shared, extra = lexical[i]
        cosine = cosines.get(i, 0.0)
        wanted = bonus.get(unit.role, 0.0) > 0  # the role the question asks for
        if not shared and cosine < SEMANTIC_ALONE and not wanted:
            out.append(0.0)
        else:
            out.append(shared + SEMANTIC_WEIGHT * max(cosine, 0.0) + extra)
    return out


def _cosines(query: str, units: Sequence[Unit], embed: Embed | None) -> list[float]:
    """Each unit's cosine to ``query``; zeros without an embedder or when it fails (logged)."""
    if embed is None or not units:
        return [0.0] * len(units)
    try:
        vectors = embed([query, *(u.text for u in units)])
    except Exception as err:  # noqa: BLE001 - any provider failure: answer on shared terms
        logger.warning("sentence embeddings failed, choosing on shared terms: %s", err)
        return [0.0] * len(units)
    return [float(v) for v in vectors[1:] @ vectors[0]]


def embedder(embed_documents: Callable[[list[str]], list[list[float]]]) -> Embed:
    """An :data:`Embed` over a LangChain ``embed_documents`` (rows normalised here)."""

    def embed(texts: list[str]) -> np.ndarray:
        matrix = np.asarray(embed_documents(texts), dtype=np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1.0, norms)

    return embed
