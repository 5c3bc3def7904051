"""The offline feature reranker: relevance in [0, 1], sensible order, deterministic."""

from __future__ import annotations

import itertools
import json
import zlib
from pathlib import Path

import numpy as np
import pytest

import providers
from archive.store.passages import Passage
from providers.rerankers import Reranker, rerank_text
from providers.rerankers.features import FEATURES, query_terms
from providers.rerankers.learned import FeatureReranker
from providers.rerankers.trees import FeatureWeights, RankModel, Tree
from tests.fakes.clients import passage
from text.words import STEMMER, is_identifier, stem, tokens

ENGINE = (
    "Loss of engine power | ERA22LA175\n"
    "The pilot reported a total loss of engine power during cruise flight. Examination of the "
    "engine revealed fuel starvation: both fuel tanks were empty and the fuel selector was set "
    "to the left tank."
)
PIZZA = (
    "Margherita pizza\nStretch the dough, add tomato sauce, fresh mozzarella and basil, and bake "
    "in a very hot oven for eight minutes."
)
OTHER_ENGINE = (
    "Loss of engine power | ERA22LA180\n"
    "The pilot reported a total loss of engine power during cruise flight. Examination of the "
    "engine revealed a fractured crankshaft."
)


_ids = itertools.count()


def _candidate(
    title: str,
    subject: str | None,
    text: str,
    bm25: float,
    cosine: float,
    score: float,
    doc: str | None = None,
) -> Passage:
    """A retrieved passage; ``doc`` groups passages into one document (default: its own)."""
    chunk_id = f"a{next(_ids):011d}"
    values = {"title": title, "subject": subject, "bm25": bm25, "cosine": cosine, "score": score}
    return passage(chunk_id, text, doc_id=doc or f"doc-{chunk_id}", **values)


class _FakeEmbeddings:
    """Bag-of-words vectors: enough for cosines that reflect shared words."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def _vector(self, text: str) -> list[float]:
        v = np.zeros(64)
        for token in tokens(text):
            v[zlib.crc32(stem(token).encode()) % 64] += 1.0
        return list(v)

    def embed_query(self, text: str) -> list[float]:
        self.calls.append(("query", 1))
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(("documents", len(texts)))
        return [self._vector(t) for t in texts]


async def test_relevant_document_scores_higher_and_in_unit_interval() -> None:
    reranker = FeatureReranker(_FakeEmbeddings())
    scores = await reranker.rerank("why did the engine lose power in cruise?", [PIZZA, ENGINE])
    assert len(scores) == 2
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[1] > scores[0]


async def test_scores_are_deterministic() -> None:
    reranker = FeatureReranker(_FakeEmbeddings())
    query = "fuel starvation after the selector was left on an empty tank"
    first = await reranker.rerank(query, [ENGINE, PIZZA, OTHER_ENGINE])
    second = await reranker.rerank(query, [ENGINE, PIZZA, OTHER_ENGINE])
    assert first == second


async def test_identifier_match_boosts() -> None:
    reranker = FeatureReranker(_FakeEmbeddings())
    scores = await reranker.rerank("what happened in ERA22LA175?", [OTHER_ENGINE, ENGINE])
    assert scores[1] > scores[0]
    x = reranker.features("what happened in ERA22LA175?", [OTHER_ENGINE, ENGINE])
    ident = FEATURES.index("identifier")
    assert list(x[:, ident]) == [0.0, 1.0]


async def test_documents_embedded_in_one_batch_without_candidates() -> None:
    embeddings = _FakeEmbeddings()
    await FeatureReranker(embeddings).rerank("engine power", [ENGINE, PIZZA, OTHER_ENGINE])
    assert embeddings.calls == [("query", 1), ("documents", 3)]


async def test_candidates_supply_scores_and_no_embedding_runs() -> None:
    embeddings = _FakeEmbeddings()
    reranker = FeatureReranker(embeddings)
    candidates = [
        _candidate("Margherita pizza", None, PIZZA, bm25=0.0, cosine=0.05, score=0.1),
        _candidate("Loss of engine power", "ERA22LA175", ENGINE, 14.2, 0.62, 0.9),
    ]
    docs = [rerank_text(c) for c in candidates]
    scores = await reranker.rerank("engine lost power in cruise", docs, candidates=candidates)
    assert embeddings.calls == []
    assert scores[1] > scores[0]
    x = reranker.features("engine lost power in cruise", docs, candidates=candidates)
    assert x[1, FEATURES.index("cosine")] == pytest.approx(0.62)
    assert x[1, FEATURES.index("bm25_rel")] == pytest.approx(1.0)
    assert x[1, FEATURES.index("title")] > 0.0


async def test_candidates_must_match_documents() -> None:
    reranker = FeatureReranker()
    candidate = _candidate("t", None, "x", 0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="1 candidates for 2 documents"):
        await reranker.rerank("q", ["a", "b"], candidates=[candidate])


async def test_empty_documents_give_no_scores() -> None:
    assert await FeatureReranker().rerank("anything", []) == []


def test_shipped_weights_load_with_a_cutoff() -> None:
    weights = FeatureWeights.load()
    assert weights.weights.shape == (len(FEATURES),)
    assert 0.0 < weights.cutoff < 1.0
    reranker = FeatureReranker()
    assert reranker.default_cutoff == weights.cutoff
    assert isinstance(reranker, Reranker)


def test_weights_for_other_features_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "w.json"
    path.write_text('{"features": ["cosine"], "weights": {"cosine": 1}, "bias": 0, "cutoff": 0.5}')
    with pytest.raises(ValueError, match="trained on"):
        FeatureWeights.load(path)


def test_weights_fitted_on_other_stems_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Weights fitted before the features read Snowball stems (no "stems" field) or on other
    stems would score misread features: they are refused, and say why."""
    shipped = json.loads(
        (Path(providers.__file__).parent / "data" / "feature_reranker.json").read_text()
    )
    assert shipped["stems"] == STEMMER
    path = tmp_path / "w.json"
    for stems in (None, "porter", "snowball-english"):  # the last: before asking words dropped
        data = {k: v for k, v in shipped.items() if k != "stems"}
        if stems:
            data["stems"] = stems
        path.write_text(json.dumps(data))
        with pytest.raises(ValueError, match="stems: fit them again"):
            FeatureWeights.load(path)


def test_query_terms_leave_out_asking_words() -> None:
    """Asking words ("tell me", "find", "might") name no topic, so they match no passage."""
    terms = query_terms("Please tell me which reports might describe a fuel leak")
    assert set(terms.stems) == {"report", "fuel", "leak"}


def test_query_terms_drop_stop_words_and_keep_identifiers() -> None:
    terms = query_terms("What did the pilot of N3718F do wrong in ERA22LA175 (IMO 9234567)?")
    assert "the" not in terms.stems and "what" not in terms.stems
    assert "pilot" in terms.stems
    assert terms.identifiers == {"n3718f", "era22la175", "9234567"}


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("era22la175", True),
        ("9234567", True),
        ("err-4711", True),
        ("n3718f", True),
        ("2019", False),
        ("p53", False),
        ("il-6", False),
        ("brca1", False),
        ("engine", False),
    ],
)
def test_identifiers(token: str, expected: bool) -> None:
    assert is_identifier(token) is expected


def test_stems_meet_across_word_forms() -> None:
    assert stem("landing") == stem("landings")
    assert stem("stalled") == stem("stall")
    assert stem("inspections") == stem("inspection")


def test_distinctive_coverage_ignores_words_every_candidate_holds() -> None:
    reranker = FeatureReranker()
    docs = ["the pilot reported a noseover", "the pilot reported a bounced landing"]
    x = reranker.features("pilot noseover", docs)
    distinctive = x[:, FEATURES.index("distinctive")]
    coverage = x[:, FEATURES.index("coverage")]
    assert list(coverage) == [1.0, 0.5]  # both hold "pilot"
    assert distinctive[0] == pytest.approx(1.0)
    assert distinctive[1] < 0.3 < distinctive[0]


async def test_candidates_without_cosines_get_them_from_the_embeddings() -> None:
    embeddings = _FakeEmbeddings()
    reranker = FeatureReranker(embeddings)
    texts = [PIZZA, ENGINE]
    candidates = [_candidate("t", None, text, 5.0, 0.0, 0.5) for text in texts]
    query = "engine power loss from fuel starvation"
    embedded = await reranker.rerank(query, texts, candidates=candidates)
    assert embeddings.calls == [("query", 1), ("documents", 2)]
    no_cosines = FeatureReranker().score(query, texts, candidates=candidates)
    assert embedded[1] > no_cosines[1]
    assert embedded[1] > embedded[0]


def test_passages_of_one_document_pool_their_scores() -> None:
    candidates = [
        _candidate("a", None, "engine fire after takeoff", 9.0, 0.3, 0.9, doc="A"),
        _candidate("b", None, "the pilot landed", 3.0, 0.6, 0.5, doc="B"),
        _candidate("a", None, "the engine cowling burned", 1.0, 0.2, 0.2, doc="A"),
    ]
    docs = [rerank_text(c) for c in candidates]
    x = FeatureReranker().features("engine fire", docs, candidates=candidates)
    col = {name: x[:, FEATURES.index(name)] for name in FEATURES}
    assert list(col["doc_passages"]) == pytest.approx([np.log(2), 0.0, np.log(2)])
    assert list(col["doc_bm25_rel"]) == pytest.approx([1.0, 1 / 3, 1.0])
    assert list(col["doc_bm25_sum"]) == pytest.approx(np.log1p([10.0, 3.0, 10.0]))
    assert list(col["doc_cosine_gap"]) == pytest.approx([-0.3, 0.0, -0.3])
    assert list(col["bm25_rank"]) == pytest.approx([1.0, 1 / np.log2(3), 0.5])


def test_local_bm25_and_proximity() -> None:
    docs = [
        "the engine lost power and the engine fire started",
        "fire crews met the airplane at the runway, towed it to the hangar, and later the engine "
        "was examined",
        "the pilot landed",
    ]
    x = FeatureReranker().features("engine fire", docs)
    col = {name: x[:, FEATURES.index(name)] for name in FEATURES}
    assert col["local_bm25"][0] == pytest.approx(1.0)
    assert 0.0 < col["local_bm25"][1] < 1.0
    assert col["local_bm25"][2] == 0.0
    assert list(col["near_pairs"]) == [1.0, 0.0, 0.0]  # "engine fire" adjacent only in the first
    assert list(col["ordered_pairs"]) == [1.0, 0.0, 0.0]
    assert list(col["window"]) == [1.0, 1.0, 0.0]  # both within 20 tokens in the second too


def _weights_with_ranker(tree_value: float) -> FeatureWeights:
    """Pointwise weights that prefer high cosine; a ranker whose one tree prefers long text."""
    n = len(FEATURES)
    pointwise = np.zeros(n)
    pointwise[FEATURES.index("cosine")] = 4.0
    length = FEATURES.index("length")
    tree = Tree(
        feature=np.array([length, -1, -1]),
        threshold=np.array([0.5, 0.0, 0.0]),
        left=np.array([1, 0, 0]),
        right=np.array([2, 0, 0]),
        value=np.array([0.0, 0.0, tree_value]),
    )
    ranker = RankModel(np.zeros(n), np.ones(n), np.zeros(n), (tree,), 1.0, np.zeros(n))
    return FeatureWeights(pointwise, -2.0, 0.1, 0.1, {}, ranker)


def test_the_ranker_orders_and_the_pointwise_model_sets_the_best_score() -> None:
    short, long = "engine fire", "engine fire " + "and then the crew reported smoke " * 20
    candidates = [
        _candidate("t", None, short, bm25=5.0, cosine=0.9, score=0.9),
        _candidate("t", None, long, bm25=5.0, cosine=0.1, score=0.5),
    ]
    docs = [c["text"] for c in candidates]
    weights = _weights_with_ranker(3.0)
    scores = FeatureReranker(weights=weights).score("engine fire", docs, candidates=candidates)
    assert scores[1] > scores[0]  # the tree wins the order ...
    best_pointwise = 1 / (1 + np.exp(-(4.0 * 0.9 - 2.0)))
    assert max(scores) == pytest.approx(best_pointwise)  # ... the cutoff sees the same best score
    assert scores[0] == pytest.approx(1 / (1 + np.exp(-(4.0 * 0.9 - 2.0 - 3.0))))


def test_a_ranker_survives_the_weights_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    shipped = json.loads(
        (Path(providers.__file__).parent / "data" / "feature_reranker.json").read_text()
    )
    assert shipped["ranker"]["trees"]  # the shipped model orders with trees
    path = tmp_path / "w.json"
    path.write_text(json.dumps(shipped))
    loaded = FeatureWeights.load(path)
    assert loaded.ranker is not None and len(loaded.ranker.trees) == len(shipped["ranker"]["trees"])
    x = FeatureReranker().features("engine fire", [ENGINE, PIZZA, OTHER_ENGINE])
    assert np.allclose(loaded.scores(x), FeatureWeights.load().scores(x))


def test_passages_of_one_document_keep_their_retrieval_order() -> None:
    # The ranker's tree prefers long passages; the two of document A come short first.
    long = "engine fire " + "and then the crew reported smoke " * 20
    candidates = [
        _candidate("a", None, "engine fire", bm25=5.0, cosine=0.9, score=0.9, doc="A"),
        _candidate("b", None, long, bm25=5.0, cosine=0.2, score=0.6, doc="B"),
        _candidate("a", None, long, bm25=5.0, cosine=0.1, score=0.5, doc="A"),
    ]
    docs = [c["text"] for c in candidates]
    weights = _weights_with_ranker(3.0)
    scores = FeatureReranker(weights=weights).score("engine fire", docs, candidates=candidates)
    # Both documents hold a long passage, so both reach the top score ...
    assert scores[0] == pytest.approx(max(scores)) and scores[1] == pytest.approx(max(scores))
    # ... and inside A the passage retrieval put first stays first, one step above the next.
    assert scores[0] > scores[2]
    logit = np.log(scores[2] / (1 - scores[2]))
    assert logit == pytest.approx(np.log(scores[0] / (1 - scores[0])) - weights.passage_step)
