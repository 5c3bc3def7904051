"""Offline answers copy the passages' best sentences and cite each one."""

from __future__ import annotations

import re
from typing import Any

from archive.store.passages import Passage
from tools.citations import MARKER
from tools.extractive import extractive_answer, sentences


def record(chunk_id: str, text: str) -> Passage:
    base: dict[str, Any] = {
        "chunk_id": chunk_id,
        "doc_id": "d" + chunk_id,
        "kind": "email",
        "source_id": "s",
        "title": "t",
        "text": text,
        "section": None,
        "page": None,
        "date": None,
        "sender": None,
        "subject": None,
        "thread_id": None,
        "vessel_name": None,
        "imo": None,
        "report_no": None,
        "archive_path": "p",
        "embedding_mode": "full",
        "summary": "",
        "bm25": 0.0,
        "cosine": 0.0,
        "score": 0.0,
        "rerank": None,
    }
    return base  # type: ignore[return-value]


PASSAGES = [
    record(
        "a00000000001",
        "The vessel left Rotterdam on 2 May. A crack was found in the cylinder "
        "liner of unit 3 during the inspection. The weather was fair.",
    ),
    record(
        "a00000000002",
        "The cracked liner was replaced by the crew and the engine was tested "
        "at sea. Bunkering took place in Singapore.",
    ),
    record("a00000000003", "Cargo hold 4 was inspected for water ingress; none was found."),
]


def test_every_sentence_is_copied_and_cited() -> None:
    answer = extractive_answer("How was the cylinder liner crack repaired?", PASSAGES)
    body = answer.split("\n\n", 1)[1]
    cited = re.findall(r"(.+?) \[C:([0-9a-f]{12})\]\s*", body)
    assert cited, answer
    texts = {r["chunk_id"]: r["text"] for r in PASSAGES}
    for sentence, chunk_id in cited:
        assert sentence.strip() in texts[chunk_id]  # copied from the passage it cites
    assert "crack was found in the cylinder liner" in answer
    assert "liner was replaced" in answer
    assert "weather" not in answer and "Bunkering" not in answer  # off-topic sentences left out


def test_identifiers_count_for_matching() -> None:
    passages = [
        record(
            "b00000000001",
            "Report ERA22LA175 describes a loss of control on ground. "
            "Four people had minor injuries.",
        )
    ]
    answer = extractive_answer("ERA22LA175", passages)
    assert "[C:b00000000001]" in answer and "loss of control" in answer


def test_nothing_matching_falls_back_to_the_best_passage_opening() -> None:
    answer = extractive_answer("zebra migration patterns", PASSAGES)
    assert answer.startswith("The retrieved documents do not state this directly")
    assert "[C:a00000000001]" in answer
    assert all(m.group(1) in {"a00000000001", "a00000000002"} for m in MARKER.finditer(answer))


def test_sentence_splitting() -> None:
    assert sentences("First one. Second one!\n\n- item a\n- item b") == [
        "First one.",
        "Second one!",
        "- item a",
        "- item b",
    ]


def test_filter_scope_words_do_not_make_a_sentence_an_answer() -> None:
    passages = [
        record(
            "c00000000001",
            "Vessel: Nordic Star, IMO 9234567, bulk carrier. The crack "
            "was repaired by replacing the liner.",
        )
    ]
    answer = extractive_answer(
        "How was the crack on Nordic Star repaired?", passages, scope=["Nordic Star", "9234567"]
    )
    assert "replacing the liner" in answer and "bulk carrier" not in answer
    only_scope = extractive_answer("Nordic Star", passages, scope=["Nordic Star"])
    assert "[C:c00000000001]" in only_scope
