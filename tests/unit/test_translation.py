"""The collection's vocabulary model (providers.rerankers.translation, adapt.translation) and the
reranker that reads it: what EM learns from (question, answering passage) pairs, the features,
the file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from adapt.reranker_training import (
    TrainingQuery,
    TrainOptions,
    dump_weights,
    fit_reranker,
    weights_payload,
)
from adapt.translation import fit_translation
from providers.rerankers.features import FEATURES
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.translation import (
    TRANSLATION_FEATURES,
    TranslationModel,
    stems,
)
from providers.rerankers.trees import FeatureWeights

# Probable causes never say what the narratives say: "disorientation" is asked of passages about
# clouds and instruments, "exhaustion" of passages about empty tanks.
PAIRS = [
    (
        "The pilot's spatial disorientation.",
        "The airplane entered clouds; the instruments showed a turn.",
    ),
    ("Spatial disorientation in night conditions.", "Dark night, no horizon, clouds at 800 feet."),
    ("The pilot's disorientation after entering instrument conditions.", "He flew into clouds."),
    ("Fuel exhaustion due to the pilot's inadequate planning.", "Both tanks were found empty."),
    ("Fuel exhaustion.", "The tanks held no fuel; the engine stopped over the lake."),
    ("The pilot's inadequate fuel planning, which led to exhaustion.", "Tanks empty, no leak."),
]
COLLECTION = [p for _, p in PAIRS] + ["The runway was wet.", "A bird struck the windshield."]


def _model() -> TranslationModel:
    return fit_translation(PAIRS, COLLECTION)


def test_em_links_a_questions_words_to_the_words_of_the_passages_that_answer_it() -> None:
    table = _model().table
    (disorientation,), (exhaustion,), (cloud,), (tank,) = map(
        stems, ("disorientation", "exhaustion", "clouds", "tanks")
    )
    assert table[disorientation][cloud] > 0.1 and tank not in table[disorientation]
    assert table[exhaustion][tank] > 0.1 and cloud not in table[exhaustion]


def test_a_passage_that_answers_in_other_words_scores_above_one_that_does_not() -> None:
    model = _model()
    query = "Was it spatial disorientation?"
    clouds = "The helicopter climbed into clouds at night."
    fuel = "The tanks were empty when the wreckage was examined."
    unrelated = "The runway lights were on."
    scores = model.score(stems(query), [stems(t) for t in (fuel, clouds, unrelated)])
    assert int(np.argmax(scores)) == 1
    assert scores[1] > scores[2]


def test_the_columns_are_gaps_to_the_best_candidate_and_its_document() -> None:
    docs = ["clouds at night", "clouds, dark", "tanks empty"]
    x = _model().columns("spatial disorientation", docs, ["a", "b", "a"])
    assert x.shape == (3, len(TRANSLATION_FEATURES))
    assert x[:, 0].max() == 0.0 and (x[:, 0] <= 0).all()
    assert x[2, 1] == x[0, 1] and x[1, 1] == x[1, 0]  # document "a": its passages as one
    assert _model().columns("anything", []).shape == (0, len(TRANSLATION_FEATURES))


def test_the_model_round_trips_and_refuses_other_smoothing() -> None:
    model = _model()
    data = model.to_json()
    again = TranslationModel.from_json(data)
    docs = [stems(t) for t in COLLECTION]
    assert again.score(stems("fuel exhaustion"), docs) == pytest.approx(
        model.score(stems("fuel exhaustion"), docs), abs=1e-3
    )
    with pytest.raises(ValueError, match="smoothed"):
        TranslationModel.from_json({**data, "lambda": 0.8})


def _query(rng: np.random.Generator, width: int) -> TrainingQuery:
    x = rng.normal(0.0, 0.1, (8, width))
    y = np.zeros(8)
    hit = int(rng.integers(8))
    x[hit, width - 2], y[hit] = 0.0, 1.0  # the relevant passage translates best
    x[np.arange(8) != hit, width - 2] = rng.uniform(-3.0, -1.0, 7)
    return TrainingQuery(x, y, list(range(8)), 1.0)


def test_a_reranker_fitted_with_a_vocabulary_keeps_it_in_its_weights_file(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    width = len(FEATURES) + len(TRANSLATION_FEATURES)
    trained = fit_reranker([_query(rng, width) for _ in range(40)], TrainOptions(trees=0), _model())
    weights = trained.weights
    assert weights.features == FEATURES + TRANSLATION_FEATURES
    assert weights.weights[width - 2] > 0  # it learnt to trust the translation gap
    path = tmp_path / "weights.json"
    path.write_text(dump_weights(weights_payload(weights, 0.1, 0.01, {})))
    loaded = FeatureWeights.load(path)
    assert loaded.translation is not None and loaded.translation.pairs == len(PAIRS)
    q = _query(rng, width)
    assert loaded.scores(q.x) == pytest.approx(weights.scores(q.x), abs=1e-4)

    reranker = FeatureReranker(weights=loaded)
    x = reranker.features("spatial disorientation", ["clouds at night", "tanks empty"])
    assert x.shape == (2, width) and x[0, width - 2] == 0.0 > x[1, width - 2]
    assert FeatureReranker().features("x", ["y"]).shape == (1, len(FEATURES))

    text = path.read_text().replace('"translation":', '"untranslated":')
    path.write_text(text)  # translation columns without the model that computes them
    with pytest.raises(ValueError, match="trained on"):
        FeatureWeights.load(path)
