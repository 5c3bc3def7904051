"""The click vocabulary (tools.click_vocabulary, adapt.vocabulary_fit): question words learnt
from what users opened carry over to questions and documents nobody gave feedback on; a
vocabulary that scores worse on the questions held back from it is refused; it travels in the
click memory's file, and the pipeline applies it."""

from __future__ import annotations

import numpy as np
import pytest

from adapt.memory_fit import MIN_MOVABLE, Fitted, Pool, Ranked, ndcg
from adapt.translation import fit_translation
from adapt.vocabulary_fit import FittedVocabulary, VocabularyQuestions, blended, fit_vocabulary
from tests.fakes.feedback_checks import nested_check
from tools.click_memory import ClickMemory, RecalledClicks
from tools.click_residual import ClickResidual
from tools.click_vocabulary import ClickVocabulary

CAUSES = [
    ("spatial disorientation after losing visual references", "entered clouds no horizon dark"),
    ("fuel starvation from improper fuel management", "tank empty selector engine quit"),
    ("failure to maintain directional control on landing", "gust swerved runway ground loop"),
]
FILLER = "airplane flight pilot reported examined substantial damage wing"


def _question(n: int, cause: int, *, relevant_at: int) -> Ranked:
    """A probable cause asked in the cause's words; the pool holds one narrative per cause in
    the narratives' own words (no word shared with any question) and two fillers, the reranker's
    scores falling, the question's own narrative at ``relevant_at``."""
    asked, _ = CAUSES[cause]
    others = [c for c in range(len(CAUSES)) if c != cause]
    order = [f"q{n}-filler0", f"q{n}-filler1", *(f"q{n}-cause{c}" for c in others)]
    order.insert(relevant_at, f"q{n}-cause{cause}")
    texts = tuple(
        f"{CAUSES[int(s[-1])][1]} {FILLER} case {n}" if "cause" in s else f"{FILLER} case {n} {s}"
        for s in order
    )
    chunks = tuple(f"{s}-c" for s in order)
    base = np.linspace(0.9, 0.5, len(order))
    shown = relevant_at + 1
    pool = Pool(chunks, base, np.zeros((len(order), 1)), ((chunks[relevant_at], shown),), texts)
    relevant = frozenset({f"q{n}-cause{cause}"})
    return Ranked(f"{asked} case {n}", relevant, tuple(order), len(order), pool)


def test_words_users_opened_together_lift_unseen_questions_and_documents() -> None:
    labelled = [_question(n, n % 3, relevant_at=2 + n % 2) for n in range(45)]
    fitted = fit_vocabulary(labelled)
    assert fitted.installable and fitted.vocabulary is not None
    assert fitted.check.better > fitted.check.worse and fitted.check.gain > 0.0
    assert fitted.pairs == 45 and fitted.report()["weight"] == fitted.weight
    # New questions, new narratives (other case numbers), each one's narrative fourth: first.
    for n in range(100, 106):
        unseen = _question(n, n % 3, relevant_at=3)
        assert ndcg(unseen.sources, unseen.relevant) < 0.5
        assert blended(unseen, fitted.vocabulary)[0] in unseen.relevant


def test_a_vocabulary_worse_on_the_held_back_questions_is_refused() -> None:
    # Every question's narrative is already first: a blend can only keep or lose it.
    labelled = [_question(n, n % 3, relevant_at=0) for n in range(45)]
    fitted = fit_vocabulary(labelled)
    assert not fitted.installable
    assert fitted.check.gain <= 0.0
    model = fit_translation([("fuel", "tank")], ["tank"])
    some = ClickVocabulary(model, 1.0, 0.1)
    worse = FittedVocabulary(some, Fitted(None, [1.0, 1.0, 0.5], [0.6, 1.0, 0.6]), 1.0, 3)
    assert not worse.installable  # a mean loss
    even = FittedVocabulary(some, Fitted(None, [0.5, 1.0], [1.0, 0.9]), 1.0, 2)
    assert not even.installable  # a mean gain, but as many questions lower as higher


def test_the_weight_is_chosen_with_questions_counted_by_where_their_document_was_shown() -> None:
    labelled = [_question(n, n % 3, relevant_at=n % 4) for n in range(12)]
    assert VocabularyQuestions(labelled).counts == [float(n % 4 + 1) for n in range(12)]


def test_a_vocabulary_lifting_what_can_move_and_keeping_the_first_ones_is_installed() -> None:
    some = ClickVocabulary(fit_translation([("fuel", "tank")], ["tank"]), 1.0, 0.1)
    lifts = nested_check(first=200, fell=4, rose=5, sank=3, still=4)
    assert FittedVocabulary(some, lifts, 1.0, 212).installable
    assert not FittedVocabulary(None, lifts, None, 0).installable  # nothing chosen
    drops = nested_check(first=200, fell=30, rose=5, sank=3, still=4)
    assert not FittedVocabulary(some, drops, 1.0, 212).installable
    few = nested_check(first=40, fell=0, rose=MIN_MOVABLE - 1, sank=0, still=0)
    assert not FittedVocabulary(some, few, 1.0, 49).installable
    report = FittedVocabulary(some, lifts, 1.0, 212).report()
    assert report["movable"]["questions"] == 12 and report["first"]["questions"] == 200


def _passage(i: int, text: str, rerank: float) -> dict[str, object]:
    return {
        "chunk_id": f"c{i}",
        "source_id": f"d{i}",
        "doc_id": f"d{i}",
        "title": "",
        "subject": None,
        "text": text,
        "cosine": 0.5,
        "bm25": 1.0,
        "score": 0.5,
        "rerank": rerank,
    }


async def test_the_memory_file_carries_the_vocabulary_and_the_pipeline_applies_it() -> None:
    model = fit_translation(
        [(asked, words) for asked, words in CAUSES] * 3, [words for _, words in CAUSES]
    )
    vocabulary = ClickVocabulary(model, 2.0, 0.1)
    memory = ClickMemory(np.zeros((0, 3), np.float32), (), 0.5, 0.0, vocabulary=vocabulary)
    again = ClickMemory.from_bytes(memory.to_bytes())
    assert again.vocabulary is not None and again.residual is None
    assert again.vocabulary.weight == 2.0
    assert again.vocabulary.model.to_json() == model.to_json()  # the table as stored
    passages = [
        _passage(0, "tank empty selector engine quit", 0.9),
        _passage(1, "entered clouds no horizon dark", 0.85),
    ]

    class Embedder:
        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0, 0.0]

    recalled = RecalledClicks(again, Embedder())  # type: ignore[arg-type]
    question = "spatial disorientation after losing visual references"
    order = await recalled.reorder(question, passages)  # type: ignore[arg-type]
    assert [p["chunk_id"] for p in order] == ["c1", "c0"]
    residual = ClickResidual(np.zeros(27), np.zeros(27), np.ones(27), 0.1)
    with pytest.raises(ValueError, match="not both"):
        ClickMemory(np.zeros((0, 3)), (), 0.5, 0.0, residual, vocabulary)
    with pytest.raises(ValueError, match="positive"):
        ClickVocabulary(model, 0.0, 0.1)
