"""`python -m adapt.shipped_reranker`: the shipped reranker's builder, from cached candidates to
the weights file, on a tiny synthetic set (no database: the candidates' cache is written here)."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest

from adapt import shipped_reranker
from adapt.shipped_reranker import Query
from providers.rerankers.trees import FeatureWeights

WORDS = [
    "engine",
    "fuel",
    "carburetor",
    "icing",
    "crosswind",
    "runway",
    "clouds",
    "spiral",
    "tanks",
    "landing",
    "gear",
]


def _candidate(doc: str, text: str, score: float) -> dict[str, object]:
    return {
        "doc_id": doc,
        "source_id": doc,
        "title": "",
        "subject": None,
        "text": text,
        "bm25": 5.0 * score,
        "cosine": 0.3 + 0.4 * score,
        "score": score,
    }


def _queries(rng: random.Random) -> list[Query]:
    """In-domain queries whose relevant document holds their words (at a random place of the
    fused order), and off-topic questions whose candidates hold none of theirs."""
    out = []
    for n in range(60):
        words = rng.sample(WORDS, 3)
        relevant = rng.randrange(10)
        candidates = [
            _candidate(
                f"q{n}d{i}",
                " ".join(words if i == relevant else rng.sample(WORDS, 3)[:1]) + " report text",
                1.0 - i / 10,
            )
            for i in range(10)
        ]
        out.append(
            Query(
                "scifact",
                f"q{n}",
                " ".join(words),
                {f"q{n}d{relevant}": 1},
                False,
                False,
                candidates,
            )
        )
    for n in range(20):
        candidates = [
            _candidate(f"o{n}d{i}", "engine report text", 1.0 - i / 10) for i in range(10)
        ]
        out.append(
            Query("scifact", f"off{n}", "banana bread recipe", {}, True, n % 2 == 0, candidates)
        )
    return out


def test_the_builder_cross_validates_fits_and_writes_weights_the_reranker_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rerank_candidates_scifact.pkl").write_bytes(
        pickle.dumps(_queries(random.Random(3)))
    )
    weights = tmp_path / "feature_reranker.json"
    monkeypatch.setattr(shipped_reranker, "CACHE", tmp_path)
    monkeypatch.setattr(shipped_reranker, "ROOT", tmp_path)
    monkeypatch.setattr(shipped_reranker, "WEIGHTS", weights)

    shipped_reranker.main(["--datasets", "scifact", "--k", "10", "--trees", "3", "--write"])

    out = capsys.readouterr().out
    assert "two-fold cross-validation" in out and "| scifact/train held-out | 60 |" in out
    assert "wrote feature_reranker.json" in out
    model = FeatureWeights.load(weights)
    assert model.pool == 10 and model.ranker is not None and len(model.ranker.trees) == 3
    info = json.loads(weights.read_text())["info"]
    assert info["script"] == "python -m adapt.shipped_reranker"
    held_out = info["ndcg@10"]["scifact/train held-out"]
    assert held_out["queries"] == 60
    # The relevant document holds the query's words: the fitted order finds it, fused does not.
    assert held_out["ndcg@10_reranked"] > held_out["ndcg@10_fused"] + 0.2
    assert set(info["stop_rates"]) >= {"off-topic held-out (all)", "in-domain scifact (in-sample)"}
