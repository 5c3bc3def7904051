"""The click memory at query time (tools.click_memory): bounded lifts for similar questions,
nothing for a question unlike every labelled one, a file that round-trips and refuses garbage."""

from __future__ import annotations

import numpy as np
import pytest

from tools.click_memory import ClickMemory, RecalledClicks


def _memory(threshold: float = 0.5, lift: float = 3.0) -> ClickMemory:
    vectors = np.asarray([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], dtype=np.float32)
    return ClickMemory(vectors, (("engine",), ("wing", "tail")), threshold, lift)


def test_a_question_near_a_labelled_one_lifts_its_documents_by_closeness() -> None:
    memory = _memory()
    assert memory.weights(np.asarray([1.0, 0.0, 0.0])) == {"engine": 1.0}
    near = memory.weights(np.asarray([0.8, 0.6, 0.0]))  # cosines 0.8 and 0.6
    assert near["engine"] == pytest.approx(0.6) and near["wing"] == pytest.approx(0.2)
    assert memory.weights(np.asarray([0.0, 0.0, 1.0])) == {}  # unlike both: nothing


def test_a_document_moves_at_most_lift_places_and_the_rest_keep_their_order() -> None:
    memory = _memory(lift=3.0)
    ranked = ["a", "b", "c", "d", "e", "engine", "f"]
    order = [ranked[i] for i in memory.order(ranked, {"engine": 1.0})]
    assert order == ["a", "b", "engine", "c", "d", "e", "f"]
    half = [ranked[i] for i in memory.order(ranked, {"engine": 0.5})]
    assert half == ["a", "b", "c", "d", "engine", "e", "f"]  # 1.5 places: ahead of one
    assert memory.order(ranked, {}) == list(range(len(ranked)))


def test_the_memory_file_round_trips_and_garbage_is_refused() -> None:
    memory = _memory(0.7, 10.0)
    again = ClickMemory.from_bytes(memory.to_bytes())
    assert again.sources == memory.sources and (again.threshold, again.lift) == (0.7, 10.0)
    assert np.allclose(again.vectors, memory.vectors)
    with pytest.raises(ValueError, match="not a click memory"):
        ClickMemory.from_bytes(b"not an npz file")
    with pytest.raises(ValueError):
        ClickMemory(np.zeros((1, 3)), (), 0.5, 1.0)


class _Embedder:
    def __init__(self, vector: list[float]) -> None:
        self.vector = vector

    def embed_query(self, text: str) -> list[float]:
        return self.vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.vector for _ in texts]


async def test_the_pipeline_reorders_passages_by_their_documents() -> None:
    passages = [
        {"chunk_id": f"c{i}", "source_id": s} for i, s in enumerate(["a", "b", "engine", "c"])
    ]
    recalled = RecalledClicks(_memory(lift=2.0), _Embedder([1.0, 0.0, 0.0]))  # type: ignore[arg-type]
    moved = await recalled.reorder("why did the engine stop", passages)  # type: ignore[arg-type]
    assert [p["source_id"] for p in moved] == ["engine", "a", "b", "c"]
    far = RecalledClicks(_memory(), _Embedder([0.0, 0.0, 1.0]))  # type: ignore[arg-type]
    assert await far.reorder("unrelated", passages) == passages  # type: ignore[arg-type]
    # A headed collection's question maps back to the stock model's space first.
    swap = np.asarray([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    headed = RecalledClicks(_memory(lift=2.0), _Embedder([0.0, 1.0, 0.0]), swap)  # type: ignore[arg-type]
    moved = await headed.reorder("why did the engine stop", passages)  # type: ignore[arg-type]
    assert moved[0]["source_id"] == "engine"
