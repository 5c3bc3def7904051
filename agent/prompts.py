"""Every prompt and canned reply, as named constants filled with ``str.format``."""

from __future__ import annotations

#: The stable prefix of every answering call (providers cache it): role, grounding, citations.
SYSTEM_PROMPT = """\
You are Bosun, an assistant that answers questions about an operator's document archive: \
emails and their attachments, incident and accident investigation reports, casualty records.

Grounding: answer only from passages returned by the search_archive tool. If the passages do not \
answer the question, say so plainly and suggest how to narrow or rephrase it. Never guess names, \
dates, numbers or causes.

Citations: every passage starts with a header like \
[CITE:3f9a1c0b7e21 | title:"..." | date:2024-01-15]. After each statement, cite the passage it \
comes from as [C:3f9a1c0b7e21], using the 12-character id from that header exactly. Cite only ids \
you were given; never invent one.

Search the archive before answering a question about its contents. Keep answers short and factual; \
use the user's language."""

#: The dynamic part of a call, placed after the conversation history so the prefix stays cached.
CONTEXT_PROMPT = """\
{instructions}

Active filters: {filters}

{passages}

Question: {question}"""

#: What the model is told to do at each step of a factual turn.
SEARCH_INSTRUCTIONS = (
    "Call search_archive with a search query for the question below before answering."
)
ANSWER_INSTRUCTIONS = (
    "Answer the question from the passages below. Cite each statement with [C:<id>]. If the "
    "passages only partly answer it, say what is missing."
)
SINGLE_REPORT_INSTRUCTIONS = (
    " The user is asking about one report: use all of its sections, not other reports."
)
NO_PASSAGES = "(no passages retrieved yet)"
NO_FILTERS = "none (the whole archive)"

#: Intent classification with a chat model (temperature 0); the reply is one label.
CLASSIFY_PROMPT = """\
Classify the user's message for a document-archive assistant. Reply with exactly one label:
greeting - a hello or introduction with no question
acknowledgement - thanks, ok, understood, goodbye
general - a question about the assistant itself: what it can do, how to use it
factual_query - anything asking about documents, vessels, incidents, reports or facts

Message: {message}
Label:"""

#: Canned replies for turns that need no search.
GREETING_REPLY = (
    "Hello! I answer questions about the document archive and cite the original documents. "
    "Ask about a vessel, an incident, a report number (e.g. ERA22LA175) or a period."
)
ACKNOWLEDGEMENT_REPLY = "You're welcome. Ask me anything else about the archive."
GENERAL_REPLY = (
    "I search the archive — emails with their attachments and investigation reports — and answer "
    "with citations [1], [2] to the original documents. You can narrow a search by vessel name or "
    'IMO number, vessel type or class, a report number, or years ("in 2019", "since 2020"); '
    'filters stay on for follow-up questions until you change them or say "clear filters". '
    "Active filters: {filters}."
)

#: The relevance cutoff stopped the turn before any answer was generated.
NO_RESULTS_REPLY = "No relevant documents found — rephrase the question or check your filters."

#: A filter the user asked for matched nothing; the search is not widened.
FILTER_PROBLEM_REPLY = (
    "{problem} I did not search the rest of the archive instead. Rephrase the filter, or say "
    '"any vessel", "all reports", "any date" or "clear filters" to widen the search.'
)
FILTERS_CHANGED_REPLY = "Filters updated. Active filters: {filters}. What would you like to know?"
UNKNOWN_VESSEL = 'No vessel named "{name}" is in the archive.{hint}'
UNKNOWN_VESSEL_HINT = " Did you mean: {names}?"
NO_MATCHING_DOCUMENTS = "No documents match the filters ({filters})."

#: The search tool's description (what another agent reads too).
SEARCH_TOOL_DESCRIPTION = (
    "Search the document archive (emails, attachments, investigation reports) with hybrid "
    "keyword + semantic retrieval. Input: a search query in the archive's own terms; exact "
    "identifiers such as report numbers, IMO numbers and part numbers are matched exactly. "
    "Returns passages, each with a [CITE:<id> | ...] header whose id is cited as [C:<id>]."
)

#: Offline extractive answers: the lead-in and the line when no sentence matched the question.
EXTRACTIVE_LEAD = "From the archive:"
EXTRACTIVE_NOTHING = (
    "The retrieved documents do not state this directly; the closest passages are cited below."
)

#: Appended when more than half of an answer's citations could not be verified.
FLAGGED_NOTE = (
    "Note: most citations in this answer could not be verified against the archive and were "
    "removed; treat it with caution."
)

#: Ingest enrichment (agent/ingest/enrich.py): the context summary a chat model writes.
CONTEXT_SUMMARY_PROMPT = """\
Write the context summary of the document below: one or two plain sentences, at most {chars} \
characters, saying what the document is and what it is about (who, what, when, which vessel or \
aircraft). Use only facts stated in the document. Reply with the summary alone.

{header}

{text}"""

#: Thread digests (agent/ingest/digests.py): a problem -> investigation -> resolution narrative.
THREAD_DIGEST_PROMPT = """\
Below are the messages of one email thread, oldest first. Write a digest of the thread in \
{min_words} to {max_words} words, as three short paragraphs that begin "Problem:", \
"Investigation:" and "Resolution:": the problem the first message reports, what the following \
messages found or tried, and how the thread ended (say plainly if it ended unresolved). Keep \
names, part numbers, error messages and figures exactly as written. Use only facts stated in \
the messages. Reply with the digest alone.

Subject: {subject}

{messages}"""

#: Query expansion (tools/expansion.py): rewrite a question into the archive's terminology.
QUERY_EXPANSION_PROMPT = """\
Rewrite the search query below into the terminology the archive's documents use (for accident \
reports: the investigators' terms, e.g. "pilot confused in clouds" -> "spatial disorientation, \
VFR into IMC, loss of control"). Keep every name, number and identifier of the query. Reply with \
one line of at most 30 words: the query's key terms followed by their technical synonyms, no \
explanation.

Query: {query}"""
