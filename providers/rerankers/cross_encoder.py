"""A local cross-encoder exported to ONNX (``model.onnx`` + ``tokenizer.json`` in one folder)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from archive.store.passages import Passage
from providers.rerankers.base import POOL, RerankError, failure
from providers.rerankers.trees import sigmoid


class CrossEncoderReranker:
    """A local cross-encoder exported to ONNX: ``model.onnx`` + ``tokenizer.json`` in one folder.

    The model reads (query, document) pairs and returns one logit per pair (or two-class logits);
    the relevance is the sigmoid of the logit (for two classes: of positive minus negative).
    """

    default_cutoff = 0.1  # sigmoid of an MS MARCO cross-encoder: unrelated pairs sit below 0.01
    default_floor = 0.2
    pool = POOL

    def __init__(self, folder: Path, *, max_length: int = 512, batch_size: int = 16) -> None:
        folder = Path(folder).expanduser()
        if not folder.is_dir():
            raise ValueError(f"cross-encoder folder {folder} does not exist")
        missing = [
            name for name in ("model.onnx", "tokenizer.json") if not (folder / name).is_file()
        ]
        if missing:
            raise ValueError(
                f"cross-encoder folder {folder} lacks {' and '.join(missing)} "
                "(expected an ONNX export: model.onnx and its tokenizer.json)"
            )
        import onnxruntime as ort
        from tokenizers import Tokenizer

        try:
            self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as err:
            raise ValueError(
                f"{folder / 'tokenizer.json'} is not a tokenizers file: {err}"
            ) from err
        self._tokenizer.enable_truncation(max_length, strategy="longest_first")
        pad_id = self._tokenizer.token_to_id("[PAD]")
        self._tokenizer.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token="[PAD]")
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        try:
            self._session = ort.InferenceSession(
                str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"]
            )
        except Exception as err:
            raise ValueError(
                f"{folder / 'model.onnx'} is not a loadable ONNX model: {err}"
            ) from err
        self._inputs = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= self._inputs:
            raise ValueError(
                f"{folder / 'model.onnx'} takes {sorted(self._inputs)}; a cross-encoder needs "
                "input_ids and attention_mask"
            )
        self._batch_size = batch_size
        self.name = f"cross-encoder:{folder.name}"

    async def rerank(
        self,
        query: str,
        documents: Sequence[str],
        *,
        candidates: Sequence[Passage] | None = None,
    ) -> list[float]:
        if not documents:
            return []
        try:
            return await asyncio.to_thread(self.score, query, documents)
        except Exception as err:
            raise RerankError(failure(self.name, err)) from err

    def score(self, query: str, documents: Sequence[str]) -> list[float]:
        """Relevance of each document (synchronous; for benchmarks)."""
        scores: list[float] = []
        for start in range(0, len(documents), self._batch_size):
            batch = documents[start : start + self._batch_size]
            encodings = self._tokenizer.encode_batch([(query, doc) for doc in batch])
            feed = {
                "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
            }
            outputs = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})
            logits = np.asarray(outputs[0], dtype=np.float64).reshape(len(batch), -1)
            logit = logits[:, 1] - logits[:, 0] if logits.shape[1] == 2 else logits[:, 0]
            scores.extend(float(s) for s in sigmoid(logit))
        return scores
