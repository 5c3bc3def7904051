"""Ingest-time enrichment: a context summary and an embedding mode for every document.

:func:`enrich` is the pipeline's ``prepare`` hook (``ingest_documents(..., prepare=enrich)``). It is
deterministic and offline: the summary is built from the document's own fields and first
informative sentences. :func:`llm_enricher` returns the same hook backed by a chat model, falling
back to the offline summary when the model fails.

Embedding modes (see DESIGN.md, "build context"):

- ``metadata_only`` -- images, binaries, unreadable files (the email loader decides);
- ``summary`` -- content that is itself a synopsis: a casualty record with no narrative, whose
  fact list fits in the summary; the vector and the context then hold that one line, once;
- ``full`` -- everything else, thread digests included (see :mod:`archive.ingest.digests`): the
  context shows the summary, ``---``, the passage.

The summary is context for the answering model. Prefixed to the passage's embedding text it
lowered retrieval on ntsb_pc2narr dev (nDCG@10 dense 0.2281 -> 0.2202, hybrid 0.4271 -> 0.4242;
docs/retrieval.md, "Studies") and on the thread digests (MRR 0.63 -> 0.54), so a
``full`` passage is embedded under its title alone, or bare when the title is only a metadata
line (see :func:`archive.ingest.writer.embedding_text`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import Runnable

from archive.ingest import prompts
from archive.ingest.loaders import REGISTRY
from archive.ingest.model import EmbeddingMode, SourceDocument
from text.sentences import sentences

logger = logging.getLogger(__name__)

#: Context summaries are capped at this many characters (cut at a word, with an ellipsis).
SUMMARY_CHARS = 300
#: Characters of document text a chat model sees when it writes a summary.
LLM_INPUT_CHARS = 4000

_GREETING = re.compile(
    r"^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings|all|team|folks)\b"
    r"[^.!?]{0,40}[,!:.]?$",
    re.IGNORECASE,
)
_CHATTER = re.compile(
    r"^(?:thanks?(?: you)?(?: (?:all|very much|so much|again|in advance))?|many thanks|cheers|"
    r"regards|best(?: regards)?|kind regards|ok(?:ay)?|sure|yes|no|hope (?:this|that) helps|"
    r"see (?:below|attached)|please see (?:below|attached))\b[^.!?]{0,30}[.!]?$",
    re.IGNORECASE,
)
_SUBJECT_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|aw|sv|antw|wg)\s*(?:\[\d+\])?\s*:\s*|\[[^\]]{1,40}\]\s*)+", re.IGNORECASE
)
_QUOTE_HEADER = re.compile(
    r"(?:^|\s)(?:From|Von|De|Van|Da)\s*:\s[^\n]{0,200}?\s(?:Sent|Gesendet|Envoyé|Verzonden|Inviato|"
    r"Date|Datum)\s*:\s|^\s*-{3,}\s*Original Message|^\s*_{10,}\s*$",
    re.MULTILINE | re.IGNORECASE,
)
_VIA_LIST = re.compile(r"\s+via\s+\S.*$", re.IGNORECASE)

# --- the hook -----------------------------------------------------------------------------


def enrich(doc: SourceDocument) -> SourceDocument:
    """``doc`` with a context summary (unless it has one) and its embedding mode."""
    summary = doc.summary.strip() or context_summary(doc)
    return replace(doc, summary=summary, embedding_mode=embedding_mode(doc, summary))


def llm_enricher(
    model: BaseChatModel | Runnable, *, kinds: frozenset[str] | None = None
) -> Callable[[SourceDocument], SourceDocument]:
    """A ``prepare`` hook whose summaries a chat model writes (documents of ``kinds`` only; by
    default the kinds that declare ``model_summary``: mail and plain text).

    Structured records (NTSB, casualties, TAIC) keep their deterministic summaries, which already
    hold the facts a model would pick. A failed call falls back to the offline summary, logged.
    """
    if kinds is None:
        kinds = frozenset(kind.name for kind in REGISTRY.kinds() if kind.model_summary)

    def prepare(doc: SourceDocument) -> SourceDocument:
        enriched = enrich(doc)
        if doc.summary.strip() or doc.kind not in kinds or enriched.embedding_mode != "full":
            return enriched
        try:
            written = summarize_with_model(doc, model)
        except Exception as err:  # a provider outage must not stop an ingest run
            logger.warning(
                "LLM summary of %s failed, using the offline one: %s",
                doc.source_id,
                type(err).__name__,
            )
            return enriched
        return replace(enriched, summary=written or enriched.summary)

    return prepare


def summarize_with_model(doc: SourceDocument, model: BaseChatModel | Runnable) -> str:
    """A chat model's one- or two-sentence context summary of ``doc`` (capped)."""
    text = "\n\n".join(s.text for s in doc.sections)[:LLM_INPUT_CHARS]
    reply = model.invoke(
        prompts.CONTEXT_SUMMARY_PROMPT.format(header=_header(doc), text=text, chars=SUMMARY_CHARS)
    )
    content = reply.content if hasattr(reply, "content") else reply
    return clip(" ".join(str(content).split()), SUMMARY_CHARS)


# --- summaries ----------------------------------------------------------------------------


def context_summary(doc: SourceDocument) -> str:
    """The document-level context of ``doc`` in at most :data:`SUMMARY_CHARS` characters: as
    its kind declares, else its title and first informative sentences."""
    kind = REGISTRY.kind(doc.kind)
    if kind.summary is not None:
        return kind.summary(doc)
    return fill(doc.title.rstrip(". ") + ".", body_sentences(doc))


def embedding_mode(doc: SourceDocument, summary: str | None = None) -> EmbeddingMode:
    """``metadata_only`` as the loader decided, else as the document's kind declares (a
    synopsis-only casualty: ``summary``), else ``full`` (see the module docstring)."""
    if doc.embedding_mode == "metadata_only":
        return "metadata_only"
    kind = REGISTRY.kind(doc.kind)
    return kind.embedding_mode(doc, summary) if kind.embedding_mode is not None else "full"


def informative_sentences(text: str) -> list[str]:
    """Sentences of ``text`` that carry content: no greetings, thanks, sign-offs or bare names,
    nothing after an Outlook-style quote header ("From: ... Sent: ...")."""
    return list(_informative(text))


def _informative(text: str) -> Iterator[str]:
    """:func:`informative_sentences` one at a time: a summary reads only as many as it holds
    (a 30 MB text file is not split into sentences to fill 300 characters)."""
    for paragraph in re.split(r"\n\s*\n", strip_quoted(text)):
        flat = " ".join(paragraph.split())
        if not flat or flat.startswith(("--", "__", ">")):
            continue
        for sentence in sentences(flat):
            words = re.findall(r"[A-Za-z]{2,}", sentence)
            if len(words) < 4 or _GREETING.match(sentence) or _CHATTER.match(sentence):
                continue
            if sum(ch.isalpha() or ch.isspace() for ch in sentence) < 0.6 * len(sentence):
                continue  # code, logs, tables
            yield sentence


def strip_quoted(text: str) -> str:
    """``text`` up to the quoted message a top-posted reply carries ("From: X Sent: Y ...",
    "-----Original Message-----", a line of underscores); all of it when nothing precedes the
    quote."""
    match = _QUOTE_HEADER.search(text)
    if match is None or not text[: match.start()].strip():
        return text  # nothing before it: a forwarded message, the quote is the content
    return text[: match.start()].rstrip()


def clean_subject(subject: str | None) -> str:
    """A subject without reply/forward prefixes and list tags ("RE: [USRP-users] X" -> "X")."""
    return _SUBJECT_PREFIX.sub("", subject or "").strip() or "(no subject)"


def display_sender(doc: SourceDocument) -> str:
    """The sender's name when the message has one ("Olo via USRP-users" -> "Olo"), else address."""
    name = _VIA_LIST.sub("", doc.metadata.get("from_name", "")).strip().strip('"')
    return name or doc.sender or "unknown sender"


def clip(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters (``…`` marks a cut)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:-")
    return cut + "…"


def _header(doc: SourceDocument) -> str:
    kind = REGISTRY.kind(doc.kind)
    return kind.header(doc) if kind.header is not None else doc.title.rstrip(".") + "."


def body_sentences(doc: SourceDocument) -> Iterator[str]:
    """The informative sentences of all of ``doc``'s sections, in order, one at a time (a
    summary reads only as many as it holds)."""
    return _informative("\n\n".join(s.text for s in doc.sections))


def fill(head: str, sentences: Iterable[str]) -> str:
    """``head`` followed by as many whole sentences as fit (the first one cut if it must)."""
    out = clip(head, SUMMARY_CHARS)
    for n, sentence in enumerate(sentences):
        candidate = f"{out} {sentence}"
        if len(candidate) <= SUMMARY_CHARS:
            out = candidate
        elif n == 0 and SUMMARY_CHARS - len(out) > 60:
            out = clip(candidate, SUMMARY_CHARS)
            break
        else:
            break
    return out
