"""The search tool's description, the query expansion prompt and the filter texts, as named
constants (the texts answers are written with are in :mod:`answers.prompts`)."""

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

NO_FILTERS = "none (the whole archive)"

UNKNOWN_VESSEL = 'No vessel named "{name}" is in the archive.{hint}'

UNKNOWN_VESSEL_HINT = " Did you mean: {names}?"
