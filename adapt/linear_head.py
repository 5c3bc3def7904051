"""A linear head on the stock int8 MiniLM: the cheap way to adapt it on 2 CPU cores.

The head multiplies every token's hidden state by ``W`` (384×384) inside the ONNX graph. Mean
pooling is linear, so the adapted vector of a text is ``normalise(W · stock vector)``: training
needs only stock vectors (the collection's stored ones and the anchors', embedded once), and
"re-embedding" a collection is a matrix product over its stored vectors, exact up to float
rounding, with no text run through the model again. ``W`` starts at the identity and is fitted
with the MultipleNegativesRanking loss (each anchor against its positive, every other positive
of the batch and every hard negative of the batch: scaled cosine, cross-entropy), plus an L2 pull
towards the identity. Training needs torch (the ``[adapt]`` extra); the graph edit needs only
``onnx``. Applying a fitted head at query time is :mod:`providers.linear_head`.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from providers.minilm import sha256_file

logger = logging.getLogger(__name__)

HIDDEN = "last_hidden_state"


class AdaptUnavailable(RuntimeError):
    """`bosun adapt` cannot run: the ``[adapt]`` extra is not installed, or the collection gives
    nothing to learn from."""


@dataclass(frozen=True)
class HeadConfig:
    """Knobs of fitting the head (seconds on 2 cores for a few thousand pairs)."""

    steps: int = 400
    batch_size: int = 64
    learning_rate: float = 2e-3
    scale: float = 20.0
    l2: float = 0.05  # pull of W towards the identity
    seed: int = 13


@dataclass(frozen=True)
class HeadReport:
    """What fitting did."""

    steps: int
    pairs: int
    seconds: float
    first_loss: float
    last_loss: float


def fit_head(
    anchors: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray | None = None,
    config: HeadConfig = HeadConfig(),
    *,
    on_step: Callable[[int, float], None] | None = None,
) -> tuple[np.ndarray, HeadReport]:
    """Fit ``W`` so that ``normalise(W a)`` is closest to ``normalise(W p)`` of its own positive
    among the batch's positives and hard negatives (rows of ``negatives`` that are all zero mean
    "none"). Returns ``W`` (float32) and what the run did."""
    try:
        import torch
    except ImportError as err:
        raise AdaptUnavailable("fitting a head needs the [adapt] extra (torch)") from err
    if len(anchors) == 0:
        raise ValueError("no pairs to fit the head on")
    torch.manual_seed(config.seed)
    torch.set_num_threads(1)  # 64×384 products: more threads only wait on each other
    generator = torch.Generator().manual_seed(config.seed)
    a_all = torch.from_numpy(np.asarray(anchors, dtype=np.float32))
    p_all = torch.from_numpy(np.asarray(positives, dtype=np.float32))
    n_all = None if negatives is None else torch.from_numpy(np.asarray(negatives, np.float32))
    dim = a_all.shape[1]
    delta = torch.zeros((dim, dim), requires_grad=True)
    eye = torch.eye(dim)
    optimizer = torch.optim.Adam([delta], lr=config.learning_rate)
    started = time.perf_counter()
    losses: list[float] = []
    size = min(config.batch_size, len(a_all))
    for step in range(config.steps):
        rows = torch.randperm(len(a_all), generator=generator)[:size]
        w = eye + delta
        a = torch.nn.functional.normalize(a_all[rows] @ w.T, dim=-1)
        candidates = p_all[rows]
        if n_all is not None:
            chosen = n_all[rows]
            candidates = torch.cat([candidates, chosen[chosen.abs().sum(dim=1) > 0]])
        c = torch.nn.functional.normalize(candidates @ w.T, dim=-1)
        loss = torch.nn.functional.cross_entropy(config.scale * a @ c.T, torch.arange(size))
        total = loss + config.l2 * (delta**2).sum()
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
        losses.append(loss.item())
        if on_step:
            on_step(step + 1, losses[-1])
    tenth = max(1, len(losses) // 10)
    report = HeadReport(
        steps=config.steps,
        pairs=len(a_all),
        seconds=time.perf_counter() - started,
        first_loss=sum(losses[:tenth]) / tenth,
        last_loss=sum(losses[-tenth:]) / tenth,
    )
    logger.info("fitted a linear head on %d pairs: %s", len(a_all), report)
    return (eye + delta).detach().numpy().astype(np.float32), report


def export_head(weights: np.ndarray, stock: Path, target: Path) -> str:
    """Write the stock graph with the head appended to its output to ``target``; returns its
    sha256. The graph keeps its inputs and its output name."""
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError as err:
        raise AdaptUnavailable("exporting a head needs the [adapt] extra (onnx)") from err
    model = onnx.load(str(stock))
    graph = model.graph
    (output,) = [o for o in graph.output if o.name == HIDDEN]
    for node in graph.node:
        node.output[:] = [f"{HIDDEN}_stock" if n == HIDDEN else n for n in node.output]
    graph.initializer.append(numpy_helper.from_array(weights.T.copy(), name="bosun_head_wt"))
    graph.node.append(
        helper.make_node("MatMul", [f"{HIDDEN}_stock", "bosun_head_wt"], [HIDDEN], name="head")
    )
    del output  # the graph output keeps its name, type and shape
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".onnx", delete=False) as tmp:
        onnx.save(model, tmp.name)
    os.replace(tmp.name, target)
    digest = sha256_file(target)
    logger.info("exported %s (%d bytes, sha256 %s)", target, target.stat().st_size, digest)
    return digest


def save_head(weights: np.ndarray, target: Path) -> str:
    """Write ``W`` to ``target`` (a ``.npy`` file, atomically); returns its sha256."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, suffix=".npy", delete=False) as tmp:
        np.save(tmp, np.asarray(weights, dtype=np.float32), allow_pickle=False)
    os.replace(tmp.name, target)
    return sha256_file(target)


def read_head(path: Path) -> np.ndarray | None:
    """``W`` of a headed graph written by :func:`export_head`; ``None`` for another graph."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    for init in model.graph.initializer:
        if init.name == "bosun_head_wt":
            return np.asarray(numpy_helper.to_array(init), dtype=np.float32).T
    return None


__all__ = [
    "AdaptUnavailable",
    "HeadConfig",
    "HeadReport",
    "export_head",
    "fit_head",
    "read_head",
    "save_head",
]
