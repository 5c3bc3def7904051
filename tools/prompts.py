"""The search tool's description and the texts answer assembly writes, as named constants."""

from __future__ import annotations

#: The search tool's description (what another agent reads too).
SEARCH_TOOL_DESCRIPTION = (
    "Search the document archive (emails, attachments, investigation reports) with hybrid "
    "keyword + semantic retrieval. Input: a search query in the archive's own terms; exact "
    "identifiers such as report numbers, IMO numbers and part numbers are matched exactly. "
    "Returns passages, each with a [CITE:<id> | ...] header whose id is cited as [C:<id>]."
)

#: Query expansion (tools/expansion.py): rewrite a question into the archive's terminology.
QUERY_EXPANSION_PROMPT = """\
Rewrite the search query below into the terminology the archive's documents use (for accident \
reports: the investigators' terms, e.g. "pilot confused in clouds" -> "spatial disorientation, \
VFR into IMC, loss of control"). Keep every name, number and identifier of the query. Reply with \
one line of at most 30 words: the query's key terms followed by their technical synonyms, no \
explanation.

Query: {query}"""

#: The relevance cutoff stopped the turn before any answer was generated.
NO_RESULTS_REPLY = "No relevant documents found — rephrase the question or check your filters."

NO_FILTERS = "none (the whole archive)"

UNKNOWN_VESSEL = 'No vessel named "{name}" is in the archive.{hint}'

UNKNOWN_VESSEL_HINT = " Did you mean: {names}?"

#: Offline extractive answers: the lead-in and the line when no sentence matched the question.
EXTRACTIVE_LEAD = "From the archive:"

#: A pattern question: one line per distinct document.
PATTERN_LEAD = "From the archive, {n} records, each with its stated cause or outcome:"

#: The question names what no retrieved passage holds: say so, then list the related records.
NOT_FOUND = "Not in the archive: nothing retrieved mentions {terms}."

CLOSEST_RECORDS = "The closest related records are:"

#: Every relevant sentence was already said earlier in the conversation.
NOTHING_NEW = "The archive adds nothing to what was already said above."

#: ... and the best of them is pointed back to.
ALREADY_SAID = "The archive adds nothing new; as said above:"

#: How a year in the question was used (offline answers say it first).
YEAR_RANKED = (
    "{year} is mentioned in passing: the whole archive was searched, records from {year} first."
)
DATES_FILTERED = "Dates filtered to {dates}, as asked."

EXTRACTIVE_NOTHING = (
    "The retrieved documents do not state this directly; the closest passages are cited below."
)
