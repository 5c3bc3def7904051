"""The run-comparison chart: configuration labels, latest run per configuration, the PNG."""

from __future__ import annotations

from pathlib import Path

from agent.evaluation.chart import latest_by_configuration, run_label, write_chart


def run(switches: dict, ndcg: float, split: str = "train", ts: str = "t") -> dict:
    return {
        "dataset": "tiny",
        "split": split,
        "switches": switches,
        "timestamp": ts,
        "metrics": {"ndcg@10": ndcg, "recall@10": 0.5, "recall@100": 0.9, "mrr@10": 0.4},
    }


BM25 = {"no_hybrid": False, "lexical_only": True}
DENSE = {"no_hybrid": True, "lexical_only": False}
HYBRID = {"no_hybrid": False, "lexical_only": False}


def test_labels_name_the_arms_and_every_other_switch_that_is_on() -> None:
    assert run_label(BM25) == "bm25"
    assert run_label(DENSE) == "dense"
    assert run_label(HYBRID) == "hybrid"
    assert run_label({**HYBRID, "rerank": True, "expansion": False}) == "hybrid+rerank"
    assert run_label({**HYBRID, "chunk_chars": 2000}) == "hybrid+chunk_chars=2000"
    layered = {**HYBRID, "topics": True, "expand": True, "rerank": True, "limit": 5}
    assert run_label(layered) == "hybrid+rerank+expand+topics+limit=5"


def test_only_the_latest_run_of_each_configuration_on_the_split_is_kept() -> None:
    runs = [run(BM25, 0.1), run(HYBRID, 0.2), run(BM25, 0.3), run(HYBRID, 0.9, split="dev")]
    chosen = latest_by_configuration(runs, "train")
    assert [(run_label(r["switches"]), r["metrics"]["ndcg@10"]) for r in chosen] == [
        ("bm25", 0.3),
        ("hybrid", 0.2),
    ]


def test_the_chart_is_a_png_named_after_dataset_and_split(tmp_path: Path) -> None:
    path = write_chart(
        [run(BM25, 0.6), run(DENSE, 0.5), run(HYBRID, 0.7)], "tiny", "train", tmp_path / "out"
    )
    assert path == tmp_path / "out" / "tiny_train.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert write_chart([run(BM25, 0.6)], "tiny", "test", tmp_path) is None  # no run on that split
