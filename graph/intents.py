"""Is a message a question for the archive, or a greeting, a thank-you, or about the assistant?

The deciders, cheapest first (``graph.nodes.classify_intent``): a regex fast path for greetings
and thanks; archive entities (report and IMO numbers, registered vessels); a nearest-centroid
classifier over the local embeddings of the example utterances below (their centroids ship
precomputed in ``data/intent_centroids.json``, keyed by the embedding model's fingerprint and the
examples' hash, and are recomputed once per process only when either differs); a chat model
at temperature 0 only where that classifier does not call the message a question. Anything
uncertain is a ``factual_query``, so a search is never blocked by a wrong guess: an off-topic
question is searched and stopped by the relevance cutoff.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, get_args

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from graph import prompts

logger = logging.getLogger(__name__)

Intent = Literal["greeting", "acknowledgement", "general", "factual_query"]
INTENTS: tuple[Intent, ...] = get_args(Intent)

_TAIL = r"[\s!.,:;)\-~*]*(?:[:;]-?[)D])?[\s!.]*"
GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|hiya|howdy|greetings|hallo|moin|ahoy|yo|"
    r"good\s+(?:morning|afternoon|evening|day))"
    r"(?:[\s,]+(?:there|all|everyone|team|folks|bosun|bot|again))*" + _TAIL + "$",
    re.IGNORECASE,
)
ACKNOWLEDGEMENT = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|great|perfect|cool|nice|excellent|awesome|brilliant|good|fine|"
    r"understood|noted|got\s+it|i\s+see|sounds\s+good|makes\s+sense)[\s,!.]*)?"
    r"(?:thanks?|thank\s+you|thx|ty|cheers|many\s+thanks|much\s+appreciated|appreciate\s+it|"
    r"ok(?:ay)?|great|perfect|cool|nice|excellent|awesome|brilliant|understood|noted|got\s+it|"
    r"sounds\s+good|makes\s+sense|bye|goodbye|see\s+you)"
    r"(?:[\s,!.]+(?:so\s+much|very\s+much|a\s+lot|again|mate|bosun|for\s+(?:that|the\s+help|"
    r"your\s+help)|that\s+helps|that'?s\s+(?:great|helpful|all)))*" + _TAIL + "$",
    re.IGNORECASE,
)

#: Example utterances per intent; their embeddings' centroids classify messages.
EXAMPLES: dict[Intent, tuple[str, ...]] = {
    "greeting": (
        "hi",
        "hello",
        "hey there",
        "good morning",
        "good afternoon",
        "good evening",
        "hello, how are you?",
        "hi, nice to meet you",
        "hey bosun",
        "greetings",
        "hello again",
        "hi team",
        "morning!",
        "howdy",
        "hi, anyone there?",
        "hello, is this working?",
        "hey, how's it going?",
        "good day to you",
        "hi there, I'm new here",
        "hello assistant",
        "yo",
        "hiya",
        "hey, hello",
        "good morning, hope you are well",
        "hi! how are you doing today?",
    ),
    "acknowledgement": (
        "thanks",
        "thank you",
        "thank you very much",
        "great, thanks",
        "ok got it",
        "that was helpful",
        "perfect, that's what I needed",
        "appreciate it",
        "cheers",
        "ok",
        "understood",
        "noted, thanks",
        "awesome",
        "brilliant, thank you",
        "that helps a lot",
        "makes sense, thanks",
        "cool",
        "nice one",
        "thanks, bye",
        "goodbye",
        "see you later",
        "ok, that's all for now",
        "great answer",
        "thanks for your help",
        "all clear, thank you",
    ),
    "general": (
        "what can you do?",
        "who are you?",
        "how do I use this?",
        "what kind of questions can I ask?",
        "which documents do you have access to?",
        "how do citations work?",
        "are you an AI?",
        "what is bosun?",
        "can you help me?",
        "what are you for?",
        "how does this assistant work?",
        "what sources do you use?",
        "how do I filter by vessel?",
        "can I ask about reports?",
        "what languages do you speak?",
        "who built you?",
        "how accurate are your answers?",
        "what data do you search?",
        "how do I clear the filters?",
        "explain what you do",
        "what commands are there?",
        "do you remember our conversation?",
        "what can I search for?",
        "tell me about yourself",
        "how should I phrase my questions?",
    ),
    "factual_query": (
        "what caused the engine failure on Nordic Star?",
        "how was the cylinder crack resolved?",
        "list incidents involving tankers in 2019",
        "what mistakes did the pilot make",
        "common causes of fatal landing accidents",
        "when was the last port state inspection?",
        "who reported the ballast pump leak?",
        "show me emails about the cargo damage",
        "what is the IMO number of Baltic Trader",
        "summarize the probable cause of ERA22LA175",
        "any engine issues last month?",
        "what happened during the collision in the harbour?",
        "which vessels had hull damage",
        "what did the surveyor find in the cargo hold?",
        "were there injuries in the fire?",
        "what was the weather at the time of the accident?",
        "why did the aircraft lose power after takeoff?",
        "details of the grounding incident",
        "what spare parts were ordered for the main engine?",
        "findings of the investigation",
        "how many crew were on board?",
        "what repairs were done in dry dock?",
        "tell me about the oil spill",
        "status of the insurance claim",
        "what was the pilot's flight experience?",
    ),
}

#: A non-factual centroid must be at least this similar...
MIN_SIMILARITY = 0.45
#: ...and beat the factual centroid by this much.
MARGIN = 0.04

#: Centroids computed once with the pinned local model (:func:`write_centroids` refreshes them).
CENTROIDS_PATH = Path(__file__).parent / "data" / "intent_centroids.json"

_centroids: dict[str, np.ndarray] = {}  # embedding model key -> (intents x dim) unit centroids
_centroid_lock = asyncio.Lock()


def fast_intent(text: str) -> Intent | None:
    """Greetings and thanks caught by regex before any model runs."""
    if GREETING.match(text):
        return "greeting"
    if ACKNOWLEDGEMENT.match(text):
        return "acknowledgement"
    return None


def _model_key(embeddings: Embeddings) -> str:
    fingerprint = getattr(embeddings, "fingerprint", None)
    if isinstance(fingerprint, str) and fingerprint:
        return fingerprint
    for attr in ("model", "model_name", "name"):
        value = getattr(embeddings, attr, None)
        if isinstance(value, str) and value:
            return f"{type(embeddings).__qualname__}:{value}"
    return f"{type(embeddings).__qualname__}:{id(embeddings)}"


def _unit(rows: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


def examples_sha256() -> str:
    """Hash of the intents and their example utterances, in order."""
    payload = json.dumps([[intent, list(EXAMPLES[intent])] for intent in INTENTS])
    return hashlib.sha256(payload.encode()).hexdigest()


def cache_key(embeddings: Embeddings) -> dict[str, str] | None:
    """What stored centroids must match: the model's fingerprint (model id and file hashes)
    and the examples' hash; ``None`` for a model without a fingerprint (remote models)."""
    fingerprint = getattr(embeddings, "fingerprint", None)
    if not isinstance(fingerprint, str) or not fingerprint:
        return None
    return {"embeddings": fingerprint, "examples_sha256": examples_sha256()}


def stored_centroids(embeddings: Embeddings, path: Path | None = None) -> np.ndarray | None:
    """The centroids in ``path`` (default :data:`CENTROIDS_PATH`) when they were computed by this
    model from these examples, else ``None`` (logged)."""
    path = path or CENTROIDS_PATH
    key = cache_key(embeddings)
    if key is None:
        return None
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        logger.info("intent centroids not read from %s (%s): computing them", path, err)
        return None
    if {k: stored.get(k) for k in key} != key or stored.get("intents") != list(INTENTS):
        logger.info("intent centroids in %s are for another model or examples: recomputing", path)
        return None
    table = np.asarray(stored["centroids"], dtype=np.float64)
    if table.shape[0] != len(INTENTS):
        return None
    return _unit(table)


async def compute_centroids(embeddings: Embeddings) -> np.ndarray:
    """Embed every example utterance; the unit mean per intent, in :data:`INTENTS` order."""
    texts = [t for intent in INTENTS for t in EXAMPLES[intent]]
    vectors = _unit(np.asarray(await embeddings.aembed_documents(texts), dtype=np.float64))
    rows, start = [], 0
    for intent in INTENTS:
        n = len(EXAMPLES[intent])
        rows.append(vectors[start : start + n].mean(axis=0))
        start += n
    return _unit(np.stack(rows))


async def write_centroids(embeddings: Embeddings, path: Path | None = None) -> None:
    """Compute the centroids and store them with their key (run after editing :data:`EXAMPLES`:
    ``python -c "import asyncio; from graph.intents import *; from providers.minilm import
    default_minilm; asyncio.run(write_centroids(default_minilm()))"``)."""
    key = cache_key(embeddings)
    if key is None:
        raise ValueError("only a model with a fingerprint can have stored centroids")
    table = await compute_centroids(embeddings)
    record = {**key, "intents": list(INTENTS), "centroids": table.round(8).tolist()}
    (path or CENTROIDS_PATH).write_text(json.dumps(record) + "\n")


async def centroids(embeddings: Embeddings) -> np.ndarray:
    """Unit centroids of the example utterances, one row per intent in :data:`INTENTS` order:
    the stored ones when they match the model and examples, else computed once per process."""
    key = _model_key(embeddings)
    async with _centroid_lock:
        if key not in _centroids:
            table = stored_centroids(embeddings)
            _centroids[key] = table if table is not None else await compute_centroids(embeddings)
        return _centroids[key]


async def classify_by_embeddings(text: str, embeddings: Embeddings) -> tuple[Intent, float]:
    """Nearest centroid, with a bias to ``factual_query`` when the decision is close."""
    table = await centroids(embeddings)
    query = _unit(np.asarray(await embeddings.aembed_query(text), dtype=np.float64))
    sims = table @ query
    best = int(np.argmax(sims))
    intent = INTENTS[best]
    factual = float(sims[INTENTS.index("factual_query")])
    if intent != "factual_query" and (sims[best] < MIN_SIMILARITY or sims[best] - factual < MARGIN):
        return "factual_query", factual
    return intent, float(sims[best])


def parse_label(reply: str, labels: Sequence[str] = INTENTS) -> Intent:
    """The first intent label in a model's reply; ``factual_query`` when there is none."""
    found = re.findall(r"[a-z_]+", reply.lower())
    for word in found:
        if word in labels:
            return word  # type: ignore[return-value]
    return "factual_query"


async def classify_by_model(text: str, model: Runnable[LanguageModelInput, BaseMessage]) -> Intent:
    """One label from a chat model (configured at temperature 0 by the providers module)."""
    reply = await model.ainvoke(prompts.CLASSIFY_PROMPT.format(message=text))
    content = reply.content if isinstance(reply.content, str) else str(reply.content)
    return parse_label(content)
