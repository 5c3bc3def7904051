"""The per-kind report of `bosun eval-answers`: the table, the misses and the details file
(the questions and their measures are :mod:`agent.evaluation.answer_kinds`')."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agent.evaluation import followup_scores
from agent.evaluation.answer_kinds import KINDS, KindResult
from agent.evaluation.metrics import percentile
from agent.evaluation.pattern_score import PATTERN_CHECKS


def summarise(results: Sequence[KindResult]) -> dict[str, dict[str, Any]]:
    """Per kind: counts and shares of each measure."""
    out: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        measured = [r.measures() for r in results if r.question.kind == kind]
        if not measured:
            continue
        n = len(measured)

        def share(key: str, rows: list[dict[str, Any]] = measured) -> float | None:
            values = [bool(m[key]) for m in rows if key in m]
            return round(sum(values) / len(values), 4) if values else None

        row: dict[str, Any] = {
            "questions": n,
            "gold": share("gold"),
            "citations_valid": share("citations_valid"),
            "repeated_sentences": sum(m["repeated"] for m in measured),
            "wrongly_stopped": share("stopped"),
            "ms_p50": round(percentile([m["ms"] for m in measured], 50), 1),
        }
        if kind == "pattern":
            minimum = [r.question.min_documents for r in results if r.question.kind == kind]
            docs = [m["documents"] for m in measured]
            row["min_documents_met"] = round(
                sum(d >= k for d, k in zip(docs, minimum, strict=True)) / n, 4
            )
            row["mean_documents"] = round(sum(docs) / n, 2)
            row["pattern_ok"] = share("pattern_ok")
            for key in PATTERN_CHECKS:
                row[key] = share(key)
        if kind == "count":
            row["exact_count"] = share("exact_count")
        if any("message_cited" in m for m in measured):  # thread questions: the reply cited
            row["message_cited"] = share("message_cited")
        if kind == "followup":
            both = [m["followup_answered"] and m["followup_not_repeated"] for m in measured]
            row["followup_answered_not_repeated"] = round(sum(both) / n, 4)
        row |= followup_scores.shares(measured, kind)
        out[kind] = row
    return out


def failures(results: Sequence[KindResult], limit: int = 10) -> list[dict[str, Any]]:
    """The questions that missed a measure, for the report."""
    out = []
    for r in results:
        m = r.measures()
        missed = [
            key
            for key, ok in (
                ("gold", m.get("gold", True)),
                ("citations", m["citations_valid"]),
                ("stopped", not m["stopped"]),
                ("repeated", not m["repeated"]),
                ("documents", m.get("documents", 99) >= r.question.min_documents),
                ("followup", m.get("followup_not_repeated", True)),
                ("count", m.get("exact_count", True)),
                *(
                    (key, m[key])
                    for key in (
                        "named_groups",
                        "set_stated",
                        "examples",
                        "dominant",
                        *followup_scores.MEASURES.get(r.question.kind, ()),
                    )
                    if key in m
                ),
            )
            if not ok
        ]
        if missed:
            out.append({"kind": r.question.kind, "question": r.question.question, "missed": missed})
    return out[:limit]


def write_details(path: Path, label: str, results: Sequence[KindResult]) -> None:
    """One JSON line per question of mode ``label`` (offline, the model) appended to ``path``:
    its turns' answers, cited sources and measures (``eval-answers --details``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {
            "mode": label,
            "kind": r.question.kind,
            "questions": [r.question.question, r.question.followup],
            "answers": [t.answer for t in r.turns],
            "cited": [sorted(followup_scores.cited_reports(t.citations)) for t in r.turns],
            "filters": r.last.filters,
            "measures": r.measures(),
        }
        for r in results
    ]
    with path.open("a", encoding="utf-8") as handle:
        handle.write("".join(json.dumps(row) + "\n" for row in rows))


def format_kinds(summary: Mapping[str, Mapping[str, Any]], *, label: str) -> str:
    """The table: one row per kind."""

    def pct(value: Any) -> str:
        return "—" if value is None else f"{100 * value:.1f}%"

    head = (
        f"{'kind':<10}{'n':>4}{'gold':>8}{'cites ok':>10}{'repeats':>9}{'stopped':>9}"
        f"{'≥k docs':>9}{'groups':>9}{'follow-up':>11}{'exact n':>9}{'p50 ms':>9}"
    )
    lines = [f"answers by kind ({label})", head]
    for kind, row in summary.items():
        lines.append(
            f"{kind:<10}{row['questions']:>4}{pct(row['gold']):>8}"
            f"{pct(row['citations_valid']):>10}{row['repeated_sentences']:>9}"
            f"{pct(row['wrongly_stopped']):>9}{pct(row.get('min_documents_met')):>9}"
            f"{pct(row.get('pattern_ok')):>9}"
            f"{pct(row.get('followup_answered_not_repeated')):>11}"
            f"{pct(row.get('exact_count')):>9}{row['ms_p50']:>9.0f}"
        )
    measures = followup_scores.format_measures(summary)
    return "\n".join(lines + ([measures] if measures else []))
