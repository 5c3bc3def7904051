"""benchmarks/simulated_users.py and the pure parts of benchmarks/feedback_simulation.py: the seeded
query split, the simulated user, the ledger of events and the table rows."""

from __future__ import annotations

import pytest

from benchmarks.feedback_simulation import tables
from benchmarks.simulated_users import (
    COLUMNS,
    Action,
    Checkpoint,
    Ledger,
    Shown,
    UserModel,
    checkpoint_row,
    remembered,
    split_queries,
    sub_corpus,
)
from benchmarks.simulation_routes import sse_frames

IDS = [f"q{i}" for i in range(300)]
MANY = [f"q{i}" for i in range(4000)]  # enough draws to see a rate within a few points


def shown(*sources: str) -> list[Shown]:
    return [Shown(n, f"{n:012x}", source) for n, source in enumerate(sources, start=1)]


def test_the_split_is_disjoint_complete_seeded_and_independent_of_order() -> None:
    simulation, evaluation = split_queries(IDS, seed=7)
    assert set(simulation).isdisjoint(evaluation)
    assert sorted(simulation + evaluation) == sorted(IDS)
    assert len(simulation) == 200  # two thirds
    assert split_queries(list(reversed(IDS)), seed=7) == (simulation, evaluation)
    other, _ = split_queries(IDS, seed=8)
    assert other != simulation
    assert simulation != IDS[:200]  # not file order: a hash of (seed, id)


@pytest.mark.parametrize("share", [0.0, 1.0, -0.5, 1.5])
def test_a_share_that_leaves_a_side_empty_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match="strictly between"):
        split_queries(IDS, seed=1, share=share)


def test_a_user_opens_the_relevant_citation_in_the_first_five_and_thumbs_up() -> None:
    user = UserModel(seed=1, noise=0.0, download=0.0, thumbs=1.0)
    actions = user.react("q1", shown("a", "b", "rel", "c"), {"rel": 1})
    assert actions == [
        Action("open", "000000000003", "rel"),
        Action("thumb", score=1, answer=("a", "b", "rel", "c")),
    ]


def test_a_relevant_citation_shown_sixth_is_not_seen_and_the_thumb_is_down() -> None:
    user = UserModel(seed=1, noise=0.0, download=0.0, thumbs=1.0)
    actions = user.react("q1", shown("a", "b", "c", "d", "e", "rel"), {"rel": 2})
    assert actions == [Action("thumb", score=-1, answer=("a", "b", "c", "d", "e", "rel"))]
    assert user.react("q1", [], {"rel": 1}) == [Action("thumb", score=-1)]  # nothing shown


def test_a_document_judged_zero_is_not_relevant() -> None:
    user = UserModel(seed=1, noise=0.0, download=0.0, thumbs=1.0)
    actions = user.react("q1", shown("zero"), {"zero": 0, "rel": 1})
    assert actions == [Action("thumb", score=-1, answer=("zero",))]


def test_noise_opens_wrong_citations_at_its_rate_and_only_wrong_ones() -> None:
    user = UserModel(seed=3, noise=0.1, download=0.0, thumbs=0.0)
    outcomes = [user.react(q, shown("a", "rel", "b", "c"), {"rel": 1}) for q in MANY]
    wrong = [a for actions in outcomes for a in actions if a.wrong]
    assert all(a.kind == "open" and a.source_id in {"a", "b", "c"} for a in wrong)
    assert 0.08 < len(wrong) / len(MANY) < 0.12
    assert all(actions[0] == Action("open", "000000000002", "rel") for actions in outcomes)


def test_downloads_and_thumbs_follow_their_rates() -> None:
    user = UserModel(seed=5, noise=0.0, download=0.25, thumbs=0.5)
    outcomes = [user.react(q, shown("rel"), {"rel": 1}) for q in MANY]
    downloads = sum(any(a.kind == "download" for a in o) for o in outcomes) / len(outcomes)
    thumbs = sum(any(a.kind == "thumb" for a in o) for o in outcomes) / len(outcomes)
    assert 0.22 < downloads < 0.28 and 0.47 < thumbs < 0.53


def test_the_user_is_a_function_of_the_seed_and_the_query() -> None:
    user = UserModel(seed=9, noise=0.5, download=0.5, thumbs=0.5)
    answer = shown("a", "rel", "b")
    first = [user.react(q, answer, {"rel": 1}) for q in IDS]
    assert first == [user.react(q, answer, {"rel": 1}) for q in IDS]
    other = UserModel(seed=10, noise=0.5, download=0.5, thumbs=0.5)
    assert first != [other.react(q, answer, {"rel": 1}) for q in IDS]


def test_probabilities_outside_zero_to_one_are_refused() -> None:
    with pytest.raises(ValueError, match="noise is a probability"):
        UserModel(noise=1.5)


def test_the_ledger_counts_events_and_the_documents_that_received_feedback() -> None:
    ledger = Ledger()
    actions = [
        Action("open", "000000000001", "rel"),
        Action("open", "000000000002", "other", wrong=True),
        Action("thumb", score=1, answer=("rel", "other", "shown")),
    ]
    ledger.answered(actions, {"message_id": "m"})
    assert (ledger.turns, ledger.shown_relevant, len(ledger.backlog)) == (1, 1, 3)
    for action, _ in ledger.backlog:
        ledger.record(action)
    assert ledger.events == 3 and ledger.wrong_opens == 1
    assert ledger.by_kind == {"open": 2, "thumb": 1}
    # What adapt's click model takes as positives: the opened documents; a thumbs-up adds none.
    assert ledger.labelled == {"rel", "other"}
    assert remembered({"rel": 1, "x": 0}, ledger.labelled)
    assert not remembered({"x": 1, "other": 0}, ledger.labelled)  # judged 0: not relevant
    down = [Action("open", "000000000003", "new"), Action("open", "000000000001", "rel")]
    ledger.answered([*down, Action("thumb", score=-1, answer=("new", "rel", "down"))], {})
    for action, _ in ledger.backlog:
        ledger.record(action)
    # A thumbed-down answer withdraws what was opened in it, not what earlier turns labelled.
    assert ledger.labelled == {"rel", "other"}


def test_a_row_splits_memory_from_unseen_queries() -> None:
    point = Checkpoint(
        events=50,
        turns=30,
        installed=True,
        memory=["q1"],
        stock={"q1": 0.5, "q2": 0.2, "q3": 0.4},
        adapted={"q1": 1.0, "q2": 0.3, "q3": 0.4},
    )
    row = checkpoint_row(point)
    assert len(row) == len(COLUMNS)
    assert row == [50, 30, "yes", 1, 0.5, 1.0, 2, 0.3, 0.35, 0.3667, 0.5667]


def test_an_empty_side_has_no_mean() -> None:
    point = Checkpoint(100, 60, False, [], {"q1": 0.5}, {"q1": 0.5})
    assert checkpoint_row(point)[2:6] == ["no", 0, None, None]
    result = {"dataset": "scifact train", "rows": [checkpoint_row(point)], "adapt_runs": []}
    table = tables([result])[0]
    assert table.id == "scifact" and "| 100 | 60 | no | 0 | — | — | 1 |" in table.markdown()


def test_each_adapt_run_is_a_row_of_the_checks_table() -> None:
    runs = [
        {"events": 50, "labels": {"questions": 14, "folds": 5}, "installed": False},
        {
            "events": 100,
            "labels": {"questions": 38, "folds": 5},
            "check": {
                "metric": "ndcg@10",
                "before": 0.83517,
                "after": 0.87433,
                "better": 4,
                "worse": 1,
                "lift": 10.0,
                "threshold": 0.7,
            },
            "residual_check": {
                "metric": "ndcg@10",
                "before": 0.83517,
                "after": 0.83011,
                "better": 2,
                "worse": 3,
                "penalty": 0.3,
                "pairs": 1234,
            },
            "vocabulary_check": {
                "metric": "ndcg@10",
                "before": 0.83517,
                "after": 0.84011,
                "better": 5,
                "worse": 2,
                "weight": 1.0,
                "pairs": 40,
                "movable": {"questions": 12, "before": 0.5, "after": 0.61, "better": 5, "worse": 2},
                "first": {"questions": 26, "change": -0.00412, "margin": 0.01},
            },
            "parts": ["vocabulary", "memory"],
            "installed": True,
        },
    ]
    result = {"dataset": "ntsb_pc2narr dev", "rows": [], "adapt_runs": runs}
    checks, residual, vocabulary, guard = tables([result])[1:]
    assert guard.id == "ntsb_pc2narr-guard"
    assert guard.rows == [[100, "vocabulary", 12, 0.5, 0.61, 5, 2, 26, -0.0041, "yes"]]
    assert vocabulary.id == "ntsb_pc2narr-vocabulary"
    assert vocabulary.columns[2] == "question-document pairs" and vocabulary.columns[-2] == "weight"
    assert vocabulary.rows[1] == [100, 38, 40, 0.8352, 0.8401, 5, 2, 1.0, "yes"]
    assert checks.id == "ntsb_pc2narr-checks"
    assert checks.rows == [
        [50, 14, None, None, None, None, None, None, "no"],
        [100, 38, 0.8352, 0.8743, 4, 1, 10.0, 0.7, "yes"],
    ]
    assert residual.id == "ntsb_pc2narr-residual"
    assert residual.rows == [
        [50, 14, None, None, None, None, None, None, "no"],
        [100, 38, 1234, 0.8352, 0.8301, 2, 3, 0.3, "no"],
    ]


def test_chat_frames_are_parsed_from_the_event_stream() -> None:
    body = (
        'event: meta\r\ndata: {"thread_id": "t"}\r\n\r\n'
        'event: token\r\ndata: {"text": "a"}\r\n\r\n: ping\r\n\r\n'
        'event: final\r\ndata: {"message_id": "m", "citations": []}\r\n\r\n'
    )
    assert sse_frames(body) == [
        ("meta", {"thread_id": "t"}),
        ("token", {"text": "a"}),
        ("final", {"message_id": "m", "citations": []}),
    ]


def test_a_quick_corpus_holds_every_judged_document_and_seeded_distractors() -> None:
    corpus = [f"d{i}" for i in range(100)]
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d50": 2}, "q3": {"d99": 1}}
    chosen = sub_corpus(corpus, qrels, ["q1", "q2"], distractors=10, seed=4)
    assert {"d1", "d2", "d50"} <= chosen and len(chosen) == 13
    assert chosen == sub_corpus(list(reversed(corpus)), qrels, ["q1", "q2"], 10, seed=4)
    assert chosen != sub_corpus(corpus, qrels, ["q1", "q2"], 10, seed=5)
