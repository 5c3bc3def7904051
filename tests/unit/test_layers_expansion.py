"""Query expansion: RM3 term ranking over feedback passages, the LLM rewrite and its fallback."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.outputs import ChatResult

from tests.fakes.chat import ScriptedChatModel
from tools.expansion import (
    Expansion,
    FeedbackPassage,
    LLMExpander,
    PRFConfig,
    build_expander,
    rank_feedback_terms,
    softmax,
)

# Passages a BM25 search for "pilot confused in clouds" would return first (lexemes, as stored).
PASSAGES = [
    FeedbackPassage(
        0.6,
        {"pilot": 2, "cloud": 1, "disorient": 3, "spatial": 2, "imc": 1, "the": 0, "n3718f": 1},
        40,
    ),
    FeedbackPassage(0.3, {"pilot": 1, "cloud": 2, "disorient": 1, "vfr": 2, "imc": 2}, 30),
    FeedbackPassage(0.1, {"pilot": 1, "runway": 3, "airplan": 1}, 20),
]
DF = {
    "pilot": 900,
    "cloud": 120,
    "disorient": 40,
    "spatial": 35,
    "imc": 60,
    "vfr": 70,
    "runway": 500,
    "airplan": 950,
    "n3718f": 1,
    "the": 0,
}


def test_feedback_terms_are_corpus_terms_the_query_lacks() -> None:
    terms = rank_feedback_terms(
        PASSAGES, DF, 1000, exclude={"pilot", "cloud"}, config=PRFConfig(terms=4, min_df=2)
    )
    names = [t for t, _ in terms]
    assert names[:2] == ["disorient", "spatial"]
    assert set(names) == {"disorient", "spatial", "imc", "vfr"}
    assert "pilot" not in names and "cloud" not in names  # already in the query
    assert "n3718f" not in names  # an identifier, and in one passage of the corpus
    assert "airplan" not in names  # in 95% of the corpus: no information


def test_feedback_term_ranking_is_deterministic_and_capped() -> None:
    config = PRFConfig(terms=2)
    first = rank_feedback_terms(PASSAGES, DF, 1000, exclude=set(), config=config)
    assert first == rank_feedback_terms(PASSAGES, DF, 1000, exclude=set(), config=config)
    assert len(first) == 2


def test_softmax_weights_sum_to_one_and_keep_order() -> None:
    weights = softmax([12.0, 10.0, 3.0])
    assert sum(weights) == pytest.approx(1.0)
    assert weights[0] > weights[1] > weights[2]
    assert softmax([]) == []


async def test_llm_rewrite_is_appended_to_the_query() -> None:
    model = ScriptedChatModel.replying("spatial disorientation, VFR into IMC, loss of control")
    expander = LLMExpander(model)
    result = await expander.expand("pilot confused in clouds")
    assert result == Expansion(
        "pilot confused in clouds",
        "pilot confused in clouds spatial disorientation, VFR into IMC, loss of control",
        ("spatial disorientation, VFR into IMC, loss of control",),
        "llm",
    )
    assert "pilot confused in clouds" in model.calls[0][0].content
    # cached: the second call does not reach the model (its script is empty)
    assert await expander("pilot confused in clouds") == result.text
    assert result.record()["method"] == "llm"


class _Failing(BaseChatModel):
    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        raise ConnectionError("provider down")

    @property
    def _llm_type(self) -> str:
        return "failing"


class _Offline:
    async def expand(self, query: str) -> Expansion:
        return Expansion(query, f"{query} disorientation", ("disorientation",), "prf")

    async def __call__(self, query: str) -> str:
        return (await self.expand(query)).text


async def test_a_failed_rewrite_propagates_to_the_pipeline_s_policy() -> None:
    with pytest.raises(ConnectionError):
        await LLMExpander(_Failing()).expand("lost in clouds")


def test_build_expander_prefers_the_chat_model() -> None:
    offline = _Offline()
    chosen = build_expander(None, chat_model=ScriptedChatModel(), offline=offline)  # type: ignore[arg-type]
    assert isinstance(chosen, LLMExpander)
    assert build_expander(None, offline=offline) is offline  # type: ignore[arg-type]
    assert build_expander(None) is None  # type: ignore[arg-type]
