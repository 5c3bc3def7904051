"""A PNG comparing the runs made on one dataset split: the latest run of each configuration."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

#: Metrics drawn, with their axis labels.
CHART_METRICS = (("ndcg@10", "nDCG@10"), ("recall@10", "Recall@10"), ("mrr@10", "MRR@10"))

_ARM_SWITCHES = ("no_hybrid", "lexical_only")
_LAYERS = ("rerank", "expand", "topics")


def run_label(switches: Mapping[str, Any]) -> str:
    """A short name for a configuration: the arms, then every other switch that is on."""
    if switches.get("lexical_only"):
        label = "bm25"
    elif switches.get("no_hybrid"):
        label = "dense"
    else:
        label = "hybrid"
    rest = [k for k in switches if k not in _ARM_SWITCHES]
    # The query-time layers in pipeline order (as `bosun eval` names them), then the rest.
    for key in [k for k in _LAYERS if k in rest] + sorted(k for k in rest if k not in _LAYERS):
        value = switches[key]
        if value is True:
            label += f"+{key}"
        elif value not in (False, None, ""):
            label += f"+{key}={value}"
    return label


def latest_by_configuration(
    runs: Sequence[Mapping[str, Any]], split: str
) -> list[Mapping[str, Any]]:
    """The most recent run of each distinct ``switches`` on ``split``, ordered by label."""
    latest: dict[str, Mapping[str, Any]] = {}
    for run in runs:
        if run.get("split") != split:
            continue
        key = json.dumps(run.get("switches", {}), sort_keys=True)
        latest[key] = run  # runs are oldest first: the last one wins
    return sorted(latest.values(), key=lambda r: run_label(r.get("switches", {})))


def write_chart(
    runs: Sequence[Mapping[str, Any]],
    dataset: str,
    split: str,
    out_dir: Path,
    *,
    name: str | None = None,
) -> Path | None:
    """Grouped bars of nDCG@10, Recall@10 and MRR@10 per configuration, written to
    ``<out_dir>/<name or dataset_split>.png``; None without runs."""
    chosen = latest_by_configuration(runs, split)
    if not chosen:
        return None
    labels = [run_label(r.get("switches", {})) for r in chosen]
    width = 0.8 / len(chosen)
    fig = Figure(figsize=(max(6.0, 1.2 * len(chosen) + 4.0), 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for i, (run, label) in enumerate(zip(chosen, labels, strict=True)):
        values = [float(run.get("metrics", {}).get(name, 0.0)) for name, _ in CHART_METRICS]
        xs = [m + (i - (len(chosen) - 1) / 2) * width for m in range(len(CHART_METRICS))]
        bars = ax.bar(xs, values, width, label=label)
        ax.bar_label(bars, fmt="%.3f", fontsize=7, padding=2)
    ax.set_xticks(range(len(CHART_METRICS)), [title for _, title in CHART_METRICS])
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("score")
    ax.set_title(f"{dataset} / {split}: latest run per configuration")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name or f'{dataset}_{split}'}.png"
    fig.savefig(path, dpi=120)
    return path
