"""The feedback simulation's tables (benchmarks/feedback_simulation.py): nDCG@10 against the
feedback events, and what each `bosun adapt` run's checks decided."""

from __future__ import annotations

from typing import Any

from benchmarks.render import Table
from benchmarks.simulated_users import COLUMNS

#: What each `bosun adapt` run decided: its labels, the cross-validated check and the verdict.
CHECK_COLUMNS = (
    "feedback events",
    "feedback questions",
    "5-fold nDCG@10 without memory",
    "with memory",
    "questions higher",
    "lower",
    "lift (places)",
    "from cosine",
    "installed",
)


#: What each run's check of the click residual (and of the click vocabulary) decided.
RESIDUAL_COLUMNS = (
    "feedback events",
    "feedback questions",
    "weighted pairs",
    "5-fold nDCG@10 without residual",
    "with residual",
    "questions higher",
    "lower",
    "penalty",
    "installed",
)
VOCABULARY_COLUMNS = tuple(
    c.replace("residual", "vocabulary").replace("weighted pairs", "question-document pairs")
    for c in RESIDUAL_COLUMNS
)[:-2] + ("weight", "installed")
#: What decided each check (adapt.memory_fit.Fitted.passes): the questions whose opened
#: documents were not already first, and the mean change of those that were.
GUARD_COLUMNS = (
    "feedback events",
    "check of",
    "questions not yet first",
    "their nDCG@10 without",
    "with",
    "higher",
    "lower",
    "questions already first",
    "their change",
    "installed",
)
PARTS = ("vocabulary", "residual", "memory")


def tables(results: list[dict[str, Any]]) -> list[Table]:
    """Per dataset: nDCG@10 against the feedback events (``<name>``), and what each adapt run
    decided for the click memory (``<name>-checks``), the click residual (``<name>-residual``)
    and the click vocabulary (``<name>-vocabulary``), and what decided each (``<name>-guard``)."""
    found = []
    for result in results:
        name = result["dataset"].split()[0]
        runs = result["adapt_runs"]
        found.append(Table(name, COLUMNS, result["rows"]))
        found.append(Table(f"{name}-checks", CHECK_COLUMNS, [_check(r) for r in runs]))
        found.append(Table(f"{name}-residual", RESIDUAL_COLUMNS, [_residual(r) for r in runs]))
        words = [_residual(r, "vocabulary", "weight") for r in runs]
        found.append(Table(f"{name}-vocabulary", VOCABULARY_COLUMNS, words))
        guards = [row for r in runs for row in _guards(r)]
        found.append(Table(f"{name}-guard", GUARD_COLUMNS, guards))
    return found


def _guards(run: dict[str, Any]) -> list[list[Any]]:
    """One row per check of ``run`` that reported its questions not yet first."""
    found = []
    for part in PARTS:
        check = run.get("check" if part == "memory" else f"{part}_check") or {}
        moved, first = check.get("movable"), check.get("first")
        if not moved or not first:
            continue
        found.append(
            [
                run["events"],
                part,
                moved["questions"],
                *_before_after(moved),
                moved["better"],
                moved["worse"],
                first["questions"],
                round(first["change"], 4),
                "yes" if part in (run.get("parts") or []) else "no",
            ]
        )
    return found


def _check(run: dict[str, Any]) -> list[Any]:
    labels, check = run.get("labels") or {}, run.get("check") or {}
    return [
        run["events"],
        labels.get("questions"),
        *_before_after(check),
        check.get("better"),
        check.get("worse"),
        check.get("lift"),
        check.get("threshold"),
        "yes" if "memory" in (run.get("parts") or []) else "no",
    ]


def _residual(run: dict[str, Any], part: str = "residual", choice: str = "penalty") -> list[Any]:
    labels, check = run.get("labels") or {}, run.get(f"{part}_check") or {}
    return [
        run["events"],
        labels.get("questions"),
        check.get("pairs"),
        *_before_after(check),
        check.get("better"),
        check.get("worse"),
        check.get(choice),
        "yes" if part in (run.get("parts") or []) else "no",
    ]


def _before_after(check: dict[str, Any]) -> list[float | None]:
    return [None if check.get(k) is None else round(check[k], 4) for k in ("before", "after")]


__all__ = ["tables"]
